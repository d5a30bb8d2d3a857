#include "httpdriver.h"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <vector>

#include "core/percentile.h"

namespace meridian {

using SteadyClock = std::chrono::steady_clock;

int drive(const DriveOptions &options)
{
    // When each request is due, drawn up front: the schedule does not bend to the server.
    std::mt19937_64 rng(options.seed);
    std::exponential_distribution<double> gap(options.rps);
    std::vector<double> due;
    for (double t = gap(rng); t < options.seconds; t += gap(rng))
        due.push_back(t);
    const std::string body = nlohmann::json({{"model", "any"},
                                             {"prompt", std::string(options.promptTokens * 4, 'a')},
                                             {"max_tokens", options.maxTokens},
                                             {"stream", true}})
                                 .dump();
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::vector<double> ttft, e2e;
    size_t failed = 0;
    std::string firstProblem;
    const auto start = SteadyClock::now();
    const auto worker = [&] {
        httplib::Client client(options.url);
        client.set_connection_timeout(5);
        client.set_read_timeout(600);
        for (size_t i = next++; i < due.size(); i = next++) {
            const auto dueAt = start + std::chrono::duration_cast<SteadyClock::duration>(
                                           std::chrono::duration<double>(due[i]));
            std::this_thread::sleep_until(dueAt);
            std::optional<double> first;
            std::string error;
            httplib::Request request;
            request.method = "POST";
            request.path = "/v1/completions";
            request.body = body;
            request.set_header("Content-Type", "application/json");
            request.content_receiver = [&](const char *, size_t, uint64_t, uint64_t) {
                if (!first)
                    first = std::chrono::duration<double>(SteadyClock::now() - dueAt).count();
                return true;
            };
            const auto result = client.send(request);
            const double total = std::chrono::duration<double>(SteadyClock::now() - dueAt).count();
            std::lock_guard lock(mutex);
            if (!result || result->status != 200) {
                ++failed;
                if (firstProblem.empty())
                    firstProblem = result ? fmt::format("HTTP {}", result->status)
                                          : httplib::to_string(result.error());
                continue;
            }
            ttft.push_back(first.value_or(total));
            e2e.push_back(total);
        }
    };
    std::vector<std::thread> workers;
    for (int c = 0; c < std::max(1, options.connections); ++c)
        workers.emplace_back(worker);
    for (std::thread &w : workers)
        w.join();
    fmt::print("sent {}  answered {}  failed {}{}\n", due.size(), e2e.size(), failed,
               firstProblem.empty() ? "" : fmt::format(" (first: {})", firstProblem));
    fmt::print("ttft p50 {:.3f} s  p95 {:.3f} s  end-to-end p95 {:.3f} s\n",
               nearestRankPercentile(ttft, 0.5), nearestRankPercentile(ttft, 0.95),
               nearestRankPercentile(e2e, 0.95));
    return failed == 0 ? 0 : 1;
}

}  // namespace meridian

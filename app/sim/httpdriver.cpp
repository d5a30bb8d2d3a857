#include "httpdriver.h"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
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
                                             {"stream", options.stream}})
                                 .dump();
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::vector<double> ttft, e2e;
    size_t failed = 0;
    std::string firstProblem;
    std::vector<std::string> rows;
    const auto start = SteadyClock::now();
    const int64_t startUnixMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
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
            const bool ok = result && result->status == 200;
            if (!options.samplesFile.empty())
                rows.push_back(fmt::format("{},{:.3f},{:.3f},{}\n",
                                           startUnixMs + static_cast<int64_t>(due[i] * 1000),
                                           first.value_or(total), total, ok ? 1 : 0));
            if (!ok) {
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
    if (!options.samplesFile.empty()) {
        std::ofstream samples(options.samplesFile);
        samples << "due_unix_ms,ttft_s,e2e_s,ok\n";
        for (const std::string &row : rows)
            samples << row;
        if (!samples)
            fmt::print(stderr, "meridian-sim drive: cannot write {}\n", options.samplesFile);
    }
    fmt::print("sent {}  answered {}  failed {}{}\n", due.size(), e2e.size(), failed,
               firstProblem.empty() ? "" : fmt::format(" (first: {})", firstProblem));
    fmt::print("ttft p50 {:.3f} s  p95 {:.3f} s  end-to-end p95 {:.3f} s\n",
               nearestRankPercentile(ttft, 0.5), nearestRankPercentile(ttft, 0.95),
               nearestRankPercentile(e2e, 0.95));
    return failed == 0 ? 0 : 1;
}

}  // namespace meridian

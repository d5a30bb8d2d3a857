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

namespace {

// When each request is due, drawn up front: the schedule does not bend to the server.
std::vector<double> dueTimes(const DriveOptions &options)
{
    std::mt19937_64 rng(options.seed);
    std::exponential_distribution<double> gap(options.rps);
    std::vector<double> due;
    for (double t = gap(rng); t < options.seconds; t += gap(rng))
        due.push_back(t);
    return due;
}

// One request's answer, timed from when it was due.
struct Answer {
    double ttftS = 0;   // its first bytes (the whole answer where none came first)
    double totalS = 0;  // its last
    std::string problem;
    bool ok() const { return problem.empty(); }
};

Answer send(httplib::Client &client, const std::string &body, SteadyClock::time_point dueAt)
{
    std::optional<double> first;
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
    Answer answer;
    answer.totalS = std::chrono::duration<double>(SteadyClock::now() - dueAt).count();
    answer.ttftS = first.value_or(answer.totalS);
    if (!result)
        answer.problem = httplib::to_string(result.error());
    else if (result->status != 200)
        answer.problem = fmt::format("HTTP {}", result->status);
    return answer;
}

void writeSamples(const std::string &path, const std::vector<std::string> &rows)
{
    std::ofstream samples(path);
    samples << "due_unix_ms,ttft_s,e2e_s,ok\n";
    for (const std::string &row : rows)
        samples << row;
    if (!samples)
        fmt::print(stderr, "meridian-sim drive: cannot write {}\n", path);
}

}  // namespace

int drive(const DriveOptions &options)
{
    const std::vector<double> due = dueTimes(options);
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
            const Answer answer = send(client, body, dueAt);
            std::lock_guard lock(mutex);
            if (!options.samplesFile.empty())
                rows.push_back(fmt::format("{},{:.3f},{:.3f},{}\n",
                                           startUnixMs + static_cast<int64_t>(due[i] * 1000),
                                           answer.ttftS, answer.totalS, answer.ok() ? 1 : 0));
            if (!answer.ok()) {
                ++failed;
                if (firstProblem.empty())
                    firstProblem = answer.problem;
                continue;
            }
            ttft.push_back(answer.ttftS);
            e2e.push_back(answer.totalS);
        }
    };
    std::vector<std::thread> workers;
    for (int c = 0; c < std::max(1, options.connections); ++c)
        workers.emplace_back(worker);
    for (std::thread &w : workers)
        w.join();
    if (!options.samplesFile.empty())
        writeSamples(options.samplesFile, rows);
    fmt::print("sent {}  answered {}  failed {}{}\n", due.size(), e2e.size(), failed,
               firstProblem.empty() ? "" : fmt::format(" (first: {})", firstProblem));
    fmt::print("ttft p50 {:.3f} s  p95 {:.3f} s  end-to-end p95 {:.3f} s\n",
               nearestRankPercentile(ttft, 0.5), nearestRankPercentile(ttft, 0.95),
               nearestRankPercentile(e2e, 0.95));
    return failed == 0 ? 0 : 1;
}

}  // namespace meridian

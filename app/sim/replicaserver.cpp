#include "replicaserver.h"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

namespace meridian {

namespace {

using SteadyClock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_draining = 0;
void onTerm(int)
{
    g_draining = 1;
}

// vLLM's TTFT bucket bounds, and those of its request latencies (the queue time's).
constexpr std::array<double, 22> kTtftBounds = {0.001, 0.005, 0.01, 0.02,  0.04,  0.06,  0.08, 0.1,
                                                0.25,  0.5,   0.75, 1.0,   2.5,   5.0,   7.5,  10.0,
                                                20.0,  40.0,  80.0, 160.0, 640.0, 2560.0};
constexpr std::array<double, 21> kLatencyBounds = {0.3,  0.5,  0.8,   1.0,   1.5,   2.0,   2.5,
                                                   5.0,  10.0, 15.0,  20.0,  30.0,  40.0,  50.0,
                                                   60.0, 120., 240.0, 480.0, 960.0, 1920., 7680.};

// A Prometheus histogram over fixed bounds, written as vLLM writes its own.
template <size_t N>
class Histogram {
public:
    explicit Histogram(const std::array<double, N> &bounds) : m_bounds(bounds) {}
    void observe(double value)
    {
        ++m_counts[static_cast<size_t>(std::lower_bound(m_bounds.begin(), m_bounds.end(), value) -
                                       m_bounds.begin())];
        m_sum += value;
    }
    void write(std::string &out, const char *name, const char *help,
               const std::string &labels) const
    {
        out += fmt::format("# HELP {0} {1}\n# TYPE {0} histogram\n", name, help);
        uint64_t cumulative = 0;
        for (size_t i = 0; i < N; ++i) {
            cumulative += m_counts[i];
            out += fmt::format("{}_bucket{{{},le=\"{}\"}} {}\n", name, labels, m_bounds[i],
                               cumulative);
        }
        cumulative += m_counts.back();
        out += fmt::format("{}_bucket{{{},le=\"+Inf\"}} {}\n", name, labels, cumulative);
        out += fmt::format("{}_count{{{}}} {}\n{}_sum{{{}}} {}\n", name, labels, cumulative, name,
                           labels, m_sum);
    }

private:
    const std::array<double, N> &m_bounds;
    std::array<uint64_t, N + 1> m_counts{};
    double m_sum = 0;
};

struct Request {
    double prefillLeft;
    double decodeLeft;
    int promptTokens;
    int completionTokens;
    SteadyClock::time_point arrived;
    bool prefilled = false;
    bool done = false;
};

// The batching engine: one thread advances every request in 10 ms steps.
class Engine {
public:
    explicit Engine(const ReplicaServerOptions &options) : m_options(options)
    {
        m_thread = std::thread([this] { run(); });
    }
    ~Engine()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_thread.join();
    }

    // Blocks until the first token (then `onFirstToken`) and the last.
    void serve(const std::shared_ptr<Request> &request,
               const std::function<void()> &onFirstToken = {})
    {
        std::unique_lock lock(m_mutex);
        m_waiting.push_back(request);
        m_changed.wait(lock, [&] { return request->prefilled || m_stop; });
        if (onFirstToken) {
            lock.unlock();
            onFirstToken();
            lock.lock();
        }
        m_changed.wait(lock, [&] { return request->done || m_stop; });
    }

    size_t inFlight()
    {
        std::lock_guard lock(m_mutex);
        return m_waiting.size() + m_running.size();
    }

    std::string metrics()
    {
        std::lock_guard lock(m_mutex);
        const std::string labels = fmt::format("model_name=\"{}\"", m_options.model);
        std::string out;
        const auto gauge = [&](const char *name, const char *help, double value) {
            out += fmt::format("# HELP {0} {1}\n# TYPE {0} gauge\n{0}{{{2}}} {3}\n", name, help,
                               labels, value);
        };
        gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.",
              static_cast<double>(m_waiting.size()));
        gauge("vllm:num_requests_running", "Number of requests in model execution batches.",
              static_cast<double>(m_running.size()));
        gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.",
              static_cast<double>(m_running.size()) / m_options.maxConcurrency);
        m_ttft.write(out, "vllm:time_to_first_token_seconds",
                     "Histogram of time to first token in seconds.", labels);
        m_queueTime.write(out, "vllm:request_queue_time_seconds",
                          "Histogram of time spent in WAITING phase for request.", labels);
        out += fmt::format(
            "# HELP vllm:request_success_total Count of successfully processed requests.\n"
            "# TYPE vllm:request_success_total counter\n"
            "vllm:request_success_total{{{},finished_reason=\"length\"}} {}\n",
            labels, m_finished);
        out += fmt::format(
            "# TYPE vllm:prompt_tokens_total counter\n"
            "vllm:prompt_tokens_total{{{}}} {}\n"
            "# TYPE vllm:generation_tokens_total counter\n"
            "vllm:generation_tokens_total{{{}}} {}\n",
            labels, m_promptTokens, labels, m_generationTokens);
        return out;
    }

    uint64_t finished()
    {
        std::lock_guard lock(m_mutex);
        return m_finished;
    }

private:
    void run()
    {
        constexpr double kStepS = 0.01;
        auto next = SteadyClock::now();
        std::unique_lock lock(m_mutex);
        while (!m_stop) {
            lock.unlock();
            next += std::chrono::milliseconds(10);
            std::this_thread::sleep_until(next);
            lock.lock();
            step(kStepS);
        }
        m_changed.notify_all();
    }

    void step(double dtS)
    {
        const auto now = SteadyClock::now();
        while (!m_waiting.empty() &&
               static_cast<int>(m_running.size()) < m_options.maxConcurrency) {
            m_queueTime.observe(
                std::chrono::duration<double>(now - m_waiting.front()->arrived).count());
            m_running.push_back(m_waiting.front());
            m_waiting.pop_front();
        }
        double budget = m_options.prefillTokensPerSecond * dtS;
        bool changed = false;
        for (const auto &r : m_running) {
            if (r->prefilled) {
                r->decodeLeft -= m_options.decodeTokensPerSecond * dtS;
                if (r->decodeLeft <= 0) {
                    r->done = true;
                    changed = true;
                }
                continue;
            }
            const double take = std::min(budget, r->prefillLeft);
            r->prefillLeft -= take;
            budget -= take;
            if (r->prefillLeft <= 0) {
                r->prefilled = true;
                changed = true;
                m_ttft.observe(std::chrono::duration<double>(now - r->arrived).count());
            }
        }
        for (const auto &r : m_running) {
            if (r->done) {
                ++m_finished;
                m_promptTokens += r->promptTokens;
                m_generationTokens += r->completionTokens;
            }
        }
        std::erase_if(m_running, [](const auto &r) { return r->done; });
        if (changed)
            m_changed.notify_all();
    }

    const ReplicaServerOptions &m_options;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::shared_ptr<Request>> m_waiting;
    std::vector<std::shared_ptr<Request>> m_running;
    Histogram<kTtftBounds.size()> m_ttft{kTtftBounds};
    Histogram<kLatencyBounds.size()> m_queueTime{kLatencyBounds};
    uint64_t m_finished = 0;
    uint64_t m_promptTokens = 0;
    uint64_t m_generationTokens = 0;
    bool m_stop = false;
    std::thread m_thread;
};

// Tokens in an OpenAI prompt: a string (about four characters a token) or token ids.
int promptTokens(const nlohmann::json &body)
{
    const auto prompt = body.find("prompt");
    if (prompt == body.end())
        return 1;
    if (prompt->is_string())
        return std::max<int>(1, static_cast<int>(prompt->get<std::string>().size() / 4));
    if (prompt->is_array())
        return std::max<int>(1, static_cast<int>(prompt->size()));
    return 1;
}

nlohmann::json completionBody(const std::string &model, const Request &r, const std::string &id)
{
    return {{"id", id},
            {"object", "text_completion"},
            {"model", model},
            {"choices",
             {{{"index", 0},
               {"text", std::string(r.completionTokens, 'x')},
               {"finish_reason", "length"}}}},
            {"usage",
             {{"prompt_tokens", r.promptTokens},
              {"completion_tokens", r.completionTokens},
              {"total_tokens", r.promptTokens + r.completionTokens}}}};
}

// The server's routes over one engine: /health, /metrics and /v1/completions.
class ReplicaServer {
public:
    explicit ReplicaServer(const ReplicaServerOptions &options)
        : m_options(options)
        , m_engine(options)
        , m_visible(std::getenv("CUDA_VISIBLE_DEVICES"))
        , m_weightsFile(options.weightsDir.empty() ? std::string()
                                                   : (std::filesystem::path(options.weightsDir) /
                                                      (options.model + ".weights"))
                                                         .string())
        , m_weightsThere(!m_weightsFile.empty() && std::filesystem::exists(m_weightsFile))
        , m_startSeconds(m_weightsThere ? options.loadSeconds : options.coldStartSeconds)
    {
        // A thread per connection, started up front: requests waiting for the batch hold
        // theirs, so past 128 of them /health stops answering (vLLM's event loop would).
        // In front of it, the balancer's `maxconn` keeps the queue at the balancer.
        m_server.new_task_queue = [] { return new httplib::ThreadPool(128); };
        m_server.Get("/health",
                     [this](const httplib::Request &, httplib::Response &res) { health(res); });
        m_server.Get("/metrics", [this](const httplib::Request &, httplib::Response &res) {
            res.set_content(m_engine.metrics(), "text/plain; version=0.0.4");
        });
        m_server.Post("/v1/completions", [this](const httplib::Request &req,
                                                httplib::Response &res) { complete(req, res); });
    }

    int run()
    {
        if (!m_server.bind_to_port(m_options.host, m_options.port)) {
            fmt::print(stderr, "meridian-sim serve-replica: cannot listen on {}:{}\n",
                       m_options.host, m_options.port);
            return 2;
        }
        std::thread listener([this] { m_server.listen_after_bind(); });
        fmt::print("serving {} on {}:{} (devices {})\n", m_options.model, m_options.host,
                   m_options.port, m_visible ? m_visible : "all");
        std::fflush(stdout);
        while (!g_draining) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            keepWeights();
        }
        // Drain: what is in flight finishes; new requests have been refused since SIGTERM.
        while (m_engine.inFlight() > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the last answers leave
        m_server.stop();
        listener.join();
        fmt::print("drained after {} requests\n", m_engine.finished());
        return 0;
    }

private:
    bool loading() const
    {
        return std::chrono::duration<double>(SteadyClock::now() - m_started).count() <
               m_startSeconds;
    }

    // Once fetched, the weights stay on the node's disk for the next replica there.
    void keepWeights()
    {
        if (m_weightsThere || m_weightsFile.empty() || loading())
            return;
        std::error_code ec;
        std::filesystem::create_directories(m_options.weightsDir, ec);
        std::ofstream(m_weightsFile) << m_options.model << "\n";
        m_weightsThere = true;
    }

    void health(httplib::Response &res) const
    {
        const bool ready = !loading() && !g_draining;
        res.status = ready ? 200 : 503;
        res.set_content(
            nlohmann::json({{"status", ready ? "ok" : (g_draining ? "draining" : "loading")},
                            {"model", m_options.model},
                            {"visible_devices", m_visible ? m_visible : ""}})
                .dump(),
            "application/json");
    }

    void complete(const httplib::Request &req, httplib::Response &res)
    {
        if (loading() || g_draining) {
            res.status = 503;
            res.set_content(R"({"error":"not serving"})", "application/json");
            return;
        }
        const auto body = nlohmann::json::parse(req.body, nullptr, false);
        if (body.is_discarded() || !body.is_object()) {
            res.status = 400;
            res.set_content(R"({"error":"a JSON object expected"})", "application/json");
            return;
        }
        auto r = std::make_shared<Request>();
        r->promptTokens = promptTokens(body);
        r->completionTokens = std::clamp(body.value("max_tokens", 16), 1, 100'000);
        r->prefillLeft = r->promptTokens;
        r->decodeLeft = r->completionTokens;
        r->arrived = SteadyClock::now();
        const std::string id = fmt::format("cmpl-{}", m_nextId++);
        if (m_options.crashAfterRequests > 0 &&
            ++m_accepted > static_cast<uint64_t>(m_options.crashAfterRequests))
            std::_Exit(3);
        if (!body.value("stream", false)) {
            m_engine.serve(r);
            res.set_content(completionBody(m_options.model, *r, id).dump(), "application/json");
            return;
        }
        stream(res, r, id);
    }

    // Streamed: the first chunk leaves with the first token, as a real server's does.
    void stream(httplib::Response &res, const std::shared_ptr<Request> &r, const std::string &id)
    {
        res.set_chunked_content_provider(
            "text/event-stream", [this, r, id](size_t, httplib::DataSink &sink) {
                m_engine.serve(r, [&] {
                    const std::string first =
                        "data: " +
                        nlohmann::json({{"id", id},
                                        {"object", "text_completion"},
                                        {"model", m_options.model},
                                        {"choices", {{{"index", 0}, {"text", "x"}}}}})
                            .dump() +
                        "\n\n";
                    sink.write(first.data(), first.size());
                });
                const std::string last = "data: " + completionBody(m_options.model, *r, id).dump() +
                                         "\n\ndata: [DONE]\n\n";
                sink.write(last.data(), last.size());
                sink.done();
                return true;
            });
    }

    const ReplicaServerOptions &m_options;
    Engine m_engine;
    const char *m_visible;
    const std::string m_weightsFile;
    bool m_weightsThere = false;
    const double m_startSeconds;
    const SteadyClock::time_point m_started = SteadyClock::now();
    std::atomic<uint64_t> m_accepted{0};
    std::atomic<uint64_t> m_nextId{1};
    httplib::Server m_server;
};

}  // namespace

int serveReplica(const ReplicaServerOptions &options)
{
    std::signal(SIGTERM, onTerm);
    std::signal(SIGINT, onTerm);
    ReplicaServer server(options);
    return server.run();
}

}  // namespace meridian

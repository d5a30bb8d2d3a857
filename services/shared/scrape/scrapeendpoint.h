// An HTTP endpoint that Prometheus-compatible stores scrape: GETs answered by a handler
// (and, where a handler for them is given, short POSTs: a watcher's triage requests),
// under the same rules as every listener of ours: plaintext only on loopback, with tokens
// configured a bearer token on every scrape, and each connection under deadlines
// (scrapeconnection.h). Built on cpp-httplib (its routing, its thread pool). The agent's
// and the simulator's /metrics and meridian-scaled's use it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "core/result.h"
#include "wire/security.h"

namespace httplib {
class Server;
}

namespace meridian {

struct ScrapeEndpointOptions {
    std::string listen = "127.0.0.1:9400";  // ":0" picks a free port
    ServerSecurity security;
    // A few scrapers at a time; the rest are spare, so that a few slow or silent
    // clients leave a worker for the next scrape.
    int threads = 16;
    // A server for many targets closes each connection after its answer: a scraper holds
    // one connection per target, and each idle one would hold a worker.
    bool keepAlive = true;
};

struct ScrapeRequest {
    std::string method = "GET";
    std::string path;
    std::string accept;  // the Accept header, for the exposition format
    std::string body;    // a POST's, at most 4 KiB
    // Who called, by their token: its name, and whether it may change things. Without
    // tokens (loopback only) nobody is named and everybody may.
    std::string caller;
    bool mayOperate = true;
};

struct ScrapeAnswer {
    int status = 200;
    std::string body;
    std::string contentType = "text/plain; version=0.0.4; charset=utf-8";
    int retryAfterS = 0;  // > 0: a Retry-After header (a 429 or 503 says when to come back)
};

class ScrapeEndpoint {
public:
    using Handler = std::function<ScrapeAnswer(const ScrapeRequest &)>;

    // `what` names it in errors ("metrics endpoint").
    // `post`, if given, answers POSTs.
    static Result<std::unique_ptr<ScrapeEndpoint>> start(const ScrapeEndpointOptions &options,
                                                         Handler handler,
                                                         const std::string &what =
                                                             "metrics "
                                                             "endpoint",
                                                         Handler post = {});
    ~ScrapeEndpoint();

    int port() const { return m_port; }
    void stop();

private:
    ScrapeEndpoint() = default;

    std::unique_ptr<httplib::Server> m_server;
    std::thread m_thread;
    int m_port = 0;
};

}  // namespace meridian

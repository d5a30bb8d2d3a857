// The HTTP endpoint Prometheus-compatible stores scrape: `/metrics` for an agent's own
// node, `/nodes/<node id>/metrics` for each node a simulator plays. Built on cpp-httplib
// (its routing, its thread pool), each connection under deadlines (scrapeconnection.h);
// answers in Prometheus text or OpenMetrics as the scraper
// asks, gzip-compressed when it accepts gzip. The same listen rules as gRPC: plaintext
// only on loopback, and with tokens configured every scrape needs a bearer token.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "core/result.h"
#include "noderuntime.h"
#include "wire/security.h"

namespace httplib {
class Server;
}

namespace meridian {

struct MetricsServerOptions {
    std::string listen = "127.0.0.1:9400";  // dcgm-exporter's port; ":0" picks a free one
    ServerSecurity security;
    // An agent is scraped by one or two stores; the rest are spare, so that a few slow
    // or silent clients leave a worker for the next scrape.
    int threads = 16;
    // An agent keeps its scrapers' connections. A server for many nodes closes each after
    // its answer: a scraper holds one connection per target, and each idle kept one would
    // hold one of the few threads.
    bool keepAlive = true;
};

class MetricsServer {
public:
    // The node behind a path's node id; an empty id is the agent's own node. Null: 404.
    using NodeLookup = std::function<NodeRuntime *(std::string_view nodeId)>;

    static Result<std::unique_ptr<MetricsServer>> start(const MetricsServerOptions &options,
                                                        NodeLookup lookup);
    ~MetricsServer();

    int port() const { return m_port; }
    void stop();

private:
    MetricsServer() = default;

    std::unique_ptr<httplib::Server> m_server;
    std::thread m_thread;
    int m_port = 0;
};

}  // namespace meridian

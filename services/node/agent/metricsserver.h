// The HTTP endpoint Prometheus-compatible stores scrape: `/metrics` for an agent's own
// node, `/nodes/<node id>/metrics` for each node a simulator plays, in Prometheus text or
// OpenMetrics as the scraper asks, gzip-compressed when it accepts gzip. On the shared
// scrape endpoint (scrape/scrapeendpoint.h): plaintext only on loopback, a bearer token
// on every scrape where tokens are configured, every connection under deadlines.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"
#include "noderuntime.h"
#include "wire/security.h"

namespace meridian {

class ScrapeEndpoint;

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

    int port() const;
    void stop();

private:
    MetricsServer() = default;

    std::unique_ptr<ScrapeEndpoint> m_endpoint;
};

}  // namespace meridian

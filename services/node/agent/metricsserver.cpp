#include "metricsserver.h"

#include "scrape/scrapeendpoint.h"
#include "telemetry/metricsexposition.h"

namespace meridian {

namespace {

ScrapeAnswer answer(NodeRuntime *node, const ScrapeRequest &request)
{
    if (!node || !node->monitor)
        return {404, "no such node\n", "text/plain"};
    // The simulator's dead and hung agents must look dead to the scraper too (up = 0).
    if (node->down || node->hung)
        return {503, "agent is not serving\n", "text/plain"};
    const ExpositionFormat format = negotiateExposition(request.accept);
    return {200, renderExposition(node->monitor->inventory(), node->monitor->latest(), format),
            std::string(expositionContentType(format))};
}

// "/metrics" is the agent's own node; "/nodes/<id>/metrics" one the simulator plays.
ScrapeAnswer route(const MetricsServer::NodeLookup &lookup, const ScrapeRequest &request)
{
    constexpr std::string_view nodes = "/nodes/";
    constexpr std::string_view metrics = "/metrics";
    const std::string_view path = request.path;
    if (path == metrics)
        return answer(lookup({}), request);
    if (path.size() > nodes.size() + metrics.size() && path.substr(0, nodes.size()) == nodes &&
        path.substr(path.size() - metrics.size()) == metrics) {
        const std::string_view id =
            path.substr(nodes.size(), path.size() - nodes.size() - metrics.size());
        if (id.find('/') == std::string_view::npos)
            return answer(lookup(id), request);
    }
    return {404, "no such path\n", "text/plain"};
}

}  // namespace

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(const MetricsServerOptions &options,
                                                            NodeLookup lookup)
{
    ScrapeEndpointOptions endpoint;
    endpoint.listen = options.listen;
    endpoint.security = options.security;
    endpoint.threads = options.threads;
    endpoint.keepAlive = options.keepAlive;
    auto started = ScrapeEndpoint::start(
        endpoint,
        [lookup = std::move(lookup)](const ScrapeRequest &r) { return route(lookup, r); });
    if (!started)
        return started.error();
    std::unique_ptr<MetricsServer> self(new MetricsServer);
    self->m_endpoint = std::move(started).value();
    return self;
}

MetricsServer::~MetricsServer() = default;

int MetricsServer::port() const
{
    return m_endpoint->port();
}

void MetricsServer::stop()
{
    m_endpoint->stop();
}

}  // namespace meridian

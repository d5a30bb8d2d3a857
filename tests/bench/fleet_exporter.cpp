// A big simulated fleet as a store scrapes it, and nothing else: N simulated nodes (the
// same SimCollector meridian-sim uses, without a gRPC port each), every one at
// /nodes/<id>/metrics in meridian-agent's exposition, and file_sd targets for them.
// meridian-sim stops at 4,000 nodes (one port each); a 100,000-card store needs 12,500.
// Only the cards' series are served (about 90 a node), not the NICs'.
//   fleet_exporter NODES TARGETS_JSON   (prints the port, serves until killed)
#include <fmt/format.h>
#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sim/scrapetargets.h"
#include "telemetry/metricsexposition.h"
#include "telemetry/simcollector.h"

using namespace meridian;

namespace {

struct ExportedNode {
    std::unique_ptr<SimCollector> collector;
    NodeInventory inventory;
    std::mutex mutex;  // a collector samples on one thread at a time
};

int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: fleet_exporter NODES TARGETS_JSON\n");
        return 2;
    }
    const int count = std::atoi(argv[1]);
    const char *dcs[] = {"xiamen", "wuhu", "zhongwei"};
    const char *prefixes[] = {"xm", "wh", "zw"};
    const SimNodeKind kinds[] = {SimNodeKind::A100, SimNodeKind::Hybrid, SimNodeKind::Ascend910B,
                                 SimNodeKind::H100, SimNodeKind::Mlu370};
    std::vector<std::unique_ptr<ExportedNode>> nodes;
    std::vector<SimNodeView> views;
    for (int i = 0; i < count; ++i) {
        auto node = std::make_unique<ExportedNode>();
        const int dc = i % 3;
        const std::string id = fmt::format("{}-n{:05}", prefixes[dc], i);
        node->collector = std::make_unique<SimCollector>(
            SimNodeSpec{kinds[i % 5], static_cast<uint64_t>(i + 1), id, dcs[dc], 0});
        auto hardware = node->collector->discover();
        if (!hardware) {
            std::fprintf(stderr, "%s\n", hardware.error().message.c_str());
            return 1;
        }
        node->inventory.nodeId = id;
        node->inventory.dataCenter = dcs[dc];
        node->inventory.rack = fmt::format("{}-r{:03}", prefixes[dc], i / 24);
        node->inventory.hostname = id;
        node->inventory.cards = hardware->cards;
        node->inventory.nics = hardware->nics;
        node->inventory.collector = "sim";
        views.push_back({id, dcs[dc], node->inventory.rack, {}, 8, {}, false, false});
        nodes.push_back(std::move(node));
    }
    std::map<std::string, ExportedNode *> byId;
    for (auto &node : nodes)
        byId[node->inventory.nodeId] = node.get();

    httplib::Server server;
    server.new_task_queue = [] { return new httplib::ThreadPool(4); };
    server.set_keep_alive_max_count(
        1);  // as meridian-sim: a connection per target would starve the pool
    server.Get(R"(/nodes/([^/]+)/metrics)", [&](const httplib::Request &request,
                                                httplib::Response &response) {
        const auto it = byId.find(request.matches[1].str());
        if (it == byId.end()) {
            response.status = 404;
            return;
        }
        ExportedNode &node = *it->second;
        std::lock_guard lock(node.mutex);
        auto sample = node.collector->sample(nowMs());
        if (!sample) {
            response.status = 500;
            return;
        }
        TelemetrySample telemetry;
        telemetry.sampleTimeUnixMs = nowMs();
        // Cards only, as a fleet watched by dcgm-exporter: with every NIC counter a node is
        // ~300 series, and 3.75 million series outgrow the one core the store gets here.
        telemetry.cards = sample->cards;
        const ExpositionFormat format = negotiateExposition(request.get_header_value("Accept"));
        response.set_content(renderExposition(node.inventory, telemetry, format),
                             std::string(expositionContentType(format)));
    });
    const int port = server.bind_to_any_port("127.0.0.1");
    if (FILE *targets = std::fopen(argv[2], "w")) {
        std::fputs(scrapeTargetsJson(views, fmt::format("127.0.0.1:{}", port)).c_str(), targets);
        std::fclose(targets);
    }
    std::printf("%d\n", port);
    std::fflush(stdout);
    server.listen_after_bind();
    return 0;
}

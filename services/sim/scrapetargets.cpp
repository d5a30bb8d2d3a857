#include "scrapetargets.h"

#include <nlohmann/json.hpp>

namespace meridian {

std::string scrapeTargetsJson(const std::vector<SimNodeView> &nodes,
                              const std::string &metricsAddress)
{
    nlohmann::json groups = nlohmann::json::array();
    for (const SimNodeView &node : nodes) {
        groups.push_back({{"targets", {metricsAddress}},
                          {"labels",
                           {{"__metrics_path__", "/nodes/" + node.nodeId + "/metrics"},
                            {"instance", node.nodeId}}}});
    }
    return groups.dump(1) + "\n";
}

}  // namespace meridian

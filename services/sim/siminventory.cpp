#include "siminventory.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace meridian {

Status writeSimInventory(const std::string &path, const std::string &capacityPool,
                         const std::vector<SimNodeView> &all)
{
    YAML::Emitter out;
    out << YAML::Comment("Meridian inventory written by meridian-sim: every node is a local agent");
    out << YAML::BeginMap;
    out << YAML::Key << "capacity_pool" << YAML::Value << capacityPool;
    out << YAML::Key << "data_centers" << YAML::Value << YAML::BeginSeq;
    std::vector<std::string> order;
    for (const SimNodeView &n : all) {
        if (std::find(order.begin(), order.end(), n.dataCenter) == order.end())
            order.push_back(n.dataCenter);
    }
    for (const std::string &dc : order) {
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << dc;
        out << YAML::Key << "agents" << YAML::Value << YAML::BeginSeq;
        for (const SimNodeView &n : all) {
            if (n.dataCenter != dc)
                continue;
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "node" << YAML::Value << n.nodeId
                << YAML::Key << "address" << YAML::Value << n.address << YAML::EndMap;
        }
        out << YAML::EndSeq << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
    const std::string tmp = path + ".tmp";
    {
        std::ofstream file(tmp, std::ios::trunc);
        file << out.c_str() << "\n";
        if (!file)
            return Error{fmt::format("{}: cannot write the inventory", path)};
    }
    // Readers never see half a file.
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        return Error{fmt::format("{}: cannot replace the inventory", path)};
    return {};
}

}  // namespace meridian

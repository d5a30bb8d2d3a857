#include "fabricfile.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "core/yamlfile.h"

namespace meridian {

const FabricLeaf *FabricFile::leaf(const std::string &name, std::string *dataCenter) const
{
    for (const FabricDataCenter &dc : dataCenters) {
        for (const FabricLeaf &l : dc.leaves) {
            if (l.name == name) {
                if (dataCenter)
                    *dataCenter = dc.name;
                return &l;
            }
        }
    }
    return nullptr;
}

namespace {

Result<FabricFile> fromYaml(const YAML::Node &root, const std::string &path)
{
    if (!root.IsMap() || !root["data_centers"] || !root["data_centers"].IsSequence())
        return yamlError(path, root, "expected 'data_centers:' with a list");
    FabricFile file;
    std::set<std::string> names;
    try {
        for (const YAML::Node &d : root["data_centers"]) {
            FabricDataCenter dc;
            dc.name = yamlValue<std::string>(d, "name", "");
            if (dc.name.empty())
                return yamlError(path, d, "a data center needs name:");
            if (d["spines"])
                dc.spines = d["spines"].as<std::vector<std::string>>();
            for (const std::string &s : dc.spines) {
                if (!names.insert(s).second)
                    return yamlError(path, d["spines"], "switch " + s + " is named twice");
            }
            if (d["leaves"] && !d["leaves"].IsSequence())
                return yamlError(path, d["leaves"], "leaves: a list");
            for (const YAML::Node &l : d["leaves"]) {
                FabricLeaf leaf;
                leaf.name = yamlValue<std::string>(l, "name", "");
                if (leaf.name.empty())
                    return yamlError(path, l, "a leaf needs name:");
                if (!names.insert(leaf.name).second)
                    return yamlError(path, l, "switch " + leaf.name + " is named twice");
                if (l["pod"])
                    leaf.pod = yamlScalar<int>(l["pod"], "pod");
                if (l["rail"]) {
                    leaf.rail = yamlScalar<int>(l["rail"], "rail");
                    if (*leaf.rail < 0 || *leaf.rail > 63)
                        return yamlError(path, l["rail"], "rail: 0..63");
                }
                if (l["pfc_priorities"]) {
                    leaf.pfcPriorities = l["pfc_priorities"].as<std::vector<uint32_t>>();
                    for (uint32_t p : *leaf.pfcPriorities) {
                        if (p > 7)
                            return yamlError(path, l["pfc_priorities"], "PFC priorities are 0..7");
                    }
                }
                leaf.uplinkGbps = yamlValue<double>(l, "uplink_gbps", 0);
                if (!(leaf.uplinkGbps >= 0) || leaf.uplinkGbps > 1e6)
                    return yamlError(path, l["uplink_gbps"], "uplink_gbps out of range");
                if (l["spines"]) {
                    leaf.spines = l["spines"].as<std::vector<std::string>>();
                    for (const std::string &s : leaf.spines) {
                        if (std::find(dc.spines.begin(), dc.spines.end(), s) == dc.spines.end())
                            return yamlError(path, l["spines"], "no spine " + s + " in " + dc.name);
                    }
                }
                dc.leaves.push_back(std::move(leaf));
            }
            file.dataCenters.push_back(std::move(dc));
        }
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
    return file;
}

}  // namespace

Result<FabricFile> loadFabricFile(const std::string &path)
{
    auto root = loadYamlFile(path);
    if (!root)
        return root.error();
    return fromYaml(root.value(), path);
}

Result<FabricFile> parseFabricFile(const std::string &text, const std::string &name)
{
    try {
        return fromYaml(YAML::Load(text), name);
    } catch (const YAML::Exception &e) {
        return yamlError(name, e);
    }
}

std::string fabricFileToYaml(const FabricFile &file)
{
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "data_centers" << YAML::Value << YAML::BeginSeq;
    for (const FabricDataCenter &dc : file.dataCenters) {
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << dc.name;
        out << YAML::Key << "spines" << YAML::Value << YAML::Flow << dc.spines;
        out << YAML::Key << "leaves" << YAML::Value << YAML::BeginSeq;
        for (const FabricLeaf &l : dc.leaves) {
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << l.name;
            if (l.pod)
                out << YAML::Key << "pod" << YAML::Value << *l.pod;
            if (l.rail)
                out << YAML::Key << "rail" << YAML::Value << *l.rail;
            if (l.pfcPriorities)
                out << YAML::Key << "pfc_priorities" << YAML::Value << YAML::Flow
                    << *l.pfcPriorities;
            out << YAML::Key << "uplink_gbps" << YAML::Value << l.uplinkGbps;
            if (!l.spines.empty())
                out << YAML::Key << "spines" << YAML::Value << YAML::Flow << l.spines;
            out << YAML::EndMap;
        }
        out << YAML::EndSeq << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace meridian

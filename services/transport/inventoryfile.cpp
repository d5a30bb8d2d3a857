#include "inventoryfile.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "core/textfile.h"
#include "core/yamlfile.h"
#include "hostport.h"

namespace meridian {

namespace {

// Relative paths in the file are relative to the file, as a person writing it expects.
std::string besideFile(const std::string &inventory, const std::string &path)
{
    if (path.empty() || std::filesystem::path(path).is_absolute())
        return path;
    return (std::filesystem::path(inventory).parent_path() / path).string();
}

}  // namespace

Result<FleetInventory> loadInventory(const std::string &path)
{
    auto loaded = loadYamlFile(path);
    if (!loaded)
        return loaded.error();
    const YAML::Node root = loaded.value();
    if (!root.IsMap())
        return yamlError(path, root, "expected a mapping with data_centers:");
    FleetInventory inventory;
    std::set<std::string> seen;
    try {
        if (root["capacity_pool"])
            inventory.capacityPool = root["capacity_pool"].as<std::string>();
        if (const YAML::Node tls = root["tls"]) {
            inventory.security.caFile =
                besideFile(path, yamlValue<std::string>(tls, "ca_file", ""));
            inventory.security.certFile =
                besideFile(path, yamlValue<std::string>(tls, "cert_file", ""));
            inventory.security.keyFile =
                besideFile(path, yamlValue<std::string>(tls, "key_file", ""));
            inventory.security.serverNameOverride = yamlValue<std::string>(tls, "server_name", "");
            if (inventory.security.caFile.empty())
                return yamlError(path, tls, "tls needs ca_file (the CA that signed the agents)");
            // Named here, with its line: a channel made from a file it cannot read would
            // only fail later, with a handshake error that names nothing.
            const std::pair<const char *, const std::string &> files[] = {
                {"ca_file", inventory.security.caFile},
                {"cert_file", inventory.security.certFile},
                {"key_file", inventory.security.keyFile}};
            for (const auto &[key, file] : files) {
                if (file.empty())
                    continue;
                if (auto readable = readTextFile(file, 1 << 20); !readable)
                    return yamlError(path, tls[key],
                                     std::string(key) + ": " + readable.error().message);
            }
        }
        if (const YAML::Node tokenFile = root["token_file"]) {
            auto token = readTextFile(
                besideFile(path, yamlScalar<std::string>(tokenFile, "token_file")), 4096);
            if (!token)
                return yamlError(path, tokenFile, token.error().message);
            inventory.security.token = std::string(token.value());
            while (!inventory.security.token.empty() &&
                   std::isspace(static_cast<unsigned char>(inventory.security.token.back())))
                inventory.security.token.pop_back();
        }
        const YAML::Node dcs = root["data_centers"];
        if (!dcs || !dcs.IsSequence())
            return yamlError(path, root, "data_centers: must be a list of {name, agents}");
        for (const YAML::Node &dc : dcs) {
            const std::string name = yamlValue<std::string>(dc, "name", "");
            if (name.empty())
                return yamlError(path, dc, "a data center needs a name");
            const YAML::Node agents = dc["agents"];
            if (!agents || !agents.IsSequence())
                return yamlError(path, dc,
                                 fmt::format("data center {} needs a list of agents", name));
            for (const YAML::Node &agent : agents) {
                InventoryAgent entry;
                entry.dataCenter = name;
                entry.address = agent.IsScalar() ? agent.as<std::string>()
                                                 : yamlValue<std::string>(agent, "address", "");
                entry.nodeHint = agent.IsMap() ? yamlValue<std::string>(agent, "node", "") : "";
                if (auto address = parseHostPort(entry.address); !address || address->port == 0) {
                    return yamlError(
                        path, agent,
                        address ? fmt::format("'{}': port 0 is not an agent's port", entry.address)
                                : address.error().message);
                }
                if (!seen.insert(entry.address).second)
                    return yamlError(path, agent, fmt::format("{} is listed twice", entry.address));
                inventory.agents.push_back(std::move(entry));
            }
        }
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
    if (inventory.agents.empty())
        return Error{fmt::format("{}: no agents listed", path)};
    return inventory;
}

}  // namespace meridian

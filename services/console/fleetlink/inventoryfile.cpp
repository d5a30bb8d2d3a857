#include "inventoryfile.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "core/textfile.h"
#include "core/yamlfile.h"
#include "wire/hostport.h"

namespace meridian {

namespace {

std::string readSecretFile(const YAML::Node &at, const std::string &inventory)
{
    auto secret = readTextFile(besideFile(inventory, yamlScalar<std::string>(at, "file")), 4096);
    if (!secret)
        throw YAML::Exception(at.Mark(), secret.error().message);
    std::string value(secret.value());
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
        value.pop_back();
    return value;
}

// {url, token_file | user + password_file, ca_file, scrape_interval_s}
Result<StoreSource> readStoreSource(const std::string &path, const YAML::Node &node,
                                    const std::string &dataCenter)
{
    if (!node.IsMap())
        return yamlError(path, node, "prometheus: needs {url, …}");
    StoreSource store;
    store.dataCenter = dataCenter;
    store.url = yamlValue<std::string>(node, "url", "");
    if (store.url.rfind("http://", 0) != 0 && store.url.rfind("https://", 0) != 0)
        return yamlError(path, node, "prometheus: url must be http://… or https://…");
    store.basicUser = yamlValue<std::string>(node, "user", "");
    store.caFile = besideFile(path, yamlValue<std::string>(node, "ca_file", ""));
    store.scrapeIntervalS = yamlValue<int>(node, "scrape_interval_s", 15);
    if (store.scrapeIntervalS < 1 || store.scrapeIntervalS > 3600)
        return yamlError(path, node["scrape_interval_s"], "scrape_interval_s must be 1..3600");
    if (const YAML::Node token = node["token_file"])
        store.bearerToken = readSecretFile(token, path);
    if (const YAML::Node password = node["password_file"])
        store.basicPassword = readSecretFile(password, path);
    if (!store.caFile.empty()) {
        if (auto readable = readTextFile(store.caFile, 1 << 20); !readable)
            return yamlError(path, node["ca_file"], "ca_file: " + readable.error().message);
    }
    return store;
}

Status readTls(const std::string &path, const YAML::Node &tls, ClientSecurity &security)
{
    security.caFile = besideFile(path, yamlValue<std::string>(tls, "ca_file", ""));
    security.certFile = besideFile(path, yamlValue<std::string>(tls, "cert_file", ""));
    security.keyFile = besideFile(path, yamlValue<std::string>(tls, "key_file", ""));
    security.serverNameOverride = yamlValue<std::string>(tls, "server_name", "");
    if (security.caFile.empty())
        return yamlError(path, tls, "tls needs ca_file (the CA that signed the agents)");
    // Named here, with its line: a channel made from a file it cannot read would only
    // fail later, with a handshake error that names nothing.
    const std::pair<const char *, const std::string &> files[] = {{"ca_file", security.caFile},
                                                                  {"cert_file", security.certFile},
                                                                  {"key_file", security.keyFile}};
    for (const auto &[key, file] : files) {
        if (file.empty())
            continue;
        if (auto readable = readTextFile(file, 1 << 20); !readable)
            return yamlError(path, tls[key], std::string(key) + ": " + readable.error().message);
    }
    return {};
}

Status readTokenFile(const std::string &path, const YAML::Node &tokenFile, std::string &token)
{
    auto read =
        readTextFile(besideFile(path, yamlScalar<std::string>(tokenFile, "token_file")), 4096);
    if (!read)
        return yamlError(path, tokenFile, read.error().message);
    token = std::string(read.value());
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back())))
        token.pop_back();
    return {};
}

// prometheus: one store, or a list of them.
Status readStores(const std::string &path, const YAML::Node &stores, std::vector<StoreSource> &into)
{
    std::vector<YAML::Node> entries;
    if (stores.IsSequence()) {
        for (const YAML::Node &entry : stores)
            entries.push_back(entry);
    } else {
        entries.push_back(stores);
    }
    for (const YAML::Node &entry : entries) {
        auto store = readStoreSource(path, entry, {});
        if (!store)
            return store.error();
        into.push_back(std::move(store).value());
    }
    return {};
}

Status readAgent(const std::string &path, const YAML::Node &agent, const std::string &dataCenter,
                 std::set<std::string> &seen, std::vector<InventoryAgent> &into)
{
    InventoryAgent entry;
    entry.dataCenter = dataCenter;
    entry.address =
        agent.IsScalar() ? agent.as<std::string>() : yamlValue<std::string>(agent, "address", "");
    entry.nodeHint = agent.IsMap() ? yamlValue<std::string>(agent, "node", "") : "";
    if (auto address = parseHostPort(entry.address); !address || address->port == 0) {
        return yamlError(path, agent,
                         address ? fmt::format("'{}': port 0 is not an agent's port", entry.address)
                                 : address.error().message);
    }
    if (!seen.insert(entry.address).second)
        return yamlError(path, agent, fmt::format("{} is listed twice", entry.address));
    into.push_back(std::move(entry));
    return {};
}

Status readDataCenter(const std::string &path, const YAML::Node &dc, FleetInventory &inventory,
                      std::set<std::string> &seen)
{
    const std::string name = yamlValue<std::string>(dc, "name", "");
    if (name.empty())
        return yamlError(path, dc, "a data center needs a name");
    // Read at the top only: inside a data center they were silently ignored, and its
    // agents reached in plaintext without a token.
    for (const char *fleetWide : {"tls", "token_file"}) {
        if (const YAML::Node misplaced = dc[fleetWide]) {
            return yamlError(path, misplaced,
                             fmt::format("{}: belongs at the top of the inventory, not inside "
                                         "data center {}; it serves every agent",
                                         fleetWide, name));
        }
    }
    if (Status keys = checkKeys(path, dc, {"name", "agents", "prometheus"}); !keys)
        return keys;
    if (const YAML::Node store = dc["prometheus"]) {
        auto read = readStoreSource(path, store, name);
        if (!read)
            return read.error();
        inventory.stores.push_back(std::move(read).value());
        if (!dc["agents"])
            return {};  // this data center is watched through its store only
    }
    const YAML::Node agents = dc["agents"];
    if (!agents || !agents.IsSequence())
        return yamlError(path, dc, fmt::format("data center {} needs a list of agents", name));
    for (const YAML::Node &agent : agents) {
        if (Status read = readAgent(path, agent, name, seen, inventory.agents); !read)
            return read;
    }
    return {};
}

// Everything but the data centers: the pool, the controller, TLS, the token, the stores.
Status readFleetWide(const std::string &path, const YAML::Node &root, FleetInventory &inventory)
{
    if (root["capacity_pool"])
        inventory.capacityPool = root["capacity_pool"].as<std::string>();
    yamlRead(root, "scaling_controller", inventory.scalingController);
    if (!inventory.scalingController.empty()) {
        if (auto parsed = parseHostPort(inventory.scalingController); !parsed)
            return yamlError(path, root["scaling_controller"], parsed.error().message);
    }
    if (const YAML::Node tls = root["tls"]) {
        if (Status read = readTls(path, tls, inventory.security); !read)
            return read;
    }
    if (const YAML::Node tokenFile = root["token_file"]) {
        if (Status read = readTokenFile(path, tokenFile, inventory.security.token); !read)
            return read;
    }
    if (const YAML::Node stores = root["prometheus"])
        return readStores(path, stores, inventory.stores);
    return {};
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
        if (Status read = readFleetWide(path, root, inventory); !read)
            return read.error();
        const YAML::Node dcs = root["data_centers"];
        if (!dcs && !inventory.stores.empty())
            return inventory;
        if (!dcs || !dcs.IsSequence())
            return yamlError(path, root, "data_centers: must be a list of {name, agents}");
        for (const YAML::Node &dc : dcs) {
            if (Status read = readDataCenter(path, dc, inventory, seen); !read)
                return read.error();
        }
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
    if (inventory.agents.empty() && inventory.stores.empty())
        return Error{fmt::format("{}: no agents and no prometheus: store listed", path)};
    return inventory;
}

}  // namespace meridian

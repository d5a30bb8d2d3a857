#include "agentconfig.h"

#include <fmt/format.h>

#include <set>

#include "core/textfile.h"
#include "core/yamlfile.h"

namespace meridian {

namespace {

// Leaves `out` as it is when the key is absent; a value of the wrong type throws, for
// loadAgentConfig to report with its line.
template <typename T>
void read(const YAML::Node &parent, const char *key, T &out)
{
    out = yamlValue<T>(parent, key, out);
}

Status checkKeys(const std::string &path, const YAML::Node &map, const std::set<std::string> &known)
{
    if (!map.IsMap())
        return yamlError(path, map, "expected a mapping of settings here");
    for (const auto &entry : map) {
        const std::string key = entry.first.as<std::string>();
        if (!known.count(key))
            return yamlError(path, entry.first, fmt::format("unknown key '{}'", key));
    }
    return {};
}

Status readAgentConfig(const std::string &path, const YAML::Node &root, AgentConfig &config)
{
    if (root.IsNull())
        return {};
    if (!root.IsMap())
        return yamlError(path, root, "expected a mapping of settings");
    if (Status s = checkKeys(
            path, root,
            {"listen", "metrics_listen", "collector", "data_dir", "node_id", "data_center", "rack",
             "nvml_library", "sample_interval_ms", "sim", "tls", "tokens", "services_file"});
        !s) {
        return s;
    }
    read(root, "listen", config.listen);
    read(root, "metrics_listen", config.metricsListen);
    read(root, "collector", config.collector);
    read(root, "data_dir", config.dataDir);
    read(root, "node_id", config.nodeId);
    read(root, "data_center", config.dataCenter);
    read(root, "rack", config.rack);
    read(root, "nvml_library", config.nvmlLibrary);
    read(root, "services_file", config.servicesFile);
    read(root, "sample_interval_ms", config.sampleIntervalMs);
    if (config.sampleIntervalMs < 100 || config.sampleIntervalMs > 60'000)
        return yamlError(path, root["sample_interval_ms"], "sample_interval_ms must be 100..60000");
    if (const YAML::Node sim = root["sim"]) {
        if (Status s = checkKeys(path, sim, {"seed", "kind"}); !s)
            return s;
        read(sim, "seed", config.simSeed);
        read(sim, "kind", config.simKind);
    }
    if (const YAML::Node tls = root["tls"]) {
        if (Status s = checkKeys(path, tls, {"cert_file", "key_file", "client_ca_file"}); !s)
            return s;
        read(tls, "cert_file", config.security.certFile);
        read(tls, "key_file", config.security.keyFile);
        read(tls, "client_ca_file", config.security.clientCaFile);
        if (config.security.certFile.empty() != config.security.keyFile.empty())
            return yamlError(path, tls, "tls needs both cert_file and key_file");
    }
    if (const YAML::Node tokens = root["tokens"]) {
        if (!tokens.IsSequence())
            return yamlError(path, tokens,
                             "tokens must be a list of {name, role, token | token_file}");
        for (const YAML::Node &entry : tokens) {
            if (Status s = checkKeys(path, entry, {"name", "role", "token", "token_file"}); !s)
                return s;
            TokenGrant grant;
            std::string role = "read-only";
            std::string tokenFile;
            read(entry, "name", grant.name);
            read(entry, "role", role);
            read(entry, "token", grant.token);
            read(entry, "token_file", tokenFile);
            if (role != "read-only" && role != "operator")
                return yamlError(path, entry,
                                 fmt::format("role '{}': use read-only or operator", role));
            grant.role = role == "operator" ? Role::Operator : Role::ReadOnly;
            if (!tokenFile.empty()) {
                auto secret = readTextFile(tokenFile, 4096);
                if (!secret)
                    return yamlError(path, entry, secret.error().message);
                grant.token = secret.value();
                while (!grant.token.empty() &&
                       (grant.token.back() == '\n' || grant.token.back() == '\r'))
                    grant.token.pop_back();
            }
            if (grant.token.size() < 16)
                return yamlError(path, entry, "a token must be at least 16 characters");
            config.security.tokens.push_back(std::move(grant));
        }
    }
    return {};
}

}  // namespace

Status loadAgentConfig(const std::string &path, AgentConfig &config)
{
    auto loaded = loadYamlFile(path, 1 << 20);
    if (!loaded)
        return loaded.error();
    try {
        return readAgentConfig(path, loaded.value(), config);
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
}

}  // namespace meridian

#include "agentconfig.h"

#include <fmt/format.h>

#include <set>

#include "core/textfile.h"
#include "core/yamlfile.h"
#include "wire/securityconfig.h"

namespace meridian {

namespace {

Status readAgentConfig(const std::string &path, const YAML::Node &root, AgentConfig &config)
{
    if (root.IsNull())
        return {};
    if (!root.IsMap())
        return yamlError(path, root, "expected a mapping of settings");
    if (Status s = checkKeys(path, root,
                             {"listen", "metrics_listen", "collector", "data_dir", "node_id",
                              "data_center", "rack", "nvml_library", "sample_interval_ms", "sim",
                              "tls", "tokens", "authenticate_within_seconds", "services_file"});
        !s) {
        return s;
    }
    yamlRead(root, "listen", config.listen);
    yamlRead(root, "metrics_listen", config.metricsListen);
    yamlRead(root, "collector", config.collector);
    yamlRead(root, "data_dir", config.dataDir);
    yamlRead(root, "node_id", config.nodeId);
    yamlRead(root, "data_center", config.dataCenter);
    yamlRead(root, "rack", config.rack);
    yamlRead(root, "nvml_library", config.nvmlLibrary);
    yamlRead(root, "services_file", config.servicesFile);
    yamlRead(root, "sample_interval_ms", config.sampleIntervalMs);
    if (config.sampleIntervalMs < 100 || config.sampleIntervalMs > 60'000)
        return yamlError(path, root["sample_interval_ms"], "sample_interval_ms must be 100..60000");
    if (const YAML::Node sim = root["sim"]) {
        if (Status s = checkKeys(path, sim, {"seed", "kind"}); !s)
            return s;
        yamlRead(sim, "seed", config.simSeed);
        yamlRead(sim, "kind", config.simKind);
    }
    return readServerSecurity(path, root, config.security);
}

}  // namespace

Status loadAgentConfig(const std::string &path, AgentConfig &config)
{
    return readYamlConfig(
        path, [&](const YAML::Node &root) { return readAgentConfig(path, root, config); });
}

}  // namespace meridian

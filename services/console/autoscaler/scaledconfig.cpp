#include "scaledconfig.h"

#include "core/yamlfile.h"
#include "wire/securityconfig.h"

namespace meridian {

namespace {

Status readScaledConfig(const std::string &path, const YAML::Node &root, ScaledConfig &config)
{
    if (!root.IsMap())
        return yamlError(path, root, "expected a mapping with listen:, journal:, inventory:");
    if (Status s =
            checkKeys(path, root,
                      {"listen", "metrics_listen", "tls", "tokens", "authenticate_within_seconds",
                       "controller_id", "journal", "inventory", "services", "mode", "policy",
                       "interval_seconds", "warm_up_seconds"});
        !s)
        return s;
    yamlRead(root, "listen", config.listen);
    yamlRead(root, "metrics_listen", config.metricsListen);
    if (Status s = readServerSecurity(path, root, config.security); !s)
        return s;
    yamlRead(root, "controller_id", config.controllerId);
    if (config.controllerId.empty() || config.controllerId.size() > 128)
        return yamlError(path, root["controller_id"],
                         "controller_id: 1..128 characters; it names this controller's leases");
    yamlRead(root, "journal", config.journalFile);
    yamlRead(root, "inventory", config.inventoryFile);
    yamlRead(root, "services", config.servicesFile);
    config.journalFile = besideFile(path, config.journalFile);
    config.inventoryFile = besideFile(path, config.inventoryFile);
    config.servicesFile = besideFile(path, config.servicesFile);
    if (const YAML::Node mode = root["mode"]) {
        const auto parsed = approvalModeFromName(yamlScalar<std::string>(mode, "mode"));
        if (!parsed)
            return yamlError(path, mode, "mode: manual, assisted or automatic");
        config.mode = *parsed;
    }
    if (const YAML::Node policy = root["policy"]) {
        auto loaded =
            loadScalingPolicy(besideFile(path, yamlScalar<std::string>(policy, "policy")));
        if (!loaded)
            return loaded.error();
        config.policy = loaded.value();
    }
    yamlRead(root, "interval_seconds", config.intervalSeconds);
    if (!(config.intervalSeconds >= 0.1 && config.intervalSeconds <= 600))
        return yamlError(path, root["interval_seconds"], "interval_seconds: 0.1..600");
    yamlRead(root, "warm_up_seconds", config.warmUpSeconds);
    if (!(config.warmUpSeconds >= 0 && config.warmUpSeconds <= 3600))
        return yamlError(path, root["warm_up_seconds"], "warm_up_seconds: 0..3600");
    return {};
}

}  // namespace

Status loadScaledConfig(const std::string &path, ScaledConfig &config)
{
    return readYamlConfig(
        path, [&](const YAML::Node &root) { return readScaledConfig(path, root, config); });
}

}  // namespace meridian

#include "faultplan.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/yamlfile.h"

namespace meridian {

namespace {

constexpr std::pair<FaultKind, const char *> kNames[] = {
    {FaultKind::Crash, "crash"},
    {FaultKind::Hang, "hang"},
    {FaultKind::Slow, "slow"},
    {FaultKind::Xid79, "xid79"},
    {FaultKind::EccDoubleBit, "ecc-dbe"},
    {FaultKind::ThermalThrottle, "thermal"},
    {FaultKind::LinkDown, "link-down"},
    {FaultKind::LinkFlap, "link-flap"},
    {FaultKind::PfcStorm, "pfc-storm"},
    {FaultKind::EcnCongestion, "ecn-congestion"},
    {FaultKind::GarbageValues, "garbage"},
};

// A scenario spans hours at most; a week caps what a typo can make of it.
constexpr double kMaxScenarioSeconds = 7 * 24 * 3600.0;

int64_t secondsToMs(double seconds)
{
    return static_cast<int64_t>(std::clamp(seconds, -1.0, kMaxScenarioSeconds) * 1000);
}

}  // namespace

std::optional<FaultKind> faultKindFromName(std::string_view name)
{
    for (const auto &[kind, n] : kNames) {
        if (name == n)
            return kind;
    }
    return std::nullopt;
}

const char *faultKindName(FaultKind kind)
{
    for (const auto &[k, name] : kNames) {
        if (k == kind)
            return name;
    }
    return "unknown";
}

std::string faultKindNames()
{
    std::string names;
    for (const auto &[kind, name] : kNames)
        names += (names.empty() ? "" : ", ") + std::string(name);
    return names;
}

Result<std::vector<ScenarioStep>> loadScenario(const std::string &path)
{
    auto loaded = loadYamlFile(path);
    if (!loaded)
        return loaded.error();
    const YAML::Node root = loaded.value();
    if (!root.IsMap() || !root["faults"] || !root["faults"].IsSequence())
        return yamlError(path, root, "expected 'faults:' with a list of steps");
    const YAML::Node faults = root["faults"];
    std::vector<ScenarioStep> steps;
    for (const YAML::Node &entry : faults) {
        if (!entry.IsMap())
            return yamlError(path, entry,
                             "a step is a mapping {at_seconds, node | data_center, kind, ...}");
        ScenarioStep step;
        try {
            for (const auto &field : entry) {
                const std::string key = field.first.as<std::string>();
                const YAML::Node &value = field.second;
                if (key == "at_seconds")
                    step.atMs = secondsToMs(yamlScalar<double>(value, key));
                else if (key == "node")
                    step.fault.nodeId = yamlScalar<std::string>(value, key);
                else if (key == "data_center")
                    step.fault.dataCenter = yamlScalar<std::string>(value, key);
                else if (key == "card")
                    step.fault.card = yamlScalar<uint32_t>(value, key);
                else if (key == "netdev")
                    step.fault.netdev = yamlScalar<std::string>(value, key);
                else if (key == "duration_seconds")
                    step.fault.durationMs = secondsToMs(yamlScalar<double>(value, key));
                else if (key == "delay_ms")
                    step.fault.delayMs = yamlScalar<int>(value, key);
                else if (key == "kind") {
                    const auto kind = faultKindFromName(yamlScalar<std::string>(value, key));
                    if (!kind) {
                        return yamlError(path, value,
                                         fmt::format("unknown kind '{}'; use one of {}",
                                                     value.as<std::string>(), faultKindNames()));
                    }
                    step.fault.kind = *kind;
                } else {
                    return yamlError(path, field.first, fmt::format("unknown key '{}'", key));
                }
            }
        } catch (const YAML::Exception &e) {
            return yamlError(path, e);
        }
        if (!entry["kind"])
            return yamlError(path, entry, "a step needs a kind");
        if (step.fault.nodeId.empty() == step.fault.dataCenter.empty())
            return yamlError(path, entry, "a step names either node or data_center");
        if (step.atMs < 0 || step.fault.durationMs < 0 || step.fault.delayMs < 0)
            return yamlError(path, entry, "times cannot be negative");
        steps.push_back(std::move(step));
    }
    return steps;
}

}  // namespace meridian

#include "faultplan.h"

#include <fmt/format.h>
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
    const YAML::Node faults = root["faults"];
    if (!root.IsMap() || !faults || !faults.IsSequence())
        return Error{fmt::format("{}: expected 'faults:' with a list of steps", path)};
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
                    step.atMs = static_cast<int64_t>(value.as<double>() * 1000);
                else if (key == "node")
                    step.fault.nodeId = value.as<std::string>();
                else if (key == "data_center")
                    step.fault.dataCenter = value.as<std::string>();
                else if (key == "card")
                    step.fault.card = value.as<uint32_t>();
                else if (key == "netdev")
                    step.fault.netdev = value.as<std::string>();
                else if (key == "duration_seconds")
                    step.fault.durationMs = static_cast<int64_t>(value.as<double>() * 1000);
                else if (key == "delay_ms")
                    step.fault.delayMs = value.as<int>();
                else if (key == "kind") {
                    const auto kind = faultKindFromName(value.as<std::string>());
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
            return yamlError(path, entry, fmt::format("a value has the wrong type ({})", e.msg));
        }
        if (!entry["kind"])
            return yamlError(path, entry, "a step needs a kind");
        if (step.fault.nodeId.empty() == step.fault.dataCenter.empty())
            return yamlError(path, entry, "a step names either node or data_center");
        if (step.atMs < 0 || step.fault.durationMs < 0)
            return yamlError(path, entry, "times cannot be negative");
        steps.push_back(std::move(step));
    }
    return steps;
}

}  // namespace meridian

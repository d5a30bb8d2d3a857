#include "smicollector.h"

#include <fmt/format.h>

#include <filesystem>

#include "cardparsers.h"
#include "core/textutil.h"
#include "nicparsers.h"
#include "toolrunner.h"

namespace meridian {

namespace {

constexpr std::pair<ToolKind, const char *> kKindNames[] = {
    {ToolKind::NvidiaSmiCsv, "nvidia-smi-csv"},
    {ToolKind::NvidiaSmiXml, "nvidia-smi-xml"},
    {ToolKind::NpuSmi, "npu-smi"},
    {ToolKind::Cnmon, "cnmon"},
    {ToolKind::HySmi, "hy-smi"},
    {ToolKind::Ethtool, "ethtool"},
    {ToolKind::LldpctlJson, "lldpctl-json"},
};

Result<ParsedCards> parseCards(ToolKind kind, std::string_view text)
{
    switch (kind) {
    case ToolKind::NvidiaSmiCsv: return parseNvidiaSmiCsv(text);
    case ToolKind::NvidiaSmiXml: return parseNvidiaSmiXml(text);
    case ToolKind::NpuSmi: return parseNpuSmi(text);
    case ToolKind::Cnmon: return parseCnmon(text);
    case ToolKind::HySmi: return parseHySmi(text);
    case ToolKind::Ethtool:
    case ToolKind::LldpctlJson: break;
    }
    return Error{"not a card tool"};
}

ToolSource commandSource(ToolKind kind, std::string label, std::vector<std::string> argv,
                         std::string netdev = {})
{
    return ToolSource{kind, std::move(label), std::move(netdev),
                      [argv = std::move(argv)] { return runTool(ToolRun{argv}); }};
}

std::string readSysfs(const std::filesystem::path &path)
{
    auto text = readTextFile(path.string(), 4096);
    return text ? std::string(trim(text.value())) : std::string();
}

// RDMA hw_counters hold ECN/CNP and sequence errors that ethtool -S does not show.
Result<std::string> ethtoolWithHwCounters(const std::string &netdev, const std::string &rdmaDevice)
{
    auto text = runTool(ToolRun{{"ethtool", "-S", netdev}});
    if (!text)
        return text;
    std::string combined = std::move(text).value();
    std::error_code ec;
    const std::filesystem::path counters =
        std::filesystem::path("/sys/class/infiniband") / rdmaDevice / "ports/1/hw_counters";
    for (const auto &entry : std::filesystem::directory_iterator(counters, ec)) {
        const std::string value = readSysfs(entry.path());
        if (parseUnsigned(value))
            combined += fmt::format("{}: {}\n", entry.path().filename().string(), value);
    }
    return combined;
}

}  // namespace

const char *toolKindName(ToolKind kind)
{
    for (const auto &[k, name] : kKindNames) {
        if (k == kind)
            return name;
    }
    return "unknown";
}

std::optional<ToolKind> toolKindFromName(std::string_view name)
{
    for (const auto &[k, n] : kKindNames) {
        if (name == n)
            return k;
    }
    return std::nullopt;
}

std::string toolKindNames()
{
    std::string names;
    for (const auto &[k, name] : kKindNames)
        names += (names.empty() ? "" : ", ") + std::string(name);
    return names;
}

SmiCollector::SmiCollector(std::vector<ToolSource> sources, std::string nodeId)
    : m_sources(std::move(sources)), m_nodeId(std::move(nodeId))
{}

std::vector<ToolSource> SmiCollector::liveSources()
{
    std::vector<ToolSource> sources;
    if (toolOnPath("nvidia-smi")) {
        sources.push_back(commandSource(
            ToolKind::NvidiaSmiCsv, "nvidia-smi",
            {"nvidia-smi", fmt::format("--query-gpu={}", kNvidiaSmiQueryFields), "--format=csv"}));
    }
    if (toolOnPath("npu-smi"))
        sources.push_back(commandSource(ToolKind::NpuSmi, "npu-smi", {"npu-smi", "info"}));
    if (toolOnPath("cnmon"))
        sources.push_back(commandSource(ToolKind::Cnmon, "cnmon", {"cnmon"}));
    if (toolOnPath("hy-smi"))
        sources.push_back(commandSource(ToolKind::HySmi, "hy-smi", {"hy-smi"}));
    std::error_code ec;
    for (const auto &device : std::filesystem::directory_iterator("/sys/class/infiniband", ec)) {
        for (const auto &net :
             std::filesystem::directory_iterator(device.path() / "device/net", ec)) {
            const std::string netdev = net.path().filename().string();
            const std::string rdma = device.path().filename().string();
            sources.push_back(
                ToolSource{ToolKind::Ethtool, "ethtool -S " + netdev, netdev,
                           [netdev, rdma] { return ethtoolWithHwCounters(netdev, rdma); }});
        }
    }
    if (toolOnPath("lldpctl")) {
        sources.push_back(
            commandSource(ToolKind::LldpctlJson, "lldpctl", {"lldpctl", "-f", "json0"}));
    }
    return sources;
}

Result<ToolSource> SmiCollector::fileSource(std::string_view spec)
{
    const size_t eq = spec.find('=');
    if (eq == std::string_view::npos) {
        return Error{fmt::format("'{}': expected KIND=FILE, where KIND is one of {}", spec,
                                 toolKindNames())};
    }
    const auto kind = toolKindFromName(spec.substr(0, eq));
    if (!kind) {
        return Error{fmt::format("'{}': unknown kind '{}'; KIND is one of {}", spec,
                                 spec.substr(0, eq), toolKindNames())};
    }
    const std::string path(spec.substr(eq + 1));
    std::string netdev = std::filesystem::path(path).stem().string();
    return ToolSource{*kind, path, std::move(netdev), [path] { return readTextFile(path); }};
}

Result<SmiReading> SmiCollector::read(bool strict, bool withLldp)
{
    SmiReading reading;
    std::vector<LldpInterface> neighbours;
    const auto fail = [&](const ToolSource &source, const std::string &why) -> bool {
        reading.sample.problems.push_back(fmt::format("{}: {}", source.label, why));
        return strict;
    };
    for (const ToolSource &source : m_sources) {
        if (source.kind == ToolKind::LldpctlJson && !withLldp)
            continue;
        auto text = source.read();
        if (!text) {
            // Errors from reading already name the file or the command.
            reading.sample.problems.push_back(text.error().message);
            if (strict)
                return text.error();
            continue;
        }
        if (source.kind == ToolKind::Ethtool) {
            auto stats = parseEthtoolStats(text.value());
            if (!stats) {
                if (fail(source, stats.error().message))
                    return Error{reading.sample.problems.back()};
                continue;
            }
            NicCounters counters = nicCountersFromStats(source.netdev, stats.value());
            NicInfo info;
            info.netdev = source.netdev;
            reading.hardware.nics.push_back(info);
            reading.sample.nics.push_back(std::move(counters));
            continue;
        }
        if (source.kind == ToolKind::LldpctlJson) {
            auto parsed = parseLldpctlJson(text.value());
            if (!parsed) {
                if (fail(source, parsed.error().message))
                    return Error{reading.sample.problems.back()};
                continue;
            }
            neighbours = std::move(parsed).value();
            continue;
        }
        auto cards = parseCards(source.kind, text.value());
        if (!cards) {
            if (fail(source, cards.error().message))
                return Error{reading.sample.problems.back()};
            continue;
        }
        for (ParsedCard &card : cards.value()) {
            // One numbering for the node across vendors (a hybrid node has both).
            card.info.index = card.sample.index =
                static_cast<uint32_t>(reading.hardware.cards.size());
            if (card.info.vendor == Vendor::Hygon || startsWith(card.info.uuid, "NPU-") ||
                startsWith(card.info.uuid, "MLU-")) {
                // Tools without a UUID: make the bus-id based one unique in the fleet.
                card.info.uuid = fmt::format("{}-{}", m_nodeId, card.info.uuid);
            }
            reading.hardware.cards.push_back(card.info);
            reading.sample.cards.push_back(card.sample);
        }
    }
    for (LldpInterface &iface : neighbours) {
        auto nic = std::find_if(reading.hardware.nics.begin(), reading.hardware.nics.end(),
                                [&](const NicInfo &n) { return n.netdev == iface.netdev; });
        if (nic == reading.hardware.nics.end()) {
            NicInfo info;
            info.netdev = iface.netdev;
            reading.hardware.nics.push_back(info);
            nic = std::prev(reading.hardware.nics.end());
        }
        nic->neighbor = std::move(iface.neighbor);
    }
    return reading;
}

Result<NodeHardware> SmiCollector::discover()
{
    if (m_sources.empty())
        return Error{"no vendor tool found on PATH (nvidia-smi, npu-smi, cnmon, hy-smi)"};
    auto reading = read(false, true);
    if (!reading)
        return reading.error();
    if (reading->hardware.cards.empty() && !reading->sample.problems.empty())
        return Error{reading->sample.problems.front()};
    return reading->hardware;
}

Result<CollectedSample> SmiCollector::sample(int64_t)
{
    auto reading = read(false, false);
    if (!reading)
        return reading.error();
    return std::move(reading->sample);
}

}  // namespace meridian

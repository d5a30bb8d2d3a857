#include "smicollector.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "cardparsers.h"
#include "core/textfile.h"
#include "core/textutil.h"
#include "core/toolrunner.h"
#include "nicparsers.h"
#include "readingcheck.h"
#include "topoparser.h"

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
    {ToolKind::NvidiaSmiTopo, "nvidia-smi-topo"},
};

Result<ParsedCards> parseCards(ToolKind kind, std::string_view text)
{
    switch (kind) {
    case ToolKind::NvidiaSmiCsv: return parseNvidiaSmiCsv(text);
    case ToolKind::NvidiaSmiXml: return parseNvidiaSmiXml(text);
    case ToolKind::NpuSmi: return parseNpuSmi(text);
    case ToolKind::Cnmon: return parseCnmon(text);
    case ToolKind::HySmi: return parseHySmi(text);
    case ToolKind::NvidiaSmiTopo:
    case ToolKind::Ethtool:
    case ToolKind::LldpctlJson: break;
    }
    return Error{"not a card tool"};
}

ToolSource commandSource(ToolKind kind, std::string label, std::vector<std::string> argv,
                         std::string netdev = {})
{
    return ToolSource{
        kind, std::move(label), std::move(netdev), {}, true, [argv = std::move(argv)] {
            return runTool(ToolRun{argv});
        }};
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
        sources.push_back(commandSource(ToolKind::NvidiaSmiTopo, "nvidia-smi topo -m",
                                        {"nvidia-smi", "topo", "-m"}));
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
                ToolSource{ToolKind::Ethtool, "ethtool -S " + netdev, netdev, rdma, true,
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
    return ToolSource{*kind, path,  std::move(netdev),
                      {},    false, [path] { return readTextFile(path); }};
}

namespace {

// The tools' tables close with a last line of their own; output without it was cut short
// (a tool killed mid-print, a full pipe), and its missing cards must not go unnoticed.
bool endsAsTheToolEnds(ToolKind kind, std::string_view text)
{
    std::string_view last = trim(text);
    if (const size_t newline = last.rfind('\n'); newline != std::string_view::npos)
        last = trim(last.substr(newline + 1));
    switch (kind) {
    case ToolKind::NpuSmi:
    case ToolKind::Cnmon: return startsWith(last, "+") && last.find("|") == std::string_view::npos;
    case ToolKind::HySmi: return last.find("End of SMI Log") != std::string_view::npos;
    default: return true;
    }
}

// Collects one pass over the sources: cards renumbered for the node, NICs with their
// counters, and what only discovery reads (LLDP neighbours, PCIe rails).
class ReadingBuilder {
public:
    explicit ReadingBuilder(const std::string &nodeId) : m_nodeId(nodeId) {}

    Status add(const ToolSource &source, std::string_view text)
    {
        const auto labelled = [&](const Error &e) {
            return Error{source.label + ": " + e.message};
        };
        switch (source.kind) {
        case ToolKind::Ethtool: {
            auto stats = parseEthtoolStats(text);
            if (!stats)
                return labelled(stats.error());
            addNic(source, stats.value());
            return {};
        }
        case ToolKind::LldpctlJson: {
            auto parsed = parseLldpctlJson(text);
            if (!parsed)
                return labelled(parsed.error());
            m_neighbours = std::move(parsed).value();
            return {};
        }
        case ToolKind::NvidiaSmiTopo: {
            auto topology = parseNvidiaSmiTopo(text);
            if (!topology)
                return labelled(topology.error());
            m_railGpu = nearestGpuPerNic(topology.value());
            return {};
        }
        default: break;
        }
        auto cards = parseCards(source.kind, text);
        if (!cards)
            return labelled(cards.error());
        if (!endsAsTheToolEnds(source.kind, text)) {
            m_reading.sample.problems.push_back(fmt::format(
                "{}: the output stops before the tool's last line (cut short?); {} card(s) "
                "read from it",
                source.label, cards->size()));
        }
        for (ParsedCard &card : cards.value()) {
            for (std::string &problem : dropImpossibleReadings(card.sample))
                m_reading.sample.problems.push_back(source.label + ": " + problem);
            addCard(std::move(card));
        }
        return {};
    }

    SmiReading finish()
    {
        for (LldpInterface &iface : m_neighbours)
            nic(iface.netdev).neighbor = std::move(iface.neighbor);
        for (NicInfo &info : m_reading.hardware.nics) {
            const auto rail = m_railGpu.find(info.rdmaDevice);
            if (rail == m_railGpu.end())
                continue;
            if (const auto card = m_nvidiaToNode.find(rail->second); card != m_nvidiaToNode.end())
                info.nearestCardIndex = card->second;
        }
        return std::move(m_reading);
    }

    SmiReading &reading() { return m_reading; }

private:
    void addCard(ParsedCard card)
    {
        const auto nodeIndex = static_cast<uint32_t>(m_reading.hardware.cards.size());
        if (card.info.vendor == Vendor::Nvidia)
            m_nvidiaToNode[card.info.index] = nodeIndex;
        // One numbering for the node across vendors (a hybrid node has both).
        card.info.index = card.sample.index = nodeIndex;
        if (card.info.vendor == Vendor::Hygon || startsWith(card.info.uuid, "NPU-") ||
            startsWith(card.info.uuid, "MLU-")) {
            // Tools without a UUID: make the bus-id based one unique in the fleet.
            card.info.uuid = fmt::format("{}-{}", m_nodeId, card.info.uuid);
        }
        m_reading.hardware.cards.push_back(std::move(card.info));
        m_reading.sample.cards.push_back(std::move(card.sample));
    }

    void addNic(const ToolSource &source, const CounterMap &stats)
    {
        NicCounters counters = nicCountersFromStats(source.netdev, stats);
        NicInfo &info = nic(source.netdev);
        info.rdmaDevice = source.rdmaDevice;
        if (source.live) {
            const std::filesystem::path net =
                std::filesystem::path("/sys/class/net") / source.netdev;
            const std::string state = readSysfs(net / "operstate");
            counters.linkState = state == "up"     ? LinkState::Up
                                 : state == "down" ? LinkState::Down
                                                   : LinkState::Unknown;
            info.linkState = counters.linkState;
            // sysfs says -1 for a port without link: no speed then, not a huge number.
            if (const auto speed = parseUnsigned(readSysfs(net / "speed")))
                info.speedMbps = *speed;
        }
        m_reading.sample.nics.push_back(std::move(counters));
    }

    NicInfo &nic(const std::string &netdev)
    {
        auto &nics = m_reading.hardware.nics;
        const auto it = std::find_if(nics.begin(), nics.end(),
                                     [&](const NicInfo &n) { return n.netdev == netdev; });
        if (it != nics.end())
            return *it;
        nics.push_back(NicInfo{});
        nics.back().netdev = netdev;
        return nics.back();
    }

    const std::string &m_nodeId;
    SmiReading m_reading;
    std::vector<LldpInterface> m_neighbours;
    std::map<std::string, uint32_t> m_railGpu;    // RDMA device -> NVIDIA GPU index
    std::map<uint32_t, uint32_t> m_nvidiaToNode;  // NVIDIA GPU index -> node card index
};

}  // namespace

Result<SmiReading> SmiCollector::read(bool strict, bool discovery)
{
    ReadingBuilder builder(m_nodeId);
    for (const ToolSource &source : m_sources) {
        const bool discoveryOnly =
            source.kind == ToolKind::LldpctlJson || source.kind == ToolKind::NvidiaSmiTopo;
        if (discoveryOnly && !discovery)
            continue;
        auto text = source.read();  // errors from reading already name the file or command
        Status status = text ? builder.add(source, text.value()) : Status(text.error());
        if (!status) {
            if (strict)
                return status.error();
            builder.reading().sample.problems.push_back(status.message());
        }
    }
    return builder.finish();
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

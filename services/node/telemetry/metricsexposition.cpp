#include "metricsexposition.h"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <optional>

namespace meridian {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// Label values may hold anything an agent was told (a host name, a rack); the format
// allows any UTF-8 once backslash, quote and newline are escaped.
void appendEscaped(std::string &out, std::string_view value)
{
    for (char c : value) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '"': out += "\\\""; break;
        case '\n': out += "\\n"; break;
        default: out += c;
        }
    }
}

void appendLabel(std::string &out, std::string_view name, std::string_view value, bool &first)
{
    out += first ? '{' : ',';
    first = false;
    out += name;
    out += "=\"";
    appendEscaped(out, value);
    out += '"';
}

// What every series of one node carries.
struct NodeLabels {
    std::string text;  // `dc="…",node="…",…` without braces
};

NodeLabels nodeLabels(const NodeInventory &inventory)
{
    std::string out;
    bool first = true;
    appendLabel(out, "Hostname", inventory.hostname.empty() ? inventory.nodeId : inventory.hostname,
                first);
    appendLabel(out, "node", inventory.nodeId, first);
    appendLabel(out, "dc", inventory.dataCenter, first);
    if (!inventory.rack.empty())
        appendLabel(out, "rack", inventory.rack, first);
    return {out.substr(1)};  // drop the '{'
}

// dcgm-exporter's labels (its camelCase `modelName` among them) on its own metric names;
// our own names keep to Prometheus' snake_case, with `model` for the model.
std::string cardLabels(const NodeLabels &node, const CardInfo &card, bool dcgmNames)
{
    std::string out = "{";
    out += fmt::format("gpu=\"{}\"", card.index);
    bool first = false;
    appendLabel(out, "UUID", card.uuid, first);
    if (dcgmNames)
        appendLabel(out, "modelName", card.model, first);
    appendLabel(out, "vendor", vendorName(card.vendor), first);
    appendLabel(out, "model", card.model, first);
    out += ',';
    out += node.text;
    out += '}';
    return out;
}

void appendValue(std::string &out, double value)
{
    out += fmt::format(" {}\n", value);
}

template <typename T>
std::optional<double> asDouble(const std::optional<T> &value)
{
    return value ? std::optional<double>(static_cast<double>(*value)) : std::nullopt;
}

struct CardGauge {
    const char *name;
    const char *help;
    std::function<std::optional<double>(const CardSample &)> read;
};

const std::vector<CardGauge> &cardGauges()
{
    static const std::vector<CardGauge> gauges = {
        {"DCGM_FI_DEV_GPU_UTIL", "Card utilisation (in %).",
         [](const CardSample &s) { return s.utilizationPercent; }},
        {"DCGM_FI_DEV_FB_USED", "Card memory used (in MiB).",
         [](const CardSample &s) -> std::optional<double> {
             if (!s.memoryUsedBytes)
                 return std::nullopt;
             return std::floor(double(*s.memoryUsedBytes) / kMiB);
         }},
        {"DCGM_FI_DEV_FB_FREE", "Card memory free (in MiB).",
         [](const CardSample &s) -> std::optional<double> {
             if (!s.memoryUsedBytes || !s.memoryTotalBytes ||
                 *s.memoryTotalBytes < *s.memoryUsedBytes)
                 return std::nullopt;
             return std::floor(double(*s.memoryTotalBytes - *s.memoryUsedBytes) / kMiB);
         }},
        {"DCGM_FI_DEV_GPU_TEMP", "Card temperature (in C).",
         [](const CardSample &s) { return s.temperatureCelsius; }},
        {"DCGM_FI_DEV_MEMORY_TEMP", "Card memory temperature (in C).",
         [](const CardSample &s) { return s.memoryTemperatureCelsius; }},
        {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).",
         [](const CardSample &s) { return s.powerWatts; }},
        {"DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).",
         [](const CardSample &s) { return asDouble(s.smClockMhz); }},
        {"DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).",
         [](const CardSample &s) { return asDouble(s.memoryClockMhz); }},
        {"DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered.",
         [](const CardSample &s) -> std::optional<double> {
             return double(s.lastXid.value_or(0));
         }},
        {"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "Single-bit volatile ECC errors.",
         [](const CardSample &s) { return asDouble(s.eccCorrectedVolatile); }},
        {"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "Double-bit volatile ECC errors.",
         [](const CardSample &s) { return asDouble(s.eccUncorrectedVolatile); }},
        // dcgm-exporter's throttle reasons are a bitmask PromQL cannot read without
        // arithmetic; the alerting rules (packaging/prometheus) read this instead.
        {"meridian_card_thermal_throttled",
         "1 while the card is held back for heat (software or hardware thermal slowdown).",
         [](const CardSample &s) -> std::optional<double> {
             if (!s.throttleReasons)
                 return std::nullopt;
             return s.thermallyThrottled() ? 1.0 : 0.0;
         }},
    };
    return gauges;
}

struct NicCounter {
    const char *family;  // OpenMetrics family name; samples are family + "_total"
    const char *help;
    std::function<std::optional<uint64_t>(const NicCounters &)> read;
};

const std::vector<NicCounter> &nicCounters()
{
    static const std::vector<NicCounter> counters = {
        {"meridian_nic_receive_bytes", "Bytes received by the RDMA NIC.",
         [](const NicCounters &c) { return c.rxBytes; }},
        {"meridian_nic_transmit_bytes", "Bytes sent by the RDMA NIC.",
         [](const NicCounters &c) { return c.txBytes; }},
        {"meridian_nic_ecn_marked_packets", "RoCE packets that arrived ECN-marked.",
         [](const NicCounters &c) { return c.ecnMarkedPackets; }},
        {"meridian_nic_cnp_sent", "Congestion notification packets sent.",
         [](const NicCounters &c) { return c.cnpSent; }},
        {"meridian_nic_cnp_handled", "Congestion notification packets acted on.",
         [](const NicCounters &c) { return c.cnpHandled; }},
        {"meridian_nic_out_of_sequence", "RoCE packets that arrived out of sequence.",
         [](const NicCounters &c) { return c.outOfSequence; }},
        {"meridian_nic_receive_discards", "Received packets discarded.",
         [](const NicCounters &c) { return c.rxDiscards; }},
        {"meridian_nic_transmit_discards", "Packets to send that were discarded.",
         [](const NicCounters &c) { return c.txDiscards; }},
        {"meridian_nic_link_down_events", "Times the link went down.",
         [](const NicCounters &c) { return c.linkDownEvents; }},
        {"meridian_nic_symbol_errors", "Physical-layer symbol errors.",
         [](const NicCounters &c) { return c.symbolErrors; }},
    };
    return counters;
}

std::string nicLabels(const NodeLabels &node, const NicCounters &nic,
                      const NodeInventory &inventory)
{
    std::string out;
    bool first = true;
    appendLabel(out, "device", nic.netdev, first);
    for (const NicInfo &info : inventory.nics) {
        if (info.netdev == nic.netdev && !info.rdmaDevice.empty())
            appendLabel(out, "rdma", info.rdmaDevice, first);
    }
    out += ',';
    out += node.text;
    out += '}';
    return out;
}

void appendHeader(std::string &out, std::string_view family, std::string_view type,
                  std::string_view help)
{
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", family, help, family, type);
}

const CardInfo *cardInfo(const NodeInventory &inventory, uint32_t index)
{
    for (const CardInfo &card : inventory.cards) {
        if (card.index == index)
            return &card;
    }
    return nullptr;
}

void appendCards(std::string &out, const NodeLabels &node, const NodeInventory &inventory,
                 const TelemetrySample &sample)
{
    std::vector<std::string> labels;
    std::vector<std::string> ownLabels;
    for (const CardSample &card : sample.cards) {
        CardInfo unknown;
        unknown.index = card.index;
        const CardInfo *info = cardInfo(inventory, card.index);
        labels.push_back(cardLabels(node, info ? *info : unknown, true));
        ownLabels.push_back(cardLabels(node, info ? *info : unknown, false));
    }
    for (const CardGauge &gauge : cardGauges()) {
        const bool dcgmName = std::string_view(gauge.name).rfind("DCGM_", 0) == 0;
        bool headerWritten = false;
        for (size_t i = 0; i < sample.cards.size(); ++i) {
            const std::optional<double> value = gauge.read(sample.cards[i]);
            if (!value || !std::isfinite(*value))
                continue;
            if (!headerWritten) {
                appendHeader(out, gauge.name, "gauge", gauge.help);
                headerWritten = true;
            }
            out += gauge.name;
            out += dcgmName ? labels[i] : ownLabels[i];
            appendValue(out, *value);
        }
    }
}

void appendNics(std::string &out, const NodeLabels &node, const NodeInventory &inventory,
                const TelemetrySample &sample, ExpositionFormat format)
{
    if (sample.nics.empty())
        return;
    std::vector<std::string> labels;
    for (const NicSample &nic : sample.nics)
        labels.push_back(nicLabels(node, nic.counters, inventory));

    appendHeader(out, "meridian_nic_link_up", "gauge", "1 when the link is up, 0 when down.");
    for (size_t i = 0; i < sample.nics.size(); ++i) {
        const LinkState state = sample.nics[i].counters.linkState;
        if (state == LinkState::Unknown)
            continue;
        out += "meridian_nic_link_up" + labels[i];
        appendValue(out, state == LinkState::Up ? 1 : 0);
    }
    // Text format 0.0.4 names the counter's samples in TYPE; OpenMetrics names the family.
    auto counterHeader = [&](const std::string &family, std::string_view help) {
        appendHeader(out, format == ExpositionFormat::OpenMetrics ? family : family + "_total",
                     "counter", help);
    };
    for (const NicCounter &counter : nicCounters()) {
        bool headerWritten = false;
        for (size_t i = 0; i < sample.nics.size(); ++i) {
            const std::optional<uint64_t> value = counter.read(sample.nics[i].counters);
            if (!value)
                continue;
            if (!headerWritten) {
                counterHeader(counter.family, counter.help);
                headerWritten = true;
            }
            out += fmt::format("{}_total{} {}\n", counter.family, labels[i], *value);
        }
    }
    for (const bool received : {true, false}) {
        const std::string family = received ? "meridian_nic_pfc_receive_pause_frames"
                                            : "meridian_nic_pfc_transmit_pause_frames";
        bool headerWritten = false;
        for (size_t i = 0; i < sample.nics.size(); ++i) {
            const NicCounters &c = sample.nics[i].counters;
            const auto &pauses = received ? c.rxPause : c.txPause;
            for (int priority = 0; priority < kPfcPriorities; ++priority) {
                if (!pauses[priority])
                    continue;
                if (!headerWritten) {
                    counterHeader(family, received ? "PFC pause frames received, per priority."
                                                   : "PFC pause frames sent, per priority.");
                    headerWritten = true;
                }
                std::string withPriority = labels[i];
                withPriority.insert(1, fmt::format("priority=\"{}\",", priority));
                out += fmt::format("{}_total{} {}\n", family, withPriority, *pauses[priority]);
            }
        }
    }
}

}  // namespace

ExpositionFormat negotiateExposition(std::string_view acceptHeader)
{
    return acceptHeader.find("application/openmetrics-text") != std::string_view::npos
               ? ExpositionFormat::OpenMetrics
               : ExpositionFormat::PrometheusText;
}

std::string_view expositionContentType(ExpositionFormat format)
{
    return format == ExpositionFormat::OpenMetrics
               ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
               : "text/plain; version=0.0.4; charset=utf-8";
}

std::string renderExposition(const NodeInventory &inventory, const TelemetrySample &sample,
                             ExpositionFormat format)
{
    const NodeLabels node = nodeLabels(inventory);
    std::string out;
    out.reserve(512 + sample.cards.size() * 2048 + sample.nics.size() * 2048);

    appendHeader(out, "meridian_node_info", "gauge",
                 "The node as its agent reports it; the value is always 1.");
    out += "meridian_node_info{" + node.text;
    bool first = false;
    appendLabel(out, "collector", inventory.collector, first);
    appendLabel(out, "agent_version", inventory.agentVersion, first);
    out += "} 1\n";

    appendHeader(out, "meridian_sample_time_seconds", "gauge",
                 "When the agent took the readings below (Unix time).");
    out += "meridian_sample_time_seconds{" + node.text + "}";
    appendValue(out, double(sample.sampleTimeUnixMs) / 1000.0);

    appendCards(out, node, inventory, sample);
    appendNics(out, node, inventory, sample, format);
    if (format == ExpositionFormat::OpenMetrics)
        out += "# EOF\n";
    return out;
}

}  // namespace meridian

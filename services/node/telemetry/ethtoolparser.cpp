// ethtool -S for mlx5 RoCE ports. Port-level "_phy" counters are preferred: they count
// RDMA traffic too, which the netdev's software counters never see.
#include <fmt/format.h>

#include "core/textutil.h"
#include "nicparsers.h"
#include "parseinput.h"

namespace meridian {

Result<CounterMap> parseEthtoolStats(std::string_view text)
{
    if (Status status = checkToolOutput(text); !status)
        return status.error();
    CounterMap counters;
    const auto lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = trim(lines[i]);
        if (line.empty() || startsWith(line, "NIC statistics"))
            continue;
        std::string_view name;
        std::string_view value;
        if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
            name = trim(line.substr(0, colon));
            value = trim(line.substr(colon + 1));
        } else if (const auto words = splitWhitespace(line); words.size() == 2) {
            name = words[0];
            value = words[1];
        } else {
            return lineError(i + 1, fmt::format("expected 'name: value', got '{}'", line));
        }
        const auto number = parseUnsigned(value);
        if (!number) {
            return lineError(i + 1,
                             fmt::format("counter '{}' has value '{}', not a count", name, value));
        }
        counters.insert_or_assign(std::string(name), *number);
    }
    if (counters.empty())
        return Error{"no counters found (expected 'name: value' lines from ethtool -S)"};
    return counters;
}

namespace {

std::optional<uint64_t> firstPresent(const CounterMap &stats,
                                     std::initializer_list<std::string_view> names)
{
    for (std::string_view name : names) {
        if (const auto it = stats.find(name); it != stats.end())
            return it->second;
    }
    return std::nullopt;
}

}  // namespace

NicCounters nicCountersFromStats(std::string netdev, const CounterMap &stats)
{
    NicCounters c;
    c.netdev = std::move(netdev);
    c.rxBytes = firstPresent(stats, {"rx_bytes_phy", "port_rcv_data", "rx_bytes"});
    c.txBytes = firstPresent(stats, {"tx_bytes_phy", "port_xmit_data", "tx_bytes"});
    for (int p = 0; p < kPfcPriorities; ++p) {
        c.rxPause[p] = firstPresent(stats, {fmt::format("rx_prio{}_pause", p)});
        c.txPause[p] = firstPresent(stats, {fmt::format("tx_prio{}_pause", p)});
    }
    c.ecnMarkedPackets = firstPresent(stats, {"np_ecn_marked_roce_packets", "rx_ecn_mark"});
    c.cnpSent = firstPresent(stats, {"np_cnp_sent", "tx_cnp_pkts"});
    c.cnpHandled = firstPresent(stats, {"rp_cnp_handled", "rx_cnp_pkts"});
    c.outOfSequence = firstPresent(stats, {"out_of_sequence"});
    c.packetSequenceErrors = firstPresent(stats, {"packet_seq_err"});
    c.rxDiscards = firstPresent(stats, {"rx_discards_phy"});
    c.txDiscards = firstPresent(stats, {"tx_discards_phy"});
    c.linkDownEvents = firstPresent(stats, {"link_down_events_phy"});
    c.symbolErrors = firstPresent(stats, {"rx_symbol_err_phy", "rx_pcs_symbol_err_phy"});
    c.crcErrors = firstPresent(stats, {"rx_crc_errors_phy"});
    return c;
}

}  // namespace meridian

#include "fabricparsers.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/textutil.h"
#include "parseinput.h"

namespace meridian {

namespace {

std::optional<uint32_t> smallNumber(std::string_view text, uint32_t max)
{
    const auto v = parseUnsigned(text);
    if (!v || *v > max)
        return std::nullopt;
    return static_cast<uint32_t>(*v);
}

// "a/b" → {a, b}
std::optional<std::pair<uint64_t, uint64_t>> slashPair(std::string_view text)
{
    const auto parts = split(text, '/');
    if (parts.size() != 2)
        return std::nullopt;
    const auto a = parseUnsigned(trim(parts[0]), {}, true);
    const auto b = parseUnsigned(trim(parts[1]), {}, true);
    if (!a || !b)
        return std::nullopt;
    return std::pair{*a, *b};
}

// After "Key:" on a line of `lldpcli show neighbors`.
std::string_view valueAfter(std::string_view line, std::string_view key)
{
    return trim(line.substr(line.find(key) + key.size()));
}

// "0 day, 01:22:55" → seconds
std::optional<uint64_t> lldpAge(std::string_view text)
{
    const size_t comma = text.find(',');
    if (comma == std::string_view::npos)
        return std::nullopt;
    const auto dayWords = splitWhitespace(text.substr(0, comma));
    const auto clock = split(trim(text.substr(comma + 1)), ':');
    if (dayWords.empty() || clock.size() != 3)
        return std::nullopt;
    const auto days = parseUnsigned(dayWords[0]);
    const auto h = parseUnsigned(clock[0]), m = parseUnsigned(clock[1]),
               s = parseUnsigned(clock[2]);
    if (!days || !h || !m || !s || *days > 100'000)
        return std::nullopt;
    return *days * 86'400 + *h * 3600 + *m * 60 + *s;
}

// "OUI: 00,80,C2, SubType: 11, Len: 2 08,08" → PFC enabled priorities, or nothing when
// the TLV is another one.
std::optional<std::vector<uint32_t>> dcbxPfcPriorities(std::string_view tlv)
{
    if (!contains(toLower(tlv), "oui: 00,80,c2") || !contains(tlv, "SubType: 11,"))
        return std::nullopt;
    const size_t len = tlv.find("Len:");
    if (len == std::string_view::npos)
        return std::nullopt;
    const auto words = splitWhitespace(tlv.substr(len + 4));
    if (words.size() < 2)
        return std::nullopt;
    const auto bytes = split(words[1], ',');
    if (bytes.size() < 2)
        return std::nullopt;
    unsigned bitmap = 0;
    const std::string hex(trim(bytes[1]));
    if (hex.empty() || hex.size() > 2 ||
        hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        return std::nullopt;
    bitmap = static_cast<unsigned>(std::stoul(hex, nullptr, 16));
    std::vector<uint32_t> priorities;
    for (uint32_t p = 0; p < kPfcPriorities; ++p) {
        if (bitmap & (1u << p))
            priorities.push_back(p);
    }
    return priorities;
}

}  // namespace

Result<QosConfig> parseMlnxQos(std::string_view text)
{
    if (Status s = checkToolOutput(text); !s)
        return s.error();
    QosConfig config;
    config.dscpToPriority.fill(-1);
    bool sawPfc = false;
    const auto lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = trim(lines[i]);
        if (startsWith(line, "Priority trust state:")) {
            config.trust = std::string(valueAfter(line, "state:"));
        } else if (startsWith(line, "dscp2prio mapping:")) {
            config.dscpToPriority.fill(-1);  // a later dump replaces an earlier one
        } else if (startsWith(line, "prio:")) {
            const auto words = splitWhitespace(line);
            const auto prio = words.empty() ? std::nullopt : smallNumber(words[0].substr(5), 7);
            if (!prio || words.size() < 2 || !startsWith(words[1], "dscp:"))
                return lineError(i + 1, "expected 'prio:N dscp:a,b,...'");
            for (std::string_view d : split(words[1].substr(5), ',')) {
                if (trim(d).empty())
                    continue;
                const auto dscp = smallNumber(trim(d), 63);
                if (!dscp)
                    return lineError(i + 1, fmt::format("'{}' is not a DSCP value", d));
                config.dscpToPriority[*dscp] = static_cast<int>(*prio);
            }
        } else if (startsWith(line, "enabled")) {
            const auto words = splitWhitespace(line);
            if (words.size() != 1 + kPfcPriorities)
                return lineError(i + 1, "expected 'enabled' and eight 0/1 flags");
            config.pfcEnabledPriorities.clear();
            for (uint32_t p = 0; p < kPfcPriorities; ++p) {
                if (words[p + 1] == "1")
                    config.pfcEnabledPriorities.push_back(p);
                else if (words[p + 1] != "0")
                    return lineError(i + 1, fmt::format("'{}' is not 0 or 1", words[p + 1]));
            }
            sawPfc = true;
        }
    }
    if (!sawPfc)
        return Error{"mlnx_qos: no 'PFC configuration' with an 'enabled' line"};
    return config;
}

Result<std::vector<RdmaLink>> parseRdmaLink(std::string_view text)
{
    if (Status s = checkToolOutput(text); !s)
        return s.error();
    std::vector<RdmaLink> out;
    const auto lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const auto words = splitWhitespace(lines[i]);
        if (words.size() < 2 || words[0] != "link")
            continue;  // prompts and blank lines between runs
        RdmaLink link;
        const size_t slash = words[1].find('/');
        const auto port = slash == std::string_view::npos
                              ? std::nullopt
                              : smallNumber(words[1].substr(slash + 1), 255);
        if (!port || slash == 0)
            return lineError(i + 1, fmt::format("'{}' is not DEVICE/PORT", words[1]));
        link.device = std::string(words[1].substr(0, slash));
        link.port = *port;
        for (size_t w = 2; w + 1 < words.size(); w += 2) {
            if (words[w] == "state")
                link.state = std::string(words[w + 1]);
            else if (words[w] == "physical_state")
                link.physicalState = std::string(words[w + 1]);
            else if (words[w] == "netdev")
                link.netdev = std::string(words[w + 1]);
        }
        if (link.state.empty())
            return lineError(i + 1, "a link without a state");
        out.push_back(std::move(link));
    }
    if (out.empty())
        return Error{"rdma link: no 'link DEV/PORT ...' lines"};
    return out;
}

int countLinkDrops(const std::vector<RdmaLink> &readings, std::string_view device, uint32_t port)
{
    int drops = 0;
    std::optional<bool> wasUp;
    for (const RdmaLink &r : readings) {
        if (r.device != device || r.port != port)
            continue;
        drops += wasUp.value_or(false) && !r.up();
        wasUp = r.up();
    }
    return drops;
}

Result<std::vector<RoceGid>> parseShowGids(std::string_view text)
{
    if (Status s = checkToolOutput(text); !s)
        return s.error();
    std::vector<RoceGid> out;
    std::optional<uint64_t> announced;
    const auto lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = trim(lines[i]);
        if (line.empty() || startsWith(line, "DEV") || startsWith(line, "---"))
            continue;
        if (startsWith(line, "n_gids_found=")) {
            announced = parseUnsigned(line.substr(13));
            continue;
        }
        const auto f = splitWhitespace(line);
        if (f.size() != 6 && f.size() != 7)
            return lineError(i + 1, "expected DEV PORT INDEX GID [IPv4] VER DEV");
        RoceGid gid;
        gid.device = std::string(f[0]);
        const auto port = smallNumber(f[1], 255);
        const auto index = smallNumber(f[2], 1u << 16);
        if (!port || !index || !contains(f[3], ":"))
            return lineError(i + 1, "bad port, index or GID");
        gid.port = *port;
        gid.index = *index;
        gid.gid = std::string(f[3]);
        const size_t v = f.size() == 7 ? 5 : 4;
        if (f.size() == 7)
            gid.ipv4 = std::string(f[4]);
        gid.version = std::string(f[v]);
        gid.netdev = std::string(f[v + 1]);
        if (gid.version != "v1" && gid.version != "v2")
            return lineError(i + 1, fmt::format("RoCE version '{}'", gid.version));
        out.push_back(std::move(gid));
    }
    if (announced && *announced != out.size())
        return Error{fmt::format("show_gids: it says {} GIDs, lists {}", *announced, out.size())};
    return out;
}

Result<std::vector<LldpInterface>> parseLldpcliText(std::string_view text)
{
    if (Status s = checkToolOutput(text); !s)
        return s.error();
    std::vector<LldpInterface> out;
    const auto lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = trim(lines[i]);
        if (startsWith(line, "Interface:")) {
            LldpInterface entry;
            const std::string_view rest = valueAfter(line, "Interface:");
            entry.netdev = std::string(trim(rest.substr(0, rest.find(','))));
            if (entry.netdev.empty())
                return lineError(i + 1, "an interface without a name");
            if (const size_t time = rest.find("Time:"); time != std::string_view::npos)
                entry.neighbor.ageSeconds = lldpAge(trim(rest.substr(time + 5)));
            out.push_back(std::move(entry));
            continue;
        }
        if (out.empty())
            continue;  // the banner before the first interface
        LldpNeighbor &n = out.back().neighbor;
        const auto typed = [&](std::string_view key, std::string &type, std::string &value) {
            const auto words = splitWhitespace(valueAfter(line, key));
            if (words.size() >= 2) {
                type = std::string(words[0]);
                value = std::string(words[1]);
            } else if (words.size() == 1) {
                value = std::string(words[0]);
            }
        };
        if (startsWith(line, "ChassisID:"))
            typed("ChassisID:", n.chassisIdType, n.chassisId);
        else if (startsWith(line, "SysName:"))
            n.systemName = std::string(valueAfter(line, "SysName:"));
        else if (startsWith(line, "MgmtIP:") && n.managementAddress.empty())
            n.managementAddress = std::string(valueAfter(line, "MgmtIP:"));
        else if (startsWith(line, "PortID:"))
            typed("PortID:", n.portIdType, n.portId);
        else if (startsWith(line, "PortDescr:"))
            n.portDescription = std::string(valueAfter(line, "PortDescr:"));
        else if (startsWith(line, "TTL:")) {
            const auto ttl = smallNumber(valueAfter(line, "TTL:"), 65'535);
            if (!ttl)
                return lineError(i + 1, "TTL is not a number of seconds");
            n.ttlSeconds = *ttl;
        } else if (startsWith(line, "TLV:")) {
            if (auto pfc = dcbxPfcPriorities(valueAfter(line, "TLV:")))
                n.pfcPriorities = std::move(pfc);
        }
    }
    if (out.empty())
        return Error{"lldpcli: no 'Interface:' entries"};
    return out;
}

Result<std::vector<SwitchPfcCounters>> parseSonicPfcCounters(std::string_view text)
{
    if (Status s = checkToolOutput(text); !s)
        return s.error();
    std::vector<SwitchPfcCounters> out;
    // Which table the rows belong to; none between tables. (Two plain variables: g++
    // wrongly thinks an optional<enum> read here may be uninitialised.)
    bool inTable = false;
    PfcDirection direction = PfcDirection::Rx;
    const auto lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const auto words = splitWhitespace(lines[i]);
        if (words.size() == 2 + kPfcPriorities && words[0] == "Port" &&
            (words[1] == "Rx" || words[1] == "Tx") && words[2] == "PFC0") {
            inTable = true;
            direction = words[1] == "Rx" ? PfcDirection::Rx : PfcDirection::Tx;
            continue;
        }
        if (!inTable || words.empty() || startsWith(words[0], "---"))
            continue;
        if (words.size() != 1 + kPfcPriorities) {
            inTable = false;  // the table ended (a prompt, a blank line, the next command)
            continue;
        }
        SwitchPfcCounters row;
        row.port = std::string(words[0]);
        row.direction = direction;
        for (int p = 0; p < kPfcPriorities; ++p) {
            const auto v = parseUnsigned(words[static_cast<size_t>(p) + 1], {}, true);
            if (!v)
                return lineError(i + 1, fmt::format("{} PFC{}: '{}' is not a count", row.port, p,
                                                    words[static_cast<size_t>(p) + 1]));
            row.frames[static_cast<size_t>(p)] = *v;
        }
        out.push_back(std::move(row));
    }
    if (out.empty())
        return Error{"show pfc counters: no 'Port Rx' or 'Port Tx' table"};
    return out;
}

Result<std::vector<PfcWatchdogQueue>> parseSonicPfcwdStats(std::string_view text)
{
    if (Status s = checkToolOutput(text); !s)
        return s.error();
    std::vector<PfcWatchdogQueue> out;
    bool inTable = false;
    const auto lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const auto words = splitWhitespace(lines[i]);
        if (!words.empty() && words[0] == "QUEUE" && words.size() > 1 && words[1] == "STATUS") {
            inTable = true;
            continue;
        }
        if (!inTable || words.empty() || startsWith(words[0], "---"))
            continue;
        if (words.size() != 7 || !contains(words[0], ":")) {
            inTable = false;
            continue;
        }
        PfcWatchdogQueue q;
        const size_t colon = words[0].rfind(':');
        q.port = std::string(words[0].substr(0, colon));
        const auto queue = smallNumber(words[0].substr(colon + 1), 7);
        const auto storms = slashPair(words[2]);
        const auto tx = slashPair(words[3]);
        const auto rx = slashPair(words[4]);
        if (!queue || !storms || !tx || !rx)
            return lineError(i + 1, "expected PORT:QUEUE STATUS a/b a/b a/b a/b a/b");
        q.queue = *queue;
        q.status = std::string(words[1]);
        std::tie(q.stormsDetected, q.stormsRestored) = *storms;
        std::tie(q.txOk, q.txDrop) = *tx;
        std::tie(q.rxOk, q.rxDrop) = *rx;
        out.push_back(std::move(q));
    }
    if (out.empty())
        return Error{"show pfcwd stats: no queue rows"};
    return out;
}

}  // namespace meridian

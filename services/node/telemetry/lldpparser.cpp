// lldpctl JSON. Two shapes exist: `-f json0` makes every field an array of objects with
// "value"; `-f json` uses plain strings, keys interfaces and chassis by name, and turns
// a one-element list into an object. Both are read through the same accessors.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/textutil.h"
#include "nicparsers.h"
#include "parseinput.h"

namespace meridian {

namespace {

using nlohmann::json;

const json &unwrap(const json &node)
{
    static const json null;
    if (node.is_array())
        return node.empty() ? null : node.front();
    return node;
}

const json &field(const json &node, const char *name)
{
    static const json null;
    const json &object = unwrap(node);
    if (!object.is_object())
        return null;
    const auto it = object.find(name);
    return it == object.end() ? null : *it;
}

std::string text(const json &node)
{
    const json &value = unwrap(node);
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_number() || value.is_boolean())
        return value.dump();
    if (value.is_object() && value.contains("value"))
        return text(value["value"]);
    return {};
}

// "0 day, 01:48:20"
std::optional<uint64_t> parseAge(std::string_view age)
{
    uint64_t days = 0;
    const size_t comma = age.find(',');
    if (comma != std::string_view::npos) {
        const auto words = splitWhitespace(age.substr(0, comma));
        if (words.empty() || !parseUnsigned(words[0]))
            return std::nullopt;
        days = *parseUnsigned(words[0]);
        age = age.substr(comma + 1);
    }
    const auto parts = split(trim(age), ':');
    if (parts.size() != 3)
        return std::nullopt;
    const auto h = parseUnsigned(parts[0]);
    const auto m = parseUnsigned(parts[1]);
    const auto s = parseUnsigned(parts[2]);
    if (!h || !m || !s)
        return std::nullopt;
    return days * 86400 + *h * 3600 + *m * 60 + *s;
}

LldpInterface parseInterface(std::string netdev, const json &iface)
{
    LldpInterface out;
    out.netdev = std::move(netdev);
    LldpNeighbor &n = out.neighbor;
    const json &chassis = unwrap(field(iface, "chassis"));
    const json *chassisBody = &chassis;
    if (chassis.is_object() && !chassis.contains("id") && chassis.size() == 1) {
        // `-f json`: {"chassis": {"leaf-01": {"id": ...}}}
        n.systemName = chassis.begin().key();
        chassisBody = &chassis.begin().value();
    } else {
        n.systemName = text(field(chassis, "name"));
    }
    const json &chassisId = field(*chassisBody, "id");
    n.chassisId = text(chassisId);
    n.chassisIdType = text(field(chassisId, "type"));
    n.managementAddress = text(field(*chassisBody, "mgmt-ip"));
    const json &port = field(iface, "port");
    const json &portId = field(port, "id");
    n.portId = text(portId);
    n.portIdType = text(field(portId, "type"));
    n.portDescription = text(field(port, "descr"));
    if (const auto ttl = parseUnsigned(text(field(port, "ttl"))))
        n.ttlSeconds = static_cast<uint32_t>(*ttl);
    n.ageSeconds = parseAge(text(field(iface, "age")));
    return out;
}

}  // namespace

Result<std::vector<LldpInterface>> parseLldpctlJson(std::string_view input)
{
    if (Status status = checkToolOutput(input); !status)
        return status.error();
    if (Status status = checkJsonNesting(input); !status)
        return status.error();
    json document;
    try {
        document = json::parse(input.begin(), input.end());
    } catch (const json::parse_error &error) {
        // nlohmann reports a byte offset; the person reading wants a line.
        const size_t offset = std::min<size_t>(error.byte, input.size());
        const size_t line =
            1 + static_cast<size_t>(std::count(input.begin(), input.begin() + offset, '\n'));
        return lineError(line, fmt::format("not valid JSON: {}", error.what()));
    } catch (const json::exception &error) {
        // Valid syntax the library still refuses: a number past double (1e3000).
        return Error{fmt::format("not usable JSON: {}", error.what())};
    }
    const json &lldp = unwrap(field(document, "lldp"));
    if (!lldp.is_object())
        return Error{"no \"lldp\" object: not the output of lldpctl -f json"};
    std::vector<LldpInterface> interfaces;
    // A reference, never a copy: copying a json tree recurses as deep as it nests.
    static const json none;
    const json &list = lldp.contains("interface") ? lldp["interface"] : none;
    auto add = [&](std::string name, const json &body) {
        if (interfaces.size() < kMaxNicsPerNode)
            interfaces.push_back(parseInterface(std::move(name), body));
    };
    auto addEntry = [&](const json &entry) {
        if (!entry.is_object())
            return;
        if (entry.contains("name") && entry["name"].is_string()) {
            add(entry["name"].get<std::string>(), entry);  // json0
        } else {
            for (const auto &[name, body] : entry.items())  // json: {"eth0": {...}}
                add(name, body);
        }
    };
    if (list.is_array()) {
        for (const json &entry : list)
            addEntry(entry);
    } else {
        addEntry(list);
    }
    return interfaces;
}

}  // namespace meridian

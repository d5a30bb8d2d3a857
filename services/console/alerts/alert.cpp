#include "alert.h"

#include <cctype>

namespace meridian {

const char *alertKindName(AlertKind kind)
{
    switch (kind) {
    case AlertKind::DataCenterDark: return "data center dark";
    case AlertKind::AgentUnreachable: return "agent unreachable";
    case AlertKind::AgentStale: return "agent stale";
    case AlertKind::Xid: return "Xid";
    case AlertKind::EccDoubleBit: return "ECC double-bit";
    case AlertKind::ThermalThrottle: return "thermal throttling";
    case AlertKind::LinkDown: return "link down";
    case AlertKind::LinkFlap: return "link flapping";
    case AlertKind::PfcStorm: return "PFC storm";
    case AlertKind::PaidButIdle: return "paid but idle";
    case AlertKind::ServiceOverObjective: return "service over objective";
    case AlertKind::PlanAwaitingApproval: return "plan awaiting approval";
    case AlertKind::ControllerSilent: return "controller silent";
    }
    return "alert";
}

std::optional<AlertKind> alertKindFromName(std::string_view name)
{
    for (int k = 0; k <= static_cast<int>(kLastAlertKind); ++k) {
        if (name == alertKindName(static_cast<AlertKind>(k)))
            return static_cast<AlertKind>(k);
    }
    return std::nullopt;
}

std::string alertmanagerAlertName(AlertKind kind)
{
    std::string name = "Meridian";
    bool wordStart = true;
    for (const char c : std::string(alertKindName(kind))) {
        if (c == ' ' || c == '-' || c == '_') {
            wordStart = true;
            continue;
        }
        const auto letter = static_cast<unsigned char>(c);
        name += static_cast<char>(wordStart ? std::toupper(letter) : std::tolower(letter));
        wordStart = false;
    }
    return name;
}

std::optional<AlertKind> alertKindFromAnyName(std::string_view name)
{
    if (const auto kind = alertKindFromName(name))
        return kind;
    for (int k = 0; k <= static_cast<int>(kLastAlertKind); ++k) {
        if (name == alertmanagerAlertName(static_cast<AlertKind>(k)))
            return static_cast<AlertKind>(k);
    }
    return std::nullopt;
}

std::string alertShortId(std::string_view key)
{
    // FNV-1a: stable across builds and machines, unlike std::hash.
    uint32_t hash = 2166136261u;
    for (const char c : key) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 16777619u;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id(6, '0');
    for (int i = 5; i >= 0; --i, hash >>= 4)
        id[static_cast<size_t>(i)] = kHex[hash & 0xf];
    return id;
}

}  // namespace meridian

#include "nvidiathrottle.h"

#include "core/textutil.h"

namespace meridian {

namespace {

// No suffix here is the tail of another ("hw_slowdown" vs "hw_thermal_slowdown").
constexpr std::pair<std::string_view, ThrottleReason> kSuffixes[] = {
    {"gpu_idle", ThrottleReason::Idle},
    {"applications_clocks_setting", ThrottleReason::ApplicationClocks},
    {"sw_power_cap", ThrottleReason::SwPowerCap},
    {"hw_slowdown", ThrottleReason::HwSlowdown},
    {"sw_thermal_slowdown", ThrottleReason::SwThermal},
    {"hw_thermal_slowdown", ThrottleReason::HwThermal},
    {"hw_power_brake_slowdown", ThrottleReason::HwPowerBrake},
    {"sync_boost", ThrottleReason::SyncBoost},
};

bool endsWithReason(std::string_view name, std::string_view suffix)
{
    // The suffix must follow a separator: "reasons.hw_slowdown", "reason_hw_slowdown".
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix &&
           (name[name.size() - suffix.size() - 1] == '.' ||
            name[name.size() - suffix.size() - 1] == '_') &&
           !contains(name, "counters");
}

}  // namespace

void NvidiaThrottleReasons::add(std::string_view fieldName, std::string_view value)
{
    value = trim(value);
    if (value != "Active" && value != "Not Active")
        return;
    for (const auto &[suffix, reason] : kSuffixes) {
        if (endsWithReason(fieldName, suffix)) {
            m_known = true;
            if (value == "Active")
                m_active.push_back(reason);
            return;
        }
    }
}

std::optional<std::vector<ThrottleReason>> NvidiaThrottleReasons::result() const
{
    if (!m_known)
        return std::nullopt;
    return m_active;
}

}  // namespace meridian

// nvidia-smi reports each clock-event (throttle) reason as its own field, "Active" or
// "Not Active", named by a suffix that every output format shares
// (clocks_event_reasons.hw_slowdown, <clocks_event_reason_hw_slowdown>, and before
// driver 535 clocks_throttle_reasons.*). This folds them into one list.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/cardtypes.h"

namespace meridian {

class NvidiaThrottleReasons {
public:
    // Any field; those that are not an Active/Not Active reason are ignored.
    void add(std::string_view fieldName, std::string_view value);
    // Absent when no reason field was seen at all; empty when none is active.
    std::optional<std::vector<ThrottleReason>> result() const;

private:
    bool m_known = false;
    std::vector<ThrottleReason> m_active;
};

}  // namespace meridian

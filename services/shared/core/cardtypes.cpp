#include "cardtypes.h"

#include <algorithm>

namespace meridian {

bool CardSample::thermallyThrottled() const
{
    if (!throttleReasons)
        return false;
    return std::any_of(throttleReasons->begin(), throttleReasons->end(), [](ThrottleReason r) {
        return r == ThrottleReason::SwThermal || r == ThrottleReason::HwThermal;
    });
}

}  // namespace meridian

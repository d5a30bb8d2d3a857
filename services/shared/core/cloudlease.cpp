#include "cloudlease.h"

#include <algorithm>

namespace meridian {

double leaseBilledHours(const CloudLease &lease, int64_t fromUnixS, int64_t toUnixS,
                        int64_t nowUnixS)
{
    const int64_t increment = std::max<int64_t>(1, lease.billingIncrementSeconds);
    const int64_t end = std::min(lease.releasedUnixS.value_or(nowUnixS), toUnixS);
    // Increments start at created + k * increment; count those starting in [from, end).
    const auto firstAtOrAfter = [&](int64_t t) {
        if (t <= lease.createdUnixS)
            return int64_t{0};
        return (t - lease.createdUnixS + increment - 1) / increment;
    };
    const int64_t first = firstAtOrAfter(fromUnixS);
    const int64_t pastLast = firstAtOrAfter(end);
    if (pastLast <= first)
        return 0;
    return static_cast<double>((pastLast - first) * increment) / 3600.0;
}

double leaseSpendCny(const CloudLease &lease, int64_t fromUnixS, int64_t toUnixS, int64_t nowUnixS)
{
    return leaseBilledHours(lease, fromUnixS, toUnixS, nowUnixS) * lease.cards() *
           lease.cnyPerCardHour;
}

}  // namespace meridian

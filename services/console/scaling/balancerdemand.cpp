#include "balancerdemand.h"

#include <algorithm>

namespace meridian {

void addBalancerLoad(ServiceSignals &signals, const BalancerReading &now,
                     const std::optional<BalancerReading> &before)
{
    signals.waitingRequests += std::max(0, now.queued);
    if (!before || now.atMs <= before->atMs || !now.arrivedTotal || !before->arrivedTotal ||
        *now.arrivedTotal < *before->arrivedTotal)
        return;
    const double seconds = static_cast<double>(now.atMs - before->atMs) / 1000.0;
    signals.arrivalRps = static_cast<double>(*now.arrivedTotal - *before->arrivedTotal) / seconds;
}

}  // namespace meridian

// The nearest-rank percentile of a handful of values (the one at floor(p × n) once
// sorted), for summaries over what fits in memory; 0 when there are none.
#pragma once

#include <algorithm>
#include <vector>

namespace meridian {

inline double nearestRankPercentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    const size_t k = std::min(values.size() - 1, static_cast<size_t>(p * values.size()));
    std::nth_element(values.begin(), values.begin() + static_cast<long>(k), values.end());
    return values[k];
}

}  // namespace meridian

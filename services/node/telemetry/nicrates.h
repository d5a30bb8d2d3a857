// Turns NIC counter totals into per-second rates. A counter that went backwards
// (driver reload, port reset) yields no rate for that sample and sets countersReset;
// it is never shown as a huge number.
#pragma once

#include <map>
#include <string>

#include "core/nictypes.h"

namespace meridian {

class NicRateTracker {
public:
    NicSample update(const NicCounters &counters, int64_t sampleUnixMs);

private:
    struct Previous {
        NicCounters counters;
        int64_t unixMs = 0;
    };
    std::map<std::string, Previous> m_previous;
};

}  // namespace meridian

// Cloud offers held back after a lease of theirs was given back unused (its node never
// answered, was already held or was one of ours, or it never became ready): every lease
// is paid for from its first minute, and ordering again at once from a pool that just
// failed this way would pay for the same failure every few minutes. The hold ends on its
// own; while it lasts, each service's notes say which offer is held and why.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "placement.h"

namespace meridian {

class OfferHolds {
public:
    explicit OfferHolds(int64_t holdMs = 15 * 60'000) : m_holdMs(holdMs) {}

    // Holds `offerId` back from `steadyMs` (a monotonic clock's) for the hold's length.
    void hold(const std::string &offerId, const std::string &why, int64_t steadyMs);
    // The offers not held at `steadyMs`; a note for each one that is.
    std::vector<CloudOfferView> usable(const std::vector<CloudOfferView> &offers, int64_t steadyMs,
                                       std::vector<std::string> &notes) const;

private:
    struct Hold {
        int64_t untilSteadyMs = 0;
        std::string why;
    };
    int64_t m_holdMs;
    std::map<std::string, Hold> m_holds;
};

}  // namespace meridian

#include "offerholds.h"

#include <fmt/format.h>

namespace meridian {

void OfferHolds::hold(const std::string &offerId, const std::string &why, int64_t steadyMs)
{
    if (offerId.empty())
        return;
    m_holds[offerId] = {steadyMs + m_holdMs, why};
}

std::vector<CloudOfferView> OfferHolds::usable(const std::vector<CloudOfferView> &offers,
                                               int64_t steadyMs,
                                               std::vector<std::string> &notes) const
{
    std::vector<CloudOfferView> out;
    for (const CloudOfferView &offer : offers) {
        const auto held = m_holds.find(offer.offerId);
        if (held == m_holds.end() || held->second.untilSteadyMs <= steadyMs) {
            out.push_back(offer);
            continue;
        }
        const int64_t minutes = (held->second.untilSteadyMs - steadyMs + 59'999) / 60'000;
        notes.push_back(
            fmt::format("offer {} held back for {} more min: its last lease was "
                        "given back ({})",
                        offer.offerId, minutes, held->second.why));
    }
    return out;
}

}  // namespace meridian

// The daily shape of a service's demand: the arrival rate of each minute over the last
// few days, so capacity can be started before the hour that needed it yesterday comes
// back, and kept when it is about to. Customer-service inference rises and falls with
// the working day; one bad day does not make the shape (the median of the days is
// taken). Finished minutes can be kept elsewhere and restored, so a restart does not
// forget the days behind it.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace meridian {

// One minute of a service's demand: the arrival rates sampled in it, summed.
struct DemandMinute {
    int64_t index = 0;  // minutes since the epoch
    double sum = 0;
    int samples = 0;
};

class DailyProfile {
public:
    explicit DailyProfile(int days = 7) : m_days(days) {}

    // The arrival rate seen at `atMs` (samples within a minute are averaged). When it
    // opens a new minute, the one it closes (if it had samples) is returned, to keep.
    std::optional<DemandMinute> record(int64_t atMs, double arrivalRps);
    // Minutes kept from before, oldest first, into a profile that has recorded nothing
    // yet; ones older than the days it uses, and ones no recording could have made, are
    // dropped. False (and nothing restored) when it already holds minutes or the minutes
    // are out of order. Minutes after now must not be given: later samples would be
    // dropped as late until the clock passed them.
    bool restore(const std::vector<DemandMinute> &minutes);
    // How far back restored minutes matter, from `nowMs`: the first minute index to keep.
    int64_t keptFromIndex(int64_t nowMs) const;

    // The highest rate the earlier days had between this time of day and `horizonMs`
    // later, as the median over those days; nothing when no earlier day was recorded
    // at this time.
    std::optional<double> forecast(int64_t nowMs, int64_t horizonMs) const;
    // The median of the recorded minutes' rates within `windowMs` before `nowMs`: the
    // service's usual load, which a surge moves only once it has lasted half the window.
    // Nothing when no minute of the window was recorded.
    std::optional<double> usualRate(int64_t nowMs, int64_t windowMs) const;

private:
    const DemandMinute *minuteAt(int64_t index) const;
    void trim();

    int m_days;
    std::deque<DemandMinute> m_minutes;  // oldest first, consecutive, at most m_days + 1 days
};

}  // namespace meridian

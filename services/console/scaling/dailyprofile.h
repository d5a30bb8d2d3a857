// The daily shape of a service's demand: the arrival rate of each minute over the last
// few days, so capacity can be started before the hour that needed it yesterday comes
// back, and kept when it is about to. Customer-service inference rises and falls with
// the working day; one bad day does not make the shape (the median of the days is
// taken).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace meridian {

class DailyProfile {
public:
    explicit DailyProfile(int days = 7) : m_days(days) {}

    // The arrival rate seen at `atMs` (samples within a minute are averaged).
    void record(int64_t atMs, double arrivalRps);

    // The highest rate the earlier days had between this time of day and `horizonMs`
    // later, as the median over those days; nothing when no earlier day was recorded
    // at this time.
    std::optional<double> forecast(int64_t nowMs, int64_t horizonMs) const;

private:
    struct Minute {
        int64_t index = 0;  // minutes since the epoch
        double sum = 0;
        int samples = 0;
    };
    const Minute *minuteAt(int64_t index) const;

    int m_days;
    std::deque<Minute> m_minutes;  // oldest first, consecutive, at most m_days + 1 days
};

}  // namespace meridian

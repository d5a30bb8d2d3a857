#include "minutemisses.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace meridian {

int32_t MinuteMisses::with(int replicas) const
{
    if (replicas < fewest || byCount.empty())
        return requests;
    const auto k = static_cast<size_t>(replicas - fewest);
    return k < byCount.size() ? byCount[k] : byCount.back();
}

int MinuteMisses::enough() const
{
    if (byCount.empty())
        return fewest;
    const auto first = std::find(byCount.begin(), byCount.end(), byCount.back());
    return fewest + static_cast<int>(first - byCount.begin());
}

namespace {

// A minute's requests, after those of the minutes before it that warm the replicas up,
// with arrivals from the first of those.
struct MinuteWindow {
    std::vector<TraceRequest> requests;
    double minuteStartS = 0;
    int32_t measured = 0;    // the minute's own
    int warmUpReplicas = 0;  // what the minutes before needed
};

// The minute replayed through `replicas` warm ones, after its warm-up.
int32_t missesWith(const MinuteWindow &window, int replicas, const MinuteMissesOptions &options)
{
    if (replicas <= 0)
        return window.measured;
    double longestPrefillS = 0;
    for (const TraceRequest &r : window.requests)
        longestPrefillS =
            std::max(longestPrefillS, r.inputTokens / options.performance.prefillTokensPerSecond);
    // Past this every request is either answered or outside the objective.
    const double decidedS = window.minuteStartS + 60 + options.objectiveS + longestPrefillS + 1;
    MemorySource source(window.requests);
    // The minutes before served by what they needed; then the count is `replicas`, the
    // others finishing what they hold without taking more.
    const int warm = std::max(replicas, window.warmUpReplicas);
    ServingSim sim(source, options.performance, StartupTimes{}, warm, warm, options.objectiveS);
    sim.countFrom(window.minuteStartS);
    sim.runUntil(window.minuteStartS);
    sim.setDesired(replicas, ReleaseOrder::NewestFirst);
    while (sim.nowS() < decidedS && !sim.finished())
        sim.runUntil(std::min(decidedS, sim.nowS() + 10));
    const ServingSim::Totals totals = sim.finish();
    return window.measured - static_cast<int32_t>(totals.withinSlo);
}

MinuteMisses measure(const MinuteWindow &minute, const MinuteMissesOptions &options)
{
    MinuteMisses m;
    m.requests = minute.measured;
    if (m.requests == 0) {
        m.byCount = {0};
        return m;
    }
    const double rps = static_cast<double>(m.requests) / 60;
    const int guess =
        std::clamp(static_cast<int>(std::ceil(rps / options.replicaRps)), 1, options.mostReplicas);
    // Up from the guess until nothing more is kept, then down from it while some are.
    std::vector<int32_t> up{missesWith(minute, guess, options)};
    for (int r = guess + 1; up.back() > 0 && r <= options.mostReplicas; ++r) {
        const int32_t misses = missesWith(minute, r, options);
        if (misses >= up.back() && r > guess + 1 && up.back() == up[up.size() - 2])
            break;  // two more replicas kept none: the rest is prefill alone
        up.push_back(misses);
    }
    std::vector<int32_t> down;
    for (int r = guess - 1; r >= 1 && static_cast<int>(down.size()) < options.countsBelowGuess &&
                            (down.empty() ? up.front() : down.back()) < m.requests;
         --r)
        down.push_back(missesWith(minute, r, options));
    m.fewest = guess - static_cast<int>(down.size());
    m.byCount.assign(down.rbegin(), down.rend());
    m.byCount.insert(m.byCount.end(), up.begin(), up.end());
    // More replicas never keep fewer inside the objective than fewer do (a replay's
    // routing may say otherwise by a request or two).
    for (size_t k = 1; k < m.byCount.size(); ++k)
        m.byCount[k] = std::min(m.byCount[k], m.byCount[k - 1]);
    return m;
}

}  // namespace

std::vector<MinuteMisses> measureMinuteMisses(RequestSource &requests,
                                              const MinuteMissesOptions &options)
{
    std::vector<MinuteMisses> minutes;
    std::deque<std::vector<TraceRequest>> before;  // the warm-up minutes, oldest first
    std::vector<TraceRequest> current;
    const auto close = [&] {
        MinuteWindow window;
        for (const std::vector<TraceRequest> &earlier : before) {
            for (const TraceRequest &r : earlier)
                window.requests.push_back(r);
        }
        window.minuteStartS = 60.0 * static_cast<double>(before.size());
        window.measured = static_cast<int32_t>(current.size());
        for (size_t k = minutes.size() - before.size(); k < minutes.size(); ++k)
            window.warmUpReplicas = std::max(window.warmUpReplicas, minutes[k].enough());
        for (TraceRequest &r : window.requests)
            r.arrivalS -= 60.0 * static_cast<double>(minutes.size() - before.size());
        for (const TraceRequest &r : current) {
            window.requests.push_back(r);
            window.requests.back().arrivalS -=
                60.0 * static_cast<double>(minutes.size() - before.size());
        }
        minutes.push_back(measure(window, options));
        before.push_back(std::move(current));
        if (before.size() > static_cast<size_t>(options.warmUpMinutes))
            before.pop_front();
        current.clear();
    };
    requests.rewind();
    TraceRequest r;
    while (requests.next(r)) {
        const auto minute = static_cast<size_t>(r.arrivalS / 60);
        while (minutes.size() < minute)
            close();
        current.push_back(std::move(r));
    }
    if (!current.empty())
        close();
    return minutes;
}

}  // namespace meridian

#include "leaseplan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace meridian {

namespace {

constexpr int kHour = 60;

// When one replica (the k-th) serves: each minute either it serves (free while a paid
// hour runs; another hour at the end of one; a first hour, shortened by the start-up,
// when it is ordered) or the minute loses what the k-th replica keeps there (`kept`,
// priced at `missCost` each). State: the paid minutes left, 0 when no replica is there.
struct OneReplica {
    std::vector<bool> serves;
    int leases = 0;  // hours paid
};

OneReplica planOneReplica(const std::vector<double> &kept, double missCost, int startupMinutes)
{
    const size_t n = kept.size();
    constexpr int kStates = kHour + 1;
    const int firstHour = std::clamp(kHour - startupMinutes, 2, kHour);
    constexpr double kNone = std::numeric_limits<double>::infinity();
    std::vector<double> cost(kStates, kNone), next(kStates);
    cost[0] = 0;
    // The state each state of the next minute was reached from, to read the plan back.
    std::vector<int8_t> from(n * kStates, -1);
    for (size_t m = 0; m < n; ++m) {
        std::fill(next.begin(), next.end(), kNone);
        int8_t *reached = &from[m * kStates];
        const auto relax = [&](int to, double c, int fromState) {
            if (c < next[to]) {
                next[to] = c;
                reached[to] = static_cast<int8_t>(fromState);
            }
        };
        if (cost[0] != kNone) {
            relax(0, cost[0] + missCost * kept[m], 0);  // no replica this minute
            relax(firstHour - 1, cost[0] + 1, 0);       // ordered a start-up ahead: serves
        }
        for (int s = 1; s < kStates; ++s) {
            if (cost[s] == kNone)
                continue;
            relax(s - 1, cost[s], s);  // paid: it serves
            if (s == 1)
                relax(kHour, cost[s] + 1, s);  // its last paid minute: kept another hour
        }
        cost.swap(next);
    }
    OneReplica plan;
    plan.serves.assign(n, false);
    int state = static_cast<int>(std::min_element(cost.begin(), cost.end()) - cost.begin());
    for (size_t m = n; m-- > 0;) {
        const int previous = from[m * kStates + state];
        plan.serves[m] = !(previous == 0 && state == 0);
        plan.leases += (previous == 0 && state != 0) || (previous == 1 && state == kHour);
        state = previous;
    }
    return plan;
}

// What the k-th replica above the owned ones keeps in each minute, k = 1, 2, …: the
// steps of the lower convex hull of the minute's misses by replica count. A minute past
// its replicas' rate misses nearly all its requests until the last replica it needs
// (a cliff): taken step by step, the replicas below that one would keep nothing alone
// and never be planned. Along the hull each replica keeps no more than the one before,
// which is what planning them one at a time needs; the plan's misses are then counted
// on the measured misses, not the hull.
std::vector<std::vector<double>> keptByReplica(const std::vector<MinuteMisses> &minutes, int owned)
{
    int most = owned;
    for (const MinuteMisses &m : minutes)
        most = std::max(most, m.enough());
    std::vector<std::vector<double>> kept(static_cast<size_t>(most - owned),
                                          std::vector<double>(minutes.size(), 0.0));
    std::vector<int> hull;
    for (size_t m = 0; m < minutes.size(); ++m) {
        const MinuteMisses &minute = minutes[m];
        const int top = std::max(owned, minute.enough());
        const auto y = [&](int r) { return static_cast<double>(minute.with(r)); };
        hull.clear();
        for (int r = owned; r <= top; ++r) {
            // Drop the last vertex while it lies on or above the line to r.
            while (hull.size() >= 2) {
                const int a = hull[hull.size() - 2], b = hull.back();
                if ((y(b) - y(a)) * (r - a) < (y(r) - y(a)) * (b - a))
                    break;
                hull.pop_back();
            }
            hull.push_back(r);
        }
        for (size_t v = 1; v < hull.size(); ++v) {
            const int a = hull[v - 1], b = hull[v];
            const double step = (y(a) - y(b)) / (b - a);
            for (int k = a + 1; k <= b; ++k)
                kept[static_cast<size_t>(k - owned - 1)][m] = step;
        }
    }
    return kept;
}

LeasePlan planWithGains(const std::vector<MinuteMisses> &minutes,
                        const std::vector<std::vector<double>> &kept, double missCost,
                        const LeasePlanOptions &options)
{
    LeasePlan plan;
    plan.replicas.assign(minutes.size(), options.ownedReplicas);
    for (const std::vector<double> &replica : kept) {
        if (std::all_of(replica.begin(), replica.end(), [](double n) { return n <= 0; }))
            continue;  // a replica this high keeps nothing anywhere
        const OneReplica one = planOneReplica(replica, missCost, options.startupMinutes);
        plan.rentedReplicaHours += one.leases;
        for (size_t m = 0; m < minutes.size(); ++m)
            plan.replicas[m] += one.serves[m] ? 1 : 0;
    }
    for (size_t m = 0; m < minutes.size(); ++m)
        plan.misses += minutes[m].with(plan.replicas[m]);
    return plan;
}

}  // namespace

LeasePlan planLeases(const std::vector<MinuteMisses> &minutes, double missCost,
                     const LeasePlanOptions &options)
{
    return planWithGains(minutes, keptByReplica(minutes, options.ownedReplicas), missCost, options);
}

LeasePlan planLeasesWithin(const std::vector<MinuteMisses> &minutes, int64_t budget,
                           const LeasePlanOptions &options)
{
    // A miss worth two replica-hours is worth any replica: the plan misses only what no
    // count measured keeps. Cheaper misses, fewer replicas.
    const auto kept = keptByReplica(minutes, options.ownedReplicas);
    double low = 1e-7, high = 2.0;
    LeasePlan best = planWithGains(minutes, kept, high, options);
    if (best.misses > budget)
        return best;
    for (int i = 0; i < 30; ++i) {
        const double middle = std::sqrt(low * high);
        LeasePlan tried = planWithGains(minutes, kept, middle, options);
        if (tried.misses <= budget) {
            high = middle;
            best = std::move(tried);
        } else {
            low = middle;
        }
    }
    return best;
}

}  // namespace meridian

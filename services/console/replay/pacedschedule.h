// The cheapest replica schedule that changes at most a given number of times: what an
// autoscaler with perfect foresight could do under a limit on scaling actions, the
// yardstick for a policy held to a few actions a day.
#pragma once

#include <vector>

namespace meridian {

// Covers every minute's `need` (a schedule never has fewer replicas than a minute needs)
// with at most `maxChanges` changes of the replica count, at the fewest replica-minutes
// beyond `freeReplicas` (the owned ones, paid either way). Exact, by dynamic programming
// over segments; a need longer than three days is planned in equal blocks of minutes,
// each at its highest minute's need, so fourteen days plan in 5-minute blocks.
std::vector<int> pacedSchedule(const std::vector<int> &need, int freeReplicas, int maxChanges);

}  // namespace meridian

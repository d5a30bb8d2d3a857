// An evaluation's figures as the median over runs with different seeds (start-up times,
// which requests a scaled trace repeats, ServeGen's arrivals): one seed's luck moves an
// oracle's headroom by a fifth and a policy's attainment by tenths of a point.
#pragma once

#include <vector>

#include "evaluation.h"

namespace meridian {

// Each row's figures are the median of that row over the runs that have it (a row such as
// "meridian tuned" may be missing from some), each figure on its own; the share inside
// the objective also keeps its lowest and highest. The per-minute columns are the first
// run's. `runs` holds at least one run, all of one trace.
EvaluationRun medianOverSeeds(const std::vector<EvaluationRun> &runs);

}  // namespace meridian

// A service's demand kept over restarts: each pass's arrival rate goes into its daily shape,
// every finished minute is kept in the journal, and at the start the kept days are read
// back, so a restarted controller forecasts, and knows the service's usual load, at once.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "scalingjournal.h"
#include "servicestate.h"

namespace meridian {

// Records this pass's arrival rate; a finished minute is kept in the journal.
Status rememberDemand(ScalingServiceState &state, ScalingJournal &journal, double arrivalRps,
                      int64_t nowMs);
// Reads the kept days back into the service's daily shape where its policy reads them; ""
// or why they could not be read (the shape then starts again).
std::string restoreDemand(ScalingServiceState &state, ScalingJournal &journal, int64_t nowMs);

}  // namespace meridian

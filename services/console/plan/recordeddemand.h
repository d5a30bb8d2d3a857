// A service's demand as Meridian recorded it: the arrival rate its controller saw, from a
// history file (the console's) or a controller's own journal (meridian-scaled's). Each
// minute is its own where still kept (the daily forecast's days), else its hour's mean (kept
// 400 days); an hour nothing was recorded for is a gap, counted and filled with the mean
// of the same hour of the week where other weeks have it, else zero. Read-only; a file of
// another kind, a newer schema, or one that keeps no hours is refused by name.
#pragma once

#include <string>
#include <vector>

#include "demandseries.h"

namespace meridian {

struct RecordedDemand {
    DemandSeries series;      // from the first recorded hour
    int64_t firstMinute = 0;  // minutes since the epoch
    size_t gapMinutes = 0;    // filled, not recorded
};

Result<RecordedDemand> readRecordedDemand(const std::string &file, const std::string &service);

// The demand a plan is asked for: a demand file's (`service` empty: nothing filled), or what
// `service`'s controller recorded in `recordedIn`.
Result<RecordedDemand> readPlanDemand(const std::string &demandFile, const std::string &recordedIn,
                                      const std::string &service);

// The services the file keeps demand by the hour for, by name; refused as the reading is.
Result<std::vector<std::string>> recordedServices(const std::string &file);

}  // namespace meridian

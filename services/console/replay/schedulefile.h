// A replica schedule to replay (`meridian-sim evaluate --schedule FILE[:COLUMN]`): a CSV
// with a `minute` column from 0 and the replicas for each minute in a column named
// `replicas`, or in COLUMN (empty at the end: the schedule ends there). The `--minutes`
// output is such a file, so any row of a table
// (`replicas_oracle`, say) can be replayed and checked by anyone.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct ReplicaSchedule {
    std::string name;           // "FILE" or "FILE:COLUMN", for its row
    std::vector<int> replicas;  // by minute
};

Result<ReplicaSchedule> loadReplicaSchedule(const std::string &spec);

}  // namespace meridian

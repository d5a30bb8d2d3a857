// The normalised view of what the agent sees, as JSON: `meridian-agent collect --json`.
// Absent readings are JSON null, so "the tool said N/A" stays visible.
#pragma once

#include <string>

#include "collector.h"

namespace meridian {

std::string snapshotToJson(const NodeHardware &hardware, const CollectedSample &sample);

}  // namespace meridian

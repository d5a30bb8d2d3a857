// The Prometheus-compatible stores an inventory (or --prometheus) names, each started as
// a source of the fleet state: the console's and the watcher's one way to start them.
#pragma once

#include <memory>
#include <vector>

#include "core/result.h"
#include "fleetlink/inventoryfile.h"

namespace meridian {

class FleetState;
class PrometheusSource;

// Started in order; the first that does not start stops the rest, with its error.
Result<std::vector<std::unique_ptr<PrometheusSource>>> startStoreSources(
    FleetState &state, const std::vector<StoreSource> &stores);

}  // namespace meridian

// The simulated fleet as Prometheus file-based service discovery (file_sd_configs): one
// target group per node, all on the simulator's one metrics listener, told apart by
// `__metrics_path__` (/nodes/<id>/metrics). Prometheus and VictoriaMetrics both read it.
#pragma once

#include <string>
#include <vector>

#include "simfleet.h"

namespace meridian {

std::string scrapeTargetsJson(const std::vector<SimNodeView> &nodes,
                              const std::string &metricsAddress);

}  // namespace meridian

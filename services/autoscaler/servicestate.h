// What the controller keeps per inference service between passes. Private to the
// autoscaler's own files.
#pragma once

#include <vector>

#include "scalingcontroller.h"

namespace meridian {

struct ScalingController::ServiceState {
    InferenceService service;
    std::vector<ServiceSignals> signals;  // what the policy reads, oldest first
    ServiceScalingView view;
};

}  // namespace meridian

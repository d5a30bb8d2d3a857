// What the controller keeps per inference service between passes. Private to the
// autoscaler's own files.
#pragma once

#include <vector>

#include "scaling/dailyprofile.h"
#include "scalingcontroller.h"

namespace meridian {

struct ScalingController::ServiceState {
    InferenceService service;
    std::vector<ServiceSignals> signals;  // what the policy reads, oldest first
    // The daily shape of its demand, from this run's passes (a restart starts it again).
    DailyProfile profile;
    ServiceScalingView view;
};

}  // namespace meridian

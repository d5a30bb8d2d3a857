// A watcher's look at the scaling controller: meridian-scaled's /metrics read every few
// seconds on a thread of its own (on the injected Clock), each read handed on as the
// services' figures and whether the controller answered, for the alerts a shift acts on
// with no console open: a service over its objective, a plan waiting, a controller silent.
#pragma once

#include <functional>
#include <memory>

#include "alertrouting.h"
#include "core/periodicthread.h"
#include "scaledfigures.h"

namespace meridian {

class ControllerWatch {
public:
    using Seen = std::function<void(const ScaledFigures &, const ControllerObservation &)>;

    // `controller`: its base URL (or its /metrics URL), bearer token and CA, as a route's.
    ControllerWatch(AlertRoute controller, const Clock &clock = SystemClock::instance());
    ~ControllerWatch();  // stops reading; `seen` is not called after it returns

    // Reads at once and then every `interval`; `seen` runs on the watch's thread.
    void start(std::chrono::milliseconds interval, Seen seen);

    // One read, as start() makes it (for tests, and the first look).
    static std::pair<ScaledFigures, ControllerObservation> read(const AlertRoute &controller,
                                                                int timeoutMs);

private:
    AlertRoute m_controller;
    PeriodicThread m_thread;
};

}  // namespace meridian

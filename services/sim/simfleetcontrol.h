// What SimControl asks of a running simulated fleet: its nodes as they stand, faults in and
// out, a service's demand. SimFleet answers it; the service knows only this face of it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "faultplan.h"

namespace meridian {

struct SimNodeView {
    std::string nodeId;
    std::string dataCenter;
    std::string rack;
    std::string address;
    int cards = 0;
    std::vector<FaultKind> faults;
    bool down = false;
    bool hung = false;
};

class SimFleetControl {
public:
    virtual ~SimFleetControl() = default;
    virtual std::vector<SimNodeView> nodes() const = 0;
    // Injects a fault into one node or a whole data center; returns how many nodes it hit.
    virtual Result<int> inject(const FaultSpec &fault) = 0;
    virtual int clearFaults(const std::string &nodeId) = 0;  // empty: every node
    // A service's demand in requests/s from now on (nullopt: its quiet daily curve);
    // false when the simulator runs no such service.
    virtual bool setServiceDemand(const std::string &service,
                                  std::optional<double> requestsPerSecond) = 0;
};

}  // namespace meridian

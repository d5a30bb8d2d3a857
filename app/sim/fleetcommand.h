// `meridian-sim` itself: the whole simulated fleet on this machine, every node a
// NodeAgent on a port of its own, the capacity pool and SimControl on one more, until a
// signal or --quit-after.
#pragma once

#include <cstdint>
#include <string>

namespace meridian {

struct FleetCommand {
    int nodes = 0;  // 0: the default fleet
    int cards = 0;  // rounded up to whole nodes
    uint64_t seed = 42;
    int provisioningSeconds = 90;
    int sampleIntervalMs = 1000;  // how often each simulated agent samples its node
    double quitAfterSeconds = 0;
    std::string inventoryOut;
    std::string fabricOut;
    std::string scenario;
    std::string metricsListen;
    std::string targetsOut;
    std::string servicesFile;
};

int runFleet(const FleetCommand &command);

}  // namespace meridian

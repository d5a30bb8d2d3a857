// `meridian-sim fault` and `meridian-sim load`: a word to a running simulator through its
// SimControl service.
#pragma once

#include <string>

namespace meridian {

struct FaultCommand {
    std::string control;      // the simulator's control address
    std::string node;         // empty with clear: every node
    std::string dataCenter;   // every node of it
    std::string kind;         // a fault kind, or "clear"
    int card = -1;            // for card faults
    int durationSeconds = 0;  // 0: until cleared
    int delayMs = 0;          // for slow
};

struct LoadCommand {
    std::string control;
    std::string service;
    double rps = 0;
    bool daily = false;  // back to the quiet daily curve
};

int sendFault(const FaultCommand &command);
int sendLoad(const LoadCommand &command);

}  // namespace meridian

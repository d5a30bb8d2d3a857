// meridian-sim's command line: the fleet itself, or one of its subcommands, each with
// its options.
#pragma once

#include <optional>

#include "controlcommands.h"
#include "evaluatecommand.h"
#include "fleetcommand.h"
#include "httpdriver.h"
#include "replicaserver.h"
#include "robustnesscommand.h"
#include "tunecommand.h"

namespace meridian {

struct SimCommandLine {
    enum class Command { Fleet, Fault, Load, Evaluate, Tune, Robustness, ServeReplica, Drive };
    Command command = Command::Fleet;
    FleetCommand fleet;
    FaultCommand fault;
    LoadCommand load;
    EvaluateCommand evaluate;
    TuneCommand tune;
    RobustnessCommand robustness;
    ReplicaServerOptions replica;
    DriveOptions drive;
};

// The command line read; an exit status instead where the program should end at once
// (--help, a mistake: both said on the terminal).
std::optional<int> readCommandLine(int argc, char **argv, SimCommandLine &line);

}  // namespace meridian

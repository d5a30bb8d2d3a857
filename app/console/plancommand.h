// `meridian plan`: what a service should own, contract and rent, from its demand (a
// ServeGen rate file, a minute series, or what its controller recorded in a history file
// or journal), sized by its peak or by a replica's rate; with
// --backtest, planned from the first weeks and judged on the week after. Text for a
// manager, CSV or JSON for a script, a PDF for the budget; exit 2 on a mistake in the asking, 1 on
// a file that does not read.
#pragma once

#include <string>

namespace meridian {

struct PlanArguments {
    std::string demand;
    std::string recordedIn;  // a history file or a controller's journal
    std::string service;     // whose recorded demand
    double replicaRps = 0;   // > 0: an A100 replica's sustained rate, instead of a peak
    std::string costs;
    double peakCards = 64;  // A100 cards the busiest minute needs
    int cardsPerReplica = 4;
    double objectiveShare = 0.99;
    double leastOwnedBusy = 0.75;
    int weeks = 0;  // weeks planned from (0: every whole week; backtest: 1)
    bool backtest = false;
    bool confirm = false;  // the pick replayed request by request over the first week
    std::string format = "text";
    std::string output;
};

// `argc`/`argv` make the offscreen application a PDF's chart needs.
int runPlan(const PlanArguments &arguments, int argc, char **argv);

}  // namespace meridian

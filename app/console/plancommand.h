// `meridian plan`: what a service should own, contract and rent, from its demand (a
// ServeGen rate file or a recorded minute series), scaled to a service of this fleet; with
// --backtest, planned from the first weeks and judged on the week after. Text for a
// manager, CSV or JSON for a script; exit 2 on a mistake in the asking, 1 on a file that
// does not read.
#pragma once

#include <string>

namespace meridian {

struct PlanArguments {
    std::string demand;
    std::string costs;
    double peakCards = 64;  // A100 cards the busiest minute needs
    int cardsPerReplica = 4;
    double objectiveShare = 0.99;
    double leastOwnedBusy = 0.75;
    int weeks = 0;  // weeks planned from (0: every whole week; backtest: 1)
    bool backtest = false;
    std::string format = "text";
    std::string output;
};

int runPlan(const PlanArguments &arguments);

}  // namespace meridian

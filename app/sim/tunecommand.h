// `meridian-sim tune`: a service's policy file chosen from a replay of its own traffic.
// Each candidate (policysearch.h) is replayed over seeds; the table of them goes to
// stdout, cheapest first, with the one chosen and why, and the chosen file is written
// where asked, ready for the services file's `policy:`.
#pragma once

#include <string>

#include "evaluatecommand.h"

namespace meridian {

struct TuneCommand {
    // The trace, how it is scaled and replayed, and the base policy (--policy), as
    // evaluate reads them.
    EvaluateCommand replay;
    std::string out;            // the chosen policy file; empty: the table alone
    double insideShare = 0.99;  // of requests inside the objective
    double actionsPerDay = 20;  // at most
    // > 0: the surge cover is then chosen on this many surges of each kind laid over the
    // trace (step, ramp, burst, double burst, flash crowd), the cheapest whose worst tenth
    // keeps `surgeInside`.
    int shapes = 0;
    double surgeInside = 0.95;
};

int runTune(const TuneCommand &command);

}  // namespace meridian

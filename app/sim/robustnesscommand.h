// `meridian-sim robustness`: the scaling policy on a family of load shapes laid over real
// traces (steps, ramps, bursts, double bursts, flash crowds, quiet days; scaling/
// shapefamily.h), each autoscaler's median and worst decile per kind, the cases where a
// baseline keeps as many requests for as few card-hours, and the family's Pareto view.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace meridian {

struct RobustnessCommand {
    std::vector<std::string> traces;
    std::vector<std::string> kinds;  // empty: every kind
    int seeds = 20;
    uint64_t seed = 1;
    double baseCards = 64.0 / 3;
    double localCards = 32;
    double hours = 1;
    std::string policy;                 // the policy replayed as "meridian"; empty: the defaults
    std::vector<std::string> variants;  // more policy files, a row each ("meridian FILE-STEM")
    int jobs = 1;
    std::string csv;  // every case and row
};

int runRobustness(const RobustnessCommand &command);

}  // namespace meridian

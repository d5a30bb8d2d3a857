// Choosing a service's policy file from a replay of its own traffic. Two settings trade
// rented card-hours against the objective and the number of actions: the headroom
// (target occupancy) and how long a scale-down window holds the busiest moment; a third,
// the surge cover, buys attainment on sudden rises the traffic has not shown yet. The
// defaults are set for loads whose rises come hard and follow the load closely; a
// smoother service keeps its objective with less headroom, and one whose load swings all
// day needs hours of window to change its capacity less than 20 times a day. Which is
// which only its own traffic says, so each candidate is replayed on it (in virtual time,
// over seeds) and the cheapest that meets the goals is chosen.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "scaling/scalingpolicy.h"

namespace meridian {

struct PolicyGoals {
    double insideShare = 0.99;  // of requests inside the objective (the median over seeds)
    // ... and no seed more than this below it: a median just over the line with one seed
    // far under it is luck, not a policy to run on.
    double worstSeedSlack = 0.005;
    double actionsPerDay = 20;  // scale-ups and releases
};

// A candidate as its replays measured it (the median over seeds, each figure on its own).
struct CandidateFigures {
    ScalingPolicyConfig policy;
    double withinSloShare = 0;
    double lowestWithinSloShare = 0;  // the worst seed's
    double rentedCardHours = 0;
    double actionsPerDay = 0;
    int reversals = 0;
};

// The candidates, on top of `base`: scale-down windows of 10 minutes, 1 hour and 3 hours,
// each at target occupancies 0.8, 0.85, 0.9 and 1.0 (and 0.1 more while the daily shape
// forecasts, at most 1.0, as the defaults hold 0.8 and 0.9).
std::vector<ScalingPolicyConfig> candidatePolicies(const ScalingPolicyConfig &base);

// "window 3 h, occupancy 0.90": what the table and the chosen file's comment call it.
std::string candidateName(const ScalingPolicyConfig &policy);

struct PolicyChoice {
    size_t index = 0;  // into the candidates
    bool keepsObjective = false;
    bool meetsActions = false;
    std::string why;  // the choice in words, with what missed
};

// The cheapest candidate that keeps the objective (the median and the worst seed) and the
// actions goal; else the cheapest
// that keeps the objective (the actions goal said as missed, with the fewest actions
// any such candidate takes); else the one keeping the most requests inside it. Ties in
// card-hours go to fewer actions. `candidates` is not empty.
PolicyChoice choosePolicy(const std::vector<CandidateFigures> &candidates,
                          const PolicyGoals &goals);

// The surge covers tried once the rest of a policy is chosen: none, then ×1.5 to ×6 of
// the usual load.
std::vector<double> candidateCovers();

// A candidate with a surge cover, as its replays measured it: on the service's own traffic
// (what it costs every day: the median over seeds) and on surges laid over that traffic
// (what it buys, and what the surges themselves cost).
struct CoverFigures {
    double cover = 1;
    double rentedCardHours = 0;  // on the traffic as it is
    double withinSloShare = 0;   // on the traffic as it is
    double surgeMedianShare = 0;
    double surgeWorstDecileShare = 0;
    double surgeCardHoursMedian = 0;
    size_t candidate = 0;      // the base candidate it covers (an index into the candidates)
    double actionsPerDay = 0;  // on the traffic as it is
};

// The base candidates the family of surges is tried on: up to `count`, the cheapest that
// keep the objective on the traffic as it is, or (where fewer do) those keeping the most;
// one measured exactly as another already taken (a window the trace is too short to tell
// apart) is passed over.
// A tighter candidate can cost more on surges than it saves on the traffic as it is (its
// replicas saturate sooner and the queue orders more), so more than one is tried.
std::vector<size_t> familyFinalists(const std::vector<CandidateFigures> &candidates,
                                    const PolicyGoals &goals, size_t count = 3);

// Across every finalist and cover: the cheapest on the traffic as it is (then on the
// surges' median card-hours) whose worst decile of surges keeps `surgeInside` inside the
// objective and that keeps `insideShare` on the traffic as it is; else the one whose worst
// decile keeps the most (then the cheapest on the surges), said as missing the goal.
// `covers` is not empty.
PolicyChoice chooseCover(const std::vector<CoverFigures> &covers, double insideShare,
                         double surgeInside);

// The policy file for `chosen`: the base file's settings (`baseFile`; empty: none) with
// the chosen ones set, after a comment saying what the replay measured. It loads back
// with loadScalingPolicy.
Result<std::string> policyFileText(const CandidateFigures &chosen, const std::string &baseFile,
                                   const std::string &comment);

}  // namespace meridian

// The sizing question: of which card model, how many replicas a service should own, how
// many hold under a six-month contract, and how much to rent by the hour above them. Every
// mix is judged on the demand (mixjudge); the plan is the cheapest that keeps the objective
// with the owned cards busy enough to be worth buying, beside the front of mixes no other
// beats on both cost and requests inside the objective. The backtest plans from the first
// weeks of a series and judges the plan on the week after, beside the mix that would have
// been cheapest in hindsight and the simple rules a manager uses.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cardcosts.h"
#include "demandforecast.h"
#include "mixjudge.h"

namespace meridian {

struct PlanOptions {
    double objectiveShare = 0.99;         // of requests inside the objective
    double leastOwnedUtilization = 0.75;  // owned cards busier than this, or none owned
    std::vector<double> headrooms = {0.8, 0.9, 1.0, 1.1, 1.25, 1.5};
    double reservePercentile = 50;  // the cloud recommenders' rule: contract this percentile
    PlanModel model;
};

struct PlanCandidate {
    Mix mix;
    MixOutcome outcome;
};

struct MixSearch {
    std::vector<PlanCandidate> front;  // by cost: each keeps more inside than any cheaper
    std::optional<PlanCandidate> recommended;
    std::optional<PlanCandidate> bestKept;  // where none keeps the objective: the closest
    // Each card model's cheapest mix keeping the objective (and owned cards busy enough),
    // by the card costs' order; nullopt where none of that model does.
    std::vector<std::optional<PlanCandidate>> bestByCard;
    size_t judged = 0;  // mixes weighed
};

// `need`: A100 replicas a minute (at their sustained rate inside the objective).
MixSearch searchMixes(const std::vector<double> &need, const std::vector<CardCost> &cards,
                      const PlanOptions &options);

// What the plan says beyond its mix: a month's cost, and how soon bought cards pay for
// themselves against contracting as many (nullopt: never, or none bought).
double monthsIn(size_t minutes);  // a month is 730 hours
double monthlyCost(const MixOutcome &outcome, size_t minutes);
std::optional<double> paybackMonths(const CardCost &card);

// The simple rules, each at the card model that serves it cheapest on `need` while keeping
// the objective there: all hourly; own for the peak; contract the reserve percentile and
// rent the rest. Named "all hourly", "own the peak", "contract p50".
std::vector<std::pair<std::string, PlanCandidate>> simpleRules(const std::vector<double> &need,
                                                               const std::vector<CardCost> &cards,
                                                               const PlanOptions &options);

// A plan for the week after the demand seen: the forecast, every mix weighed on it, and
// the simple rules (each made from the last week seen) weighed on it beside them.
struct CapacityPlan {
    std::string service;
    size_t minutesSeen = 0;
    DemandForecast forecast;
    MixSearch search;
    std::vector<std::pair<std::string, PlanCandidate>> rules;
    std::vector<CardCost> cards;
    PlanOptions options;
};
CapacityPlan planCapacity(const std::vector<double> &need, const std::string &service,
                          const std::vector<CardCost> &cards, const PlanOptions &options);

struct BacktestRow {
    std::string name;  // "plan", "hindsight", or a rule's
    Mix mix;
    MixOutcome judged;  // on the week after
};

struct Backtest {
    DemandForecast forecast;
    double judgedWeekMiss = 0;  // how far the week after ran from the forecast, by hour
    std::vector<BacktestRow> rows;
    std::vector<std::string> unsure;  // the forecast's, and the week after's surprise
};

// Plans from the first `planWeeks` weeks of `need`, judges on the week after them. Empty
// rows where the series is shorter than that.
Backtest backtestPlan(const std::vector<double> &need, size_t planWeeks,
                      const std::vector<CardCost> &cards, const PlanOptions &options);

}  // namespace meridian

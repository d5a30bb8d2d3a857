// The plan as a manager reads it and a script takes it: text (the pick, its month's cost,
// payback, what the plan is unsure of, the front and the simple rules), CSV (one mix a
// row) and JSON (all of it). The backtest likewise: each row's mix and how it did on the
// week after.
#pragma once

#include <string>

#include "capacityplanner.h"
#include "replayconfirm.h"

namespace meridian {

// `confirmation`: the pick's request-level replay, where one was asked for.
std::string planText(const CapacityPlan &plan, const ReplayConfirmation *confirmation = nullptr);
std::string planCsv(const CapacityPlan &plan);
std::string planJson(const CapacityPlan &plan, const ReplayConfirmation *confirmation = nullptr);

std::string backtestText(const Backtest &backtest, const std::vector<CardCost> &cards,
                         const PlanModel &model);
std::string backtestCsv(const Backtest &backtest, const std::vector<CardCost> &cards,
                        const PlanModel &model);
std::string backtestJson(const Backtest &backtest, const std::vector<CardCost> &cards,
                         const PlanModel &model);

}  // namespace meridian

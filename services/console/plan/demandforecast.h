// The week the plan is made for, from the weeks recorded: each minute of the week as the
// mean of that minute over the weeks seen (the daily and weekly shape), times the trend
// of the weekly totals where three weeks or more show one (two say it, unapplied). It says how sure
// it is: how many weeks it rests on, the trend, and how far it missed the last week it could check
// (the forecast of that week from the weeks before it).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace meridian {

inline constexpr size_t kMinutesAWeek = 7 * 24 * 60;
// A trend under this a week is noise of a week's shape, not growth.
inline constexpr double kTrendWorthSaying = 0.05;
// A forecast missing a week by more than this (by hour) is not to be leaned on.
inline constexpr double kMissWorthSaying = 0.15;
// Two weeks make a line through any two points: a trend is carried from three on.
inline constexpr size_t kWeeksForATrend = 3;

struct DemandForecast {
    std::vector<double> week;  // a minute each
    int weeksSeen = 0;
    double weeklyGrowth = 0;             // of the totals, a share a week
    std::optional<double> lastWeekMiss;  // mean absolute error by hour, a share of the mean
    std::vector<std::string> unsure;     // what the plan cannot be sure of, in words
};

// From `history` (a minute each; whole weeks are used, the oldest partial one dropped).
// Empty `week` where not a whole week is there.
DemandForecast forecastNextWeek(const std::vector<double> &history);

// How far `actual` ran from `forecast`, by hour: the mean absolute error over the mean.
double hourlyMiss(const std::vector<double> &forecast, const std::vector<double> &actual);

}  // namespace meridian

#include "demandforecast.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace meridian {

namespace {

std::vector<double> weeklyShape(const std::vector<double> &history, size_t firstWeek, size_t weeks)
{
    std::vector<double> shape(kMinutesAWeek, 0);
    for (size_t w = firstWeek; w < firstWeek + weeks; ++w) {
        for (size_t m = 0; m < kMinutesAWeek; ++m)
            shape[m] += history[w * kMinutesAWeek + m] / static_cast<double>(weeks);
    }
    return shape;
}

// The least-squares growth of the weeks' totals, a share of their mean a week.
double growthOf(const std::vector<double> &totals)
{
    const double n = static_cast<double>(totals.size());
    if (totals.size() < 2)
        return 0;
    const double meanX = (n - 1) / 2;
    const double meanY = std::accumulate(totals.begin(), totals.end(), 0.0) / n;
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < totals.size(); ++i) {
        sxy += (static_cast<double>(i) - meanX) * (totals[i] - meanY);
        sxx += (static_cast<double>(i) - meanX) * (static_cast<double>(i) - meanX);
    }
    return meanY > 0 ? sxy / sxx / meanY : 0;
}

// The shape of `weeks` weeks from `firstWeek`, carried `ahead` weeks past their middle
// by their trend.
std::vector<double> projected(const std::vector<double> &history, size_t firstWeek, size_t weeks,
                              double &growth)
{
    std::vector<double> totals;
    for (size_t w = firstWeek; w < firstWeek + weeks; ++w)
        totals.push_back(
            std::accumulate(history.begin() + static_cast<long>(w * kMinutesAWeek),
                            history.begin() + static_cast<long>((w + 1) * kMinutesAWeek), 0.0));
    growth = growthOf(totals);
    std::vector<double> week = weeklyShape(history, firstWeek, weeks);
    // The mean week sits at the middle of those seen; the next is (weeks + 1) / 2 past it.
    const double carried = weeks >= kWeeksForATrend ? growth : 0;
    const double factor = std::max(0.0, 1 + carried * (static_cast<double>(weeks) + 1) / 2);
    for (double &v : week)
        v *= factor;
    return week;
}

}  // namespace

double hourlyMiss(const std::vector<double> &forecast, const std::vector<double> &actual)
{
    const size_t minutes = std::min(forecast.size(), actual.size());
    double error = 0, total = 0;
    for (size_t h = 0; h + 60 <= minutes; h += 60) {
        double f = 0, a = 0;
        for (size_t m = h; m < h + 60; ++m) {
            f += forecast[m];
            a += actual[m];
        }
        error += std::abs(f - a);
        total += a;
    }
    return total > 0 ? error / total : 0;
}

DemandForecast forecastNextWeek(const std::vector<double> &history)
{
    DemandForecast out;
    const size_t weeks = history.size() / kMinutesAWeek;
    out.weeksSeen = static_cast<int>(weeks);
    if (weeks == 0) {
        out.unsure.push_back("less than a week of demand: no plan can rest on it");
        return out;
    }
    // The newest whole weeks, the oldest partial one dropped.
    std::vector<double> whole(history.end() - static_cast<long>(weeks * kMinutesAWeek),
                              history.end());
    out.week = projected(whole, 0, weeks, out.weeklyGrowth);
    if (weeks == 1)
        out.unsure.push_back(
            "planned from one week: whether the next repeats its shape is not yet known");
    if (std::abs(out.weeklyGrowth) >= kTrendWorthSaying)
        out.unsure.push_back(fmt::format(
            "demand {} {:.0f}% a week{}", out.weeklyGrowth > 0 ? "grew" : "fell",
            std::abs(out.weeklyGrowth) * 100,
            weeks < kWeeksForATrend ? " (over two weeks: not carried into the plan)" : ""));
    if (weeks >= 2) {
        double growth = 0;
        const std::vector<double> checked = projected(whole, 0, weeks - 1, growth);
        out.lastWeekMiss = hourlyMiss(
            checked,
            std::vector<double>(whole.end() - static_cast<long>(kMinutesAWeek), whole.end()));
        if (*out.lastWeekMiss > kMissWorthSaying)
            out.unsure.push_back(
                fmt::format("the forecast missed the last week it could check by {:.0f}% an hour",
                            *out.lastWeekMiss * 100));
    }
    return out;
}

}  // namespace meridian

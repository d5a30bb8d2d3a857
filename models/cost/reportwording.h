// How every view of a report says its figures, so the window, its tiles, the PDF and the
// CSV never disagree: the period in one form, money and card-hours to the same
// decimals, and coverage (how much of what the fleet should have recorded the history
// holds) in words.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "cost/usagereport.h"

namespace meridian {

// "2026-12-01 – 2026-12-04 UTC (4 days)", the last day included; a period of other than
// whole days by its two moments, the end excluded.
QString reportPeriodText(const UsageReport &report);

// "1,234.56": money in CNY as the table shows it.
QString moneyText(double cny);
// "1,234.5": card-hours as the table shows them.
QString cardHoursText(double hours);
// "97.5%"; "–" when there is nothing to measure.
QString percentText(std::optional<double> percent);

// Why the period just before cannot be set against this one: it has no data, or the
// history covers much less of it (5 hours of a week against a whole week would read as
// a rise of thousands of percent). Empty when it can be.
QString notComparable(const UsageReport &report, const UsageReport *previous);
// Against the period of the same length just before: "▲ 12% on the previous period", or
// in points for a share ("▼ 1.5 points …"); `whyNot`, where notComparable gave one.
QString changeText(double now, double before, bool points, const QString &whyNot);

// Each bucket's coverage against the period's cards (a day on which half the fleet
// reported is half covered, even though each card that reported did so all day).
std::vector<std::optional<double>> bucketCoverage(const UsageTrend &trend, int expectedCards);

// Below this the report warns that its figures cover only part of the period.
constexpr double kFullCoveragePercent = 99.0;

// "Coverage 25.0% of the card-hours 6,000 cards give in 96 h; no data on 12-02, 12-03,
// 12-04"; empty when the period was covered in full.
QString coverageWarning(const UsageReport &report, const UsageTrend *trend);

}  // namespace meridian

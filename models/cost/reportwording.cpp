#include "reportwording.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QStringList>
#include <cmath>

namespace meridian {

namespace {

// The words' translation context ("ReportWording" in the .ts file), in a form lupdate
// reads.
struct ReportWording {
    Q_DECLARE_TR_FUNCTIONS(ReportWording)
};

}  // namespace

QString reportPeriodText(const UsageReport &report)
{
    const ReportPeriod period = reportPeriod(report);
    const QString from = QString::fromStdString(period.from);
    const QString to = QString::fromStdString(period.to);
    if (!period.wholeDays)
        return ReportWording::tr("%1 – %2 (the end excluded)").arg(from, to);
    if (period.days == 1)
        return ReportWording::tr("%1 UTC (1 day)").arg(from);
    return ReportWording::tr("%1 – %2 UTC (%3 days)")
        .arg(from, to, QLocale().toString(period.days));
}

QString moneyText(double cny)
{
    return QLocale().toString(cny, 'f', 2);
}

QString cardHoursText(double hours)
{
    return QLocale().toString(hours, 'f', 1);
}

QString percentText(std::optional<double> percent)
{
    return percent ? QStringLiteral("%1%").arg(QLocale().toString(*percent, 'f', 1))
                   : QStringLiteral("–");
}

QString notComparable(const UsageReport &report, const UsageReport *previous)
{
    if (!previous || previous->rows.empty())
        return ReportWording::tr("no data for the previous period");
    // Compared only where the history covers the previous period about as well as this one.
    constexpr double kCoveredAsWell = 0.8;
    const auto now = report.coveragePercent(report.total.cardHours, report.total.cards);
    const auto before = previous->coveragePercent(previous->total.cardHours, previous->total.cards);
    if (now && before && *before < kCoveredAsWell * *now)
        return ReportWording::tr(
                   "not compared: the history covers %1 of the previous period, "
                   "%2 of this one")
            .arg(percentText(before), percentText(now));
    return {};
}

QString changeText(double now, double before, bool points, const QString &whyNot)
{
    const QLocale locale;
    if (!whyNot.isEmpty())
        return whyNot;
    if (!points && before <= 0)
        return ReportWording::tr("none in the previous period");
    const double change = points ? now - before : 100 * (now - before) / before;
    const QString arrow = change > 0.05    ? QStringLiteral("▲")
                          : change < -0.05 ? QStringLiteral("▼")
                                           : QStringLiteral("=");
    return points ? ReportWording::tr("%1 %2 points on the previous period")
                        .arg(arrow, locale.toString(std::abs(change), 'f', 1))
                  : ReportWording::tr("%1 %2% on the previous period")
                        .arg(arrow, locale.toString(std::abs(change), 'f', 0));
}

std::vector<std::optional<double>> bucketCoverage(const UsageTrend &trend, int expectedCards)
{
    std::vector<std::optional<double>> out;
    for (const UsageReport &bucket : trend.buckets)
        out.push_back(bucket.coveredHours() > 0
                          ? bucket.coveragePercent(bucket.total.cardHours, expectedCards)
                          : std::nullopt);
    return out;
}

QString coverageWarning(const UsageReport &report, const UsageTrend *trend)
{
    const ReportRow &total = report.total;
    const std::optional<double> coverage = report.coveragePercent(total.cardHours, total.cards);
    if (!coverage || *coverage >= kFullCoveragePercent)
        return {};
    const QLocale locale;
    QString text = ReportWording::tr(
                       "Coverage %1 of the card-hours %2 cards give in %3 h: the figures cover "
                       "only what was recorded")
                       .arg(percentText(coverage), locale.toString(total.cards),
                            locale.toString(report.coveredHours(), 'f', 0));
    if (trend) {
        QStringList empty;
        const auto perBucket = bucketCoverage(*trend, total.cards);
        for (size_t i = 0; i < perBucket.size(); ++i) {
            if (perBucket[i] && *perBucket[i] <= 0)
                empty << QDateTime::fromSecsSinceEpoch(trend->buckets[i].fromUnixS, Qt::UTC)
                             .toString(QStringLiteral("MM-dd"));
        }
        if (!empty.isEmpty())
            text += ReportWording::tr("; no data on %1").arg(empty.join(QStringLiteral(", ")));
    }
    return text;
}

}  // namespace meridian

#include "reportcharts.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QDateTime>
#include <QFont>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QPen>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>

#include "models/cost/reporttablemodel.h"
#include "models/cost/reportwording.h"
#include "widgets/brokenline.h"

namespace meridian {

namespace {

const QColor kBusy(0x2c, 0x7f, 0xb8);
const QColor kIdle(0xfd, 0xae, 0x61);
const QColor kCost(0xd7, 0x30, 0x27);
const QColor kNoData(0xcc, 0xcc, 0xcc);

QChart *newChart(const QString &title)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

// Every label a whole date ("07-01"; a week by its Monday), read without counting from
// the first; past two weeks of them the labels turn to fit.
QStringList bucketLabels(const UsageTrend &trend)
{
    QStringList labels;
    const bool spansYears =
        !trend.buckets.empty() &&
        QDateTime::fromSecsSinceEpoch(trend.buckets.front().fromUnixS, Qt::UTC).date().year() !=
            QDateTime::fromSecsSinceEpoch(trend.buckets.back().fromUnixS, Qt::UTC).date().year();
    for (const UsageReport &bucket : trend.buckets) {
        const QDate day = QDateTime::fromSecsSinceEpoch(bucket.fromUnixS, Qt::UTC).date();
        labels << day.toString(spansYears ? QStringLiteral("yyyy-MM-dd") : QStringLiteral("MM-dd"));
    }
    return labels;
}

// Ticks at round figures (0, 500, 1000, not 0, 437, 874), with a decimal where the range
// is small enough that whole numbers would repeat.
void roundTicks(QValueAxis *axis)
{
    axis->applyNiceNumbers();
    axis->setLabelFormat(axis->max() - axis->min() < 10 ? QStringLiteral("%.1f")
                                                        : QStringLiteral("%.0f"));
}

// The buckets' dates along the bottom, small, in full, turned where they are many.
QBarCategoryAxis *dateCategories(const QStringList &labels)
{
    auto *categories = new QBarCategoryAxis;
    categories->append(labels);
    QFont small = categories->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    categories->setLabelsFont(small);
    categories->setTruncateLabels(false);  // a date in full, even where it is tight
    if (labels.size() > 14)
        categories->setLabelsAngle(labels.size() > 40 ? -90 : -60);
    return categories;
}

// Value per bucket on the right axis, broken where a bucket has no data.
void addValueLine(QChart *chart, const UsageTrend &trend,
                  const std::vector<std::optional<double>> &coverage, QAbstractAxis *categories,
                  QAbstractAxis *money)
{
    LinePoints value;
    for (size_t i = 0; i < trend.buckets.size(); ++i)
        value.push_back({static_cast<double>(i), coverage[i] && *coverage[i] > 0
                                                     ? std::optional(trend.buckets[i].total.costCny)
                                                     : std::nullopt});
    QPen pen(kCost);
    pen.setWidthF(2.5);
    addBrokenLine(chart, value, QObject::tr("Value (CNY, right)"), pen, categories, money);
}

// The largest card-hours and value of any bucket (at least 1 each, for an axis to have room).
std::pair<double, double> highestBucket(const UsageTrend &trend)
{
    double hours = 1;
    double cost = 1;
    for (const UsageReport &bucket : trend.buckets) {
        hours = std::max(hours, bucket.total.cardHours);
        cost = std::max(cost, bucket.total.costCny);
    }
    return {hours, cost};
}

}  // namespace

QChart *makeTrendChart(const UsageTrend &trend, int expectedCards)
{
    QChart *chart =
        newChart(trend.bucketSeconds == 86400 ? QObject::tr("Card-hours and value per day")
                                              : QObject::tr("Card-hours and value per week"));
    auto *busy = new QBarSet(QObject::tr("Busy card-hours"));
    auto *idle = new QBarSet(QObject::tr("Idle card-hours"));
    auto *missing = new QBarSet(QObject::tr("No data"));
    busy->setColor(kBusy);
    idle->setColor(kIdle);
    // Hatched, edge to edge of the plot, unlike any day's solid bar: a day without a
    // record is neither a quiet day nor a tall one.
    missing->setBrush(QBrush(kNoData.darker(130), Qt::BDiagPattern));
    busy->setBorderColor(kBusy);
    idle->setBorderColor(kIdle);
    missing->setBorderColor(Qt::transparent);
    const std::vector<std::optional<double>> coverage = bucketCoverage(trend, expectedCards);
    QStringList labels = bucketLabels(trend);
    const auto [highestHours, highestCost] = highestBucket(trend);
    for (size_t i = 0; i < trend.buckets.size(); ++i) {
        const UsageReport &bucket = trend.buckets[i];
        busy->append(bucket.total.busyCardHours);
        idle->append(bucket.total.idleCardHours());
        if (coverage[i] && *coverage[i] < kFullCoveragePercent)
            labels[static_cast<int>(i)] += QStringLiteral(" (%1)").arg(percentText(coverage[i]));
    }
    auto *bars = new QStackedBarSeries;
    bars->append(busy);
    bars->append(idle);
    bars->append(missing);
    chart->addSeries(bars);
    QBarCategoryAxis *categories = dateCategories(labels);
    auto *hours = new QValueAxis;
    hours->setRange(0, highestHours * 1.1);
    roundTicks(hours);
    // A day without a record is marked as such, not left to read as idle.
    for (size_t i = 0; i < trend.buckets.size(); ++i)
        missing->append(coverage[i] && *coverage[i] <= 0 ? hours->max() : 0);
    hours->setTitleText(QObject::tr("card-hours"));
    auto *money = new QValueAxis;
    // A little more headroom than the bars, so the line does not hide along their tops.
    money->setRange(0, highestCost * 1.25);
    roundTicks(money);
    money->setTitleText(QObject::tr("CNY"));
    chart->addAxis(categories, Qt::AlignBottom);
    chart->addAxis(hours, Qt::AlignLeft);
    chart->addAxis(money, Qt::AlignRight);
    bars->attachAxis(categories);
    bars->attachAxis(hours);
    addValueLine(chart, trend, coverage, categories, money);
    // The hatch alone is too fine to read in a legend's small square: outline it.
    for (QLegendMarker *marker : chart->legend()->markers(bars)) {
        if (marker->label() == missing->label())
            marker->setPen(QPen(kNoData.darker(130)));
    }
    return chart;
}

QChart *makeCostByGroupChart(const UsageReport &report)
{
    std::vector<const ReportRow *> rows;
    for (const ReportRow &row : report.rows)
        rows.push_back(&row);
    std::sort(rows.begin(), rows.end(),
              [](const ReportRow *a, const ReportRow *b) { return a->costCny > b->costCny; });
    // The twelve largest; a bar summing hundreds of nodes would dwarf them all.
    constexpr size_t kBars = 12;
    const QString groupName = ReportTableModel::groupHeader(report.group).toLower();
    QChart *chart =
        newChart(rows.size() > kBars ? QObject::tr("Value by %1, the %2 largest of %3 (CNY)")
                                           .arg(groupName)
                                           .arg(kBars)
                                           .arg(rows.size())
                                     : QObject::tr("Value by %1 (CNY)").arg(groupName));
    auto *busyCost = new QBarSet(QObject::tr("Busy"));
    auto *idleCost = new QBarSet(QObject::tr("Idle"));
    busyCost->setColor(kBusy);
    idleCost->setColor(kIdle);
    QStringList labels;
    double highest = 1;  // an empty report still gets an axis, not a range of NaN
    for (size_t i = 0; i < rows.size() && i < kBars; ++i) {
        const double idle = rows[i]->idleCostCny;
        highest = std::max(highest, rows[i]->costCny);
        busyCost->append(rows[i]->costCny - idle);
        idleCost->append(idle);
        labels << ReportTableModel::groupTitle(report.group, rows[i]->group);
    }
    // Largest on top: horizontal bars are drawn from the bottom up.
    auto reverse = [](QBarSet *set) {
        QList<qreal> values;
        for (int i = set->count() - 1; i >= 0; --i)
            values << set->at(i);
        set->remove(0, set->count());
        set->append(values);
    };
    reverse(busyCost);
    reverse(idleCost);
    std::reverse(labels.begin(), labels.end());
    auto *series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.6);
    series->append(busyCost);
    series->append(idleCost);
    chart->addSeries(series);
    auto *groups = new QBarCategoryAxis;
    groups->append(labels);
    // A name in full: Qt measures CJK labels short of their drawn width and would cut
    // "厦门" to "…".
    groups->setTruncateLabels(false);
    auto *money = new QValueAxis;
    chart->addAxis(groups, Qt::AlignLeft);
    chart->addAxis(money, Qt::AlignBottom);
    series->attachAxis(groups);
    series->attachAxis(money);
    money->setRange(0, highest * 1.05);
    roundTicks(money);
    return chart;
}

}  // namespace meridian

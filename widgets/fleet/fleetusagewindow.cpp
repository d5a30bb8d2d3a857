#include "fleetusagewindow.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <map>

#include "models/fleet/fleetusageloader.h"
#include "models/metricscale.h"
#include "widgets/brokenline.h"
#include "widgets/chartpalette.h"
#include "widgets/screenfit.h"
#include "widgets/timeticks.h"

namespace meridian {

namespace {

// Colour-blind-safe (Okabe–Ito), the fleet in black.
const QColor kLineColors[] = {QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9),
                              QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                              QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x72, 0xb2)};

// Each hour of the window, at its middle, with its mean where it has one.
LinePoints hourlyPoints(const std::vector<FleetUsagePoint> &hours, int64_t fromUnixS,
                        int64_t toUnixS)
{
    LinePoints points;
    auto it = hours.begin();
    for (int64_t hour = fromUnixS / 3600 * 3600; hour < toUnixS; hour += 3600) {
        while (it != hours.end() && it->hourUnixS < hour)
            ++it;
        const bool has = it != hours.end() && it->hourUnixS == hour;
        points.push_back({static_cast<double>((hour + 1800) * 1000),
                          has ? it->meanUtilizationPercent() : std::nullopt});
    }
    return points;
}

// The fleet's hours split in two: those in which every data center with data in the
// window reported, and those some of them missed (whose figure is only a part's, and
// would read as the fleet's if drawn alike). `missed`: each data center's missed hours.
std::pair<std::vector<FleetUsagePoint>, std::vector<FleetUsagePoint>> wholeAndPartHours(
    const FleetUsageSeries &series, std::map<std::string, int> &missed)
{
    std::vector<FleetUsagePoint> whole, part;
    for (const FleetUsagePoint &hour : series.fleet) {
        bool complete = true;
        for (const auto &[dc, hours] : series.dataCenters) {
            const bool reported =
                std::binary_search(hours.begin(), hours.end(), hour,
                                   [](const FleetUsagePoint &a, const FleetUsagePoint &b) {
                                       return a.hourUnixS < b.hourUnixS;
                                   });
            if (!hours.empty() && !reported) {
                complete = false;
                ++missed[dc];
            }
        }
        (complete ? whole : part).push_back(hour);
    }
    return {whole, part};
}

QString meanText(const std::vector<FleetUsagePoint> &hours)
{
    const auto mean = FleetUsageSeries::total(hours).meanUtilizationPercent();
    return mean ? QStringLiteral("%1%").arg(QLocale().toString(*mean, 'f', 1))
                : QStringLiteral("–");
}

}  // namespace

FleetUsageWindow::FleetUsageWindow(const QString &historyFile, const Clock &clock, QWidget *parent)
    : QWidget(parent, Qt::Window), m_clock(clock), m_loader(new FleetUsageLoader(historyFile, this))
{
    setWindowTitle(tr("Meridian — fleet utilisation"));
    m_range = new QComboBox(this);
    m_range->addItem(tr("Last 24 hours"), 86400);
    m_range->addItem(tr("Last 7 days"), 7 * 86400);
    auto *refresh = new QPushButton(tr("Refresh"), this);
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Utilisation, hour by hour, over"), this));
    controls->addWidget(m_range);
    controls->addWidget(refresh);
    controls->addStretch();
    m_chart = new QChartView(this);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_summary);
    connect(m_range, &QComboBox::currentIndexChanged, this, &FleetUsageWindow::refresh);
    connect(refresh, &QPushButton::clicked, this, &FleetUsageWindow::refresh);
    connect(m_loader, &FleetUsageLoader::loaded, this, &FleetUsageWindow::showLoaded);
    fitToScreen(this, QSize(1100, 560));
    this->refresh();
}

void FleetUsageWindow::setRangeSeconds(int seconds)
{
    m_range->setCurrentIndex(std::max(0, m_range->findData(seconds)));
}

void FleetUsageWindow::refresh()
{
    const int64_t now = m_clock.nowUnixMs() / 1000;
    m_summary->setText(tr("Reading the history file…"));
    m_loader->request(now - m_range->currentData().toInt(), now);
}

void FleetUsageWindow::showLoaded()
{
    const Result<FleetUsageSeries> &loaded = m_loader->latest().series;
    auto *chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    if (!loaded) {
        m_summary->setText(QString::fromStdString(loaded.error().message));
    } else {
        const FleetUsageSeries &series = loaded.value();
        // Ticks at midnights (dates) over days, on whole hours within one.
        auto *time = new QCategoryAxis;
        setTimeTicks(*time, series.fromUnixS * 1000, series.toUnixS * 1000, 8);
        auto *percent = new QValueAxis;
        percent->setRange(0, 100);
        percent->setLabelFormat(QStringLiteral("%.0f%%"));
        chart->addAxis(time, Qt::AlignBottom);
        chart->addAxis(percent, Qt::AlignLeft);
        const auto addLine = [&](const std::vector<FleetUsagePoint> &hours, const QString &name,
                                 const QPen &pen) {
            addBrokenLine(chart, hourlyPoints(hours, series.fromUnixS, series.toUnixS), name, pen,
                          time, percent);
        };
        QStringList figures{tr("Fleet %1").arg(meanText(series.fleet))};
        size_t colour = 0;
        for (const auto &[dc, hours] : series.dataCenters) {
            QPen pen(kLineColors[colour++ % std::size(kLineColors)]);
            pen.setWidthF(1.5);
            addLine(hours, dataCenterTitle(dc), pen);
            figures << QStringLiteral("%1 %2").arg(dataCenterTitle(dc), meanText(hours));
        }
        QPen fleetPen(palette().color(QPalette::Text));
        fleetPen.setWidthF(2.5);
        std::map<std::string, int> missed;
        const auto [whole, part] = wholeAndPartHours(series, missed);
        addLine(whole, tr("Fleet"), fleetPen);
        if (!part.empty()) {
            fleetPen.setStyle(Qt::DotLine);
            addLine(part, tr("Fleet, a data center without data"), fleetPen);
        }
        const int hoursAsked = static_cast<int>((series.toUnixS - series.fromUnixS + 3599) / 3600);
        m_summary->setText(summaryText(
            figures, std::max(0, hoursAsked - static_cast<int>(series.fleet.size())), missed));
    }
    applyPalette(chart, palette());
    QChart *old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
    Q_EMIT shown();
}

QString FleetUsageWindow::summaryText(const QStringList &means, int hoursWithoutData,
                                      const std::map<std::string, int> &missed) const
{
    QString text = tr("Mean utilisation: %1.").arg(means.join(QStringLiteral(" · ")));
    if (hoursWithoutData > 0)
        text += QLatin1Char(' ') +
                tr("Hours without data: %1 (gaps in the lines).").arg(hoursWithoutData);
    if (!missed.empty()) {
        QStringList holes;
        for (const auto &[dc, hours] : missed)
            holes << tr("%1 %n h", nullptr, hours).arg(dataCenterTitle(dc));
        text +=
            QLatin1Char(' ') + tr("The fleet's line is dotted where a data center had no data: %1.")
                                   .arg(holes.join(QStringLiteral(", ")));
    }
    return text;
}

QString FleetUsageWindow::summary() const
{
    return m_summary->text();
}

std::vector<std::pair<QString, int>> FleetUsageWindow::lines() const
{
    std::vector<std::pair<QString, int>> out;
    for (QAbstractSeries *series : m_chart->chart()->series()) {
        auto *line = qobject_cast<QLineSeries *>(series);
        if (!line)
            continue;
        if (!line->name().isEmpty() || out.empty())
            out.push_back({line->name(), 0});
        out.back().second += line->count();
    }
    return out;
}

}  // namespace meridian

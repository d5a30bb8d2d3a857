#include "scalingcharts.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "widgets/timeticks.h"

namespace meridian {

struct ScalingCharts::Charts {
    QChart *replicas = nullptr;
    QLineSeries *serving = nullptr;
    QLineSeries *starting = nullptr;
    QLineSeries *desired = nullptr;
    QCategoryAxis *replicasTime = nullptr;
    QValueAxis *replicasAxis = nullptr;

    QChart *load = nullptr;
    QLineSeries *arrivals = nullptr;
    QLineSeries *queueDelay = nullptr;  // what the objective is held to
    QLineSeries *ttft = nullptr;
    QLineSeries *objective = nullptr;
    QCategoryAxis *loadTime = nullptr;
    QValueAxis *arrivalsAxis = nullptr;
    QValueAxis *latencyAxis = nullptr;
};

namespace {

QLineSeries *series(QChart *chart, const QString &name, const QColor &colour, qreal width,
                    Qt::PenStyle style = Qt::SolidLine)
{
    auto *s = new QLineSeries;
    s->setName(name);
    QPen pen(colour);
    pen.setWidthF(width);
    pen.setStyle(style);
    s->setPen(pen);
    chart->addSeries(s);
    return s;
}

QChart *chart(const QString &title)
{
    auto *c = new QChart;
    c->setTitle(title);
    c->setMargins(QMargins(2, 2, 2, 2));
    c->setBackgroundRoundness(0);
    c->legend()->setAlignment(Qt::AlignBottom);
    return c;
}

// Ticks on whole minutes and hours (timeticks.h), set with each range.
QCategoryAxis *timeAxis(QChart *c)
{
    auto *axis = new QCategoryAxis;
    c->addAxis(axis, Qt::AlignBottom);
    return axis;
}

QValueAxis *valueAxis(QChart *c, Qt::Alignment side, const QString &title)
{
    auto *axis = new QValueAxis;
    axis->setLabelFormat(QStringLiteral("%.0f"));
    axis->setTitleText(title);
    axis->setTickCount(5);
    c->addAxis(axis, side);
    return axis;
}

// 0 to a round top with four even steps, labelled without repeated numbers.
void setNiceRange(QValueAxis *axis, double top)
{
    const double raw = std::max(top, 1.0) / 4;
    const double step = raw >= 1 ? std::ceil(raw) : std::ceil(raw * 4) / 4;  // whole or quarters
    axis->setRange(0, step * 4);
    axis->setTickCount(5);
    axis->setLabelFormat(step == std::floor(step) ? QStringLiteral("%.0f")
                                                  : QStringLiteral("%.2f"));
}

void attach(QLineSeries *s, QAbstractAxis *x, QAbstractAxis *y)
{
    s->attachAxis(x);
    s->attachAxis(y);
}

}  // namespace

ScalingCharts::~ScalingCharts() = default;

ScalingCharts::ScalingCharts(QWidget *parent)
    : QWidget(parent), m_charts(std::make_unique<Charts>())
{
    Charts &c = *m_charts;
    c.replicas = chart(tr("Replicas"));
    c.serving = series(c.replicas, tr("serving"), QColor(0x2e, 0x7d, 0x32), 2.0);
    c.starting = series(c.replicas, tr("starting"), QColor(0xef, 0x9a, 0x1a), 2.0);
    c.desired = series(c.replicas, tr("desired"), QColor(0x15, 0x65, 0xc0), 1.5, Qt::DashLine);
    c.replicasTime = timeAxis(c.replicas);
    c.replicasAxis = valueAxis(c.replicas, Qt::AlignLeft, tr("replicas"));
    for (QLineSeries *s : {c.serving, c.starting, c.desired})
        attach(s, c.replicasTime, c.replicasAxis);

    c.load = chart(tr("Load and latency"));
    c.arrivals = series(c.load, tr("arrivals (req/s)"), QColor(0x6a, 0x1b, 0x9a), 2.0);
    c.queueDelay = series(c.load, tr("queueing p95 (s)"), QColor(0xc6, 0x28, 0x28), 2.0);
    // Beside it, lighter: a long prompt's first token is late however many replicas serve.
    c.ttft = series(c.load, tr("TTFT p95 (s)"), QColor(0xef, 0x9a, 0x9a), 1.5);
    c.objective = series(c.load, tr("objective (s)"), QColor(0xc6, 0x28, 0x28), 1.0, Qt::DashLine);
    c.loadTime = timeAxis(c.load);
    c.arrivalsAxis = valueAxis(c.load, Qt::AlignLeft, tr("req/s"));
    c.latencyAxis = valueAxis(c.load, Qt::AlignRight, tr("seconds"));
    attach(c.arrivals, c.loadTime, c.arrivalsAxis);
    for (QLineSeries *s : {c.queueDelay, c.ttft, c.objective})
        attach(s, c.loadTime, c.latencyAxis);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QChart *ch : {c.replicas, c.load}) {
        auto *view = new QChartView(ch, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(220);
        layout->addWidget(view);
    }
}

void ScalingCharts::clear()
{
    Charts &c = *m_charts;
    for (QLineSeries *s :
         {c.serving, c.starting, c.desired, c.arrivals, c.queueDelay, c.ttft, c.objective})
        s->clear();
}

void ScalingCharts::show(const ServiceScalingView &service, int64_t viewAtMs)
{
    Charts &c = *m_charts;
    QList<QPointF> serving, starting, desired, arrivals, queueDelay, ttft;
    double maxReplicas = 4, maxArrivals = 1, maxLatency = service.service.objectiveP95Seconds * 1.5;
    const auto latency = [&](QList<QPointF> &into, double t, std::optional<double> seconds) {
        if (seconds) {
            into.append({t, *seconds});
            maxLatency = std::max(maxLatency, *seconds);
        }
    };
    for (const ServicePoint &p : service.history) {
        const auto t = static_cast<double>(p.atMs);
        serving.append({t, static_cast<double>(p.readyReplicas)});
        starting.append({t, static_cast<double>(p.startingReplicas)});
        desired.append({t, static_cast<double>(p.desiredReplicas)});
        arrivals.append({t, p.arrivalRps});
        latency(queueDelay, t, p.queueDelayP95Seconds);
        latency(ttft, t, p.ttftP95Seconds);
        maxReplicas = std::max({maxReplicas, 1.0 * p.readyReplicas, 1.0 * p.startingReplicas,
                                1.0 * p.desiredReplicas});
        maxArrivals = std::max(maxArrivals, p.arrivalRps);
    }
    c.serving->replace(serving);
    c.starting->replace(starting);
    c.desired->replace(desired);
    c.arrivals->replace(arrivals);
    c.queueDelay->replace(queueDelay);
    c.ttft->replace(ttft);
    const qint64 end = service.history.empty() ? viewAtMs : service.history.back().atMs;
    const qint64 start = std::min<qint64>(
        service.history.empty() ? end : service.history.front().atMs, end - 10 * 60'000);
    c.objective->replace({QPointF(static_cast<double>(start), service.service.objectiveP95Seconds),
                          QPointF(static_cast<double>(end), service.service.objectiveP95Seconds)});
    for (QCategoryAxis *axis : {c.replicasTime, c.loadTime})
        setTimeTicks(*axis, start, end, 5);
    setNiceRange(c.replicasAxis, maxReplicas * 1.15);
    setNiceRange(c.arrivalsAxis, maxArrivals * 1.15);
    setNiceRange(c.latencyAxis, maxLatency * 1.1);
}

}  // namespace meridian

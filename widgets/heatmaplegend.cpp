#include "heatmaplegend.h"

#include <QPainter>

namespace meridian {

namespace {

// The ends of each metric's ramp, as labels.
std::pair<QString, QString> rangeLabels(FleetMetric metric)
{
    switch (metric) {
    case FleetMetric::Utilization:
    case FleetMetric::Memory: return {QStringLiteral("0%"), QStringLiteral("100%")};
    case FleetMetric::Temperature: return {QStringLiteral("30 °C"), QStringLiteral("90 °C")};
    case FleetMetric::Power: return {QStringLiteral("0 W"), QStringLiteral("700 W")};
    case FleetMetric::Errors: return {QStringLiteral("0"), QStringLiteral("≥ 1")};
    }
    return {};
}

}  // namespace

HeatmapLegend::HeatmapLegend(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void HeatmapLegend::setMetric(FleetMetric metric)
{
    m_metric = metric;
    update();
}

QSize HeatmapLegend::sizeHint() const
{
    return {fontMetrics().horizontalAdvance(QStringLiteral("0000 °C")) * 2 + 360,
            fontMetrics().height() + 8};
}

void HeatmapLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const auto [low, high] = rangeLabels(m_metric);
    const QFontMetrics fm = fontMetrics();
    const int h = fm.height();
    const int y = (height() - h) / 2;
    int x = 0;
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(x, y, fm.horizontalAdvance(low) + 4, h), Qt::AlignVCenter, low);
    x += fm.horizontalAdvance(low) + 6;
    const int rampWidth = 140;
    QLinearGradient gradient(x, 0, x + rampWidth, 0);
    for (int i = 0; i <= 8; ++i)
        gradient.setColorAt(i / 8.0, metricColor(m_metric, static_cast<float>(i) / 8.0f));
    p.fillRect(QRect(x, y + 2, rampWidth, h - 4), gradient);
    x += rampWidth + 6;
    p.drawText(QRect(x, y, fm.horizontalAdvance(high) + 4, h), Qt::AlignVCenter, high);
    x += fm.horizontalAdvance(high) + 16;
    const auto swatch = [&](const QColor &color, bool hatched, const QString &label) {
        const QRect box(x, y + 2, h - 4, h - 4);
        if (hatched) {
            p.fillRect(box, color);
        } else {
            p.setPen(QPen(color, 1));
            p.drawRect(box.adjusted(0, 0, -1, -1));
            p.setPen(palette().color(QPalette::WindowText));
        }
        if (hatched)
            p.fillRect(box, QBrush(noReadingColor(), Qt::BDiagPattern));
        x += h;
        p.drawText(QRect(x, y, fm.horizontalAdvance(label) + 4, h), Qt::AlignVCenter, label);
        x += fm.horizontalAdvance(label) + 14;
    };
    swatch(noReadingColor(), false, tr("no reading"));
    swatch(staleColor(), true, tr("stale"));
}

}  // namespace meridian

#include "heatmaplegend.h"

#include <QCoreApplication>
#include <QPainter>

#include "models/cardhealth.h"

namespace meridian {

namespace {

// The ends of each metric's ramp, as labels.
std::pair<QString, QString> rangeLabels(FleetMetric metric)
{
    switch (metric) {
    case FleetMetric::Health:
        return {QCoreApplication::translate("meridian::HeatmapLegend", "idle"),
                QCoreApplication::translate("meridian::HeatmapLegend", "busy")};
    case FleetMetric::Utilization:
    case FleetMetric::Memory: return {QStringLiteral("0%"), QStringLiteral("100%")};
    case FleetMetric::Temperature: return {QStringLiteral("30 °C"), QStringLiteral("90 °C")};
    case FleetMetric::Power: return {QStringLiteral("0 W"), QStringLiteral("700 W")};
    case FleetMetric::Errors: return {QStringLiteral("0"), QStringLiteral("≥ 1")};
    }
    return {};
}

enum class Swatch { Filled, Hatched, Empty, Ring };

}  // namespace

HeatmapLegend::HeatmapLegend(QWidget *parent) : QWidget(parent)
{
    // Never what makes the window wider than a laptop: a narrow window cuts the key short.
    setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    setMinimumWidth(0);
    setToolTip(
        tr("Health shows the worst of each card: Xid, uncorrectable ECC, thermal or "
           "hardware throttling, an unreachable or stale agent; a ring round a node "
           "is a link down or flapping. Healthy cards show their utilisation."));
}

void HeatmapLegend::setMetric(FleetMetric metric)
{
    m_metric = metric;
    updateGeometry();
    update();
}

QSize HeatmapLegend::sizeHint() const
{
    return {drawKey(nullptr), fontMetrics().height() + 8};
}

void HeatmapLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    drawKey(&p);
}

int HeatmapLegend::drawKey(QPainter *p) const
{
    const auto [low, high] = rangeLabels(m_metric);
    const QFontMetrics fm = fontMetrics();
    const int h = fm.height();
    const int y = (height() - h) / 2;
    const QColor text = palette().color(QPalette::WindowText);
    int x = 0;
    const auto label = [&](const QString &words, int gapAfter) {
        if (p) {
            p->setPen(text);
            p->drawText(QRect(x, y, fm.horizontalAdvance(words) + 4, h), Qt::AlignVCenter, words);
        }
        x += fm.horizontalAdvance(words) + gapAfter;
    };
    const bool dark = palette().color(QPalette::Window).lightnessF() < 0.5f;
    label(low, 6);
    const int rampWidth = m_metric == FleetMetric::Health ? 80 : 140;
    if (p) {
        QLinearGradient gradient(x, 0, x + rampWidth, 0);
        for (int i = 0; i <= 8; ++i) {
            const float f = static_cast<float>(i) / 8.0f;
            gradient.setColorAt(i / 8.0, m_metric == FleetMetric::Health
                                             ? healthyColor(f, dark)
                                             : metricColor(m_metric, f));
        }
        p->fillRect(QRect(x, y + 2, rampWidth, h - 4), gradient);
    }
    x += rampWidth + 6;
    label(high, 16);
    const auto swatch = [&](const QColor &color, Swatch kind, const QString &words) {
        const QRect box(x, y + 2, h - 4, h - 4);
        if (p) {
            switch (kind) {
            case Swatch::Filled: p->fillRect(box, color); break;
            case Swatch::Hatched:
                p->fillRect(box, color);
                p->fillRect(box, QBrush(noReadingColor(), Qt::BDiagPattern));
                break;
            case Swatch::Empty:
            case Swatch::Ring:
                p->setPen(QPen(color, kind == Swatch::Ring ? 3 : 1));
                p->drawRect(box.adjusted(1, 1, -2, -2));
                break;
            }
        }
        x += h;
        label(words, 14);
    };
    if (m_metric == FleetMetric::Health) {
        for (CardCondition c : {CardCondition::Xid, CardCondition::Ecc, CardCondition::Thermal,
                                CardCondition::Throttled, CardCondition::Unreachable})
            swatch(conditionColor(c), Swatch::Filled, conditionName(c));
        swatch(linkFaultColor(), Swatch::Ring, tr("link fault"));
    }
    swatch(noReadingColor(), Swatch::Empty, tr("no reading"));
    swatch(staleColor(), Swatch::Hatched, tr("stale"));
    return x;
}

}  // namespace meridian

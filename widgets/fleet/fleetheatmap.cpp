#include "fleetheatmap.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QTimer>
#include <QToolTip>
#include <cmath>

#include "models/cardhealth.h"
#include "models/fleet/datacentersummarymodel.h"

namespace meridian {

namespace {

QString secondsAgo(int64_t ms)
{
    if (ms < 0)
        return QCoreApplication::translate("FleetHeatmap", "never");
    return QCoreApplication::translate("FleetHeatmap", "%1 s ago")
        .arg(static_cast<double>(ms) / 1000.0, 0, 'f', 1);
}

}  // namespace

QString FleetHeatmap::sectionTitle(const HeatmapGeometry::Section &section) const
{
    const QLocale locale;
    QString title = tr("%1 — %2 cards").arg(section.name, locale.toString(section.cards));
    int unreachable = 0;
    int stale = 0;
    for (NodeHandle n : section.nodes) {
        if (m_snapshot->nodeConnection[n] == ConnectionState::Unreachable)
            ++unreachable;
        else if (m_snapshot->nodeStale(n))
            ++stale;
    }
    // A dark data center must read as one incident at a glance.
    if (unreachable > 0)
        title += tr(" · %1 of %2 agents unreachable")
                     .arg(locale.toString(unreachable),
                          locale.toString(static_cast<int>(section.nodes.size())));
    if (stale > 0)
        title += tr(" · %1 stale").arg(locale.toString(stale));
    return title;
}

FleetHeatmap::FleetHeatmap(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void FleetHeatmap::setSnapshot(std::shared_ptr<const FleetSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    if (m_snapshot->layout->generation != m_layoutGeneration) {
        m_layoutGeneration = m_snapshot->layout->generation;
        relayout();
        recomputeMatches();
    } else if (m_filter.state != CardState::Any) {
        recomputeMatches();  // states change with every snapshot, identities do not
    }
    update();
}

void FleetHeatmap::setMetric(FleetMetric metric)
{
    m_metric = metric;
    update();
}

void FleetHeatmap::setFilter(const HeatmapFilter &filter)
{
    m_filter = filter;
    recomputeMatches();
    update();
}

void FleetHeatmap::recomputeMatches()
{
    if (!m_snapshot)
        return;
    const FleetLayout &l = *m_snapshot->layout;
    m_matches.assign(l.cardCount(), true);
    m_matching = static_cast<int>(l.cardCount());
    if (m_filter.empty())
        return;
    const QString &dc = m_filter.dataCenter;
    const QString needle = m_filter.search.trimmed();
    m_matching = 0;
    for (CardHandle c = 0; c < l.cardCount(); ++c) {
        const NodeHandle n = l.cardNode[c];
        bool match =
            (dc.isEmpty() || dataCenterTitle(l.nodeDataCenter[n]) == dc) &&
            (m_filter.vendor < 0 || static_cast<int>(l.cardVendor[c]) == m_filter.vendor) &&
            (m_filter.model.isEmpty() ||
             QString::fromStdString(l.cardModel[c]) == m_filter.model) &&
            stateMatches(c);
        if (match && !needle.isEmpty()) {
            const auto has = [&](const std::string &text) {
                return QString::fromStdString(text).contains(needle, Qt::CaseInsensitive);
            };
            match = has(l.nodeId[n]) || has(l.nodeHostname[n]) || has(l.nodeAddress[n]) ||
                    has(l.cardUuid[c]);
        }
        m_matches[c] = match;
        m_matching += match;
    }
}

bool FleetHeatmap::stateMatches(CardHandle c) const
{
    const FleetSnapshot &s = *m_snapshot;
    const NodeHandle n = s.layout->cardNode[c];
    const bool unreachable = s.nodeConnection[n] == ConnectionState::Unreachable;
    const bool stale = !unreachable && s.nodeStale(n);
    switch (m_filter.state) {
    case CardState::Any: return true;
    case CardState::Live: return !unreachable && !stale;
    case CardState::Idle:
        // Reporting and below the busy line: the cards a customer pays for and leaves idle.
        return !unreachable && !stale && s.utilization[c] < DataCenterSummaryModel::kBusyPercent;
    case CardState::Stale: return stale;
    case CardState::Unreachable: return unreachable;
    case CardState::WithErrors: return s.errors[c] > 0;
    case CardState::NoReading: return !unreachable && !stale && std::isnan(s.utilization[c]);
    case CardState::Faulty: return isCardFault(cardCondition(s, c)) || s.nodeLinkFault[n];
    }
    return true;
}

void FleetHeatmap::relayout()
{
    if (!m_snapshot)
        return;
    const QSize viewport = m_viewport.isValid() ? m_viewport : size();
    const int cell = fittingCellSize(*m_snapshot->layout, viewport);
    m_geometry = layoutHeatmap(*m_snapshot->layout, std::max(200, viewport.width()), cell);
    // Rack labels are laid out once here, not on every paint: text layout is what costs.
    m_rackLabels.clear();
    if (!m_geometry.rackLabelRects.empty() && m_geometry.rackLabelRects.front().height() > 0) {
        const QFontMetrics metrics(rackLabelFont());
        for (size_t r = 0; r < m_geometry.rackLabelRects.size(); ++r) {
            QStaticText label(metrics.elidedText(m_geometry.rackNames[r], Qt::ElideMiddle,
                                                 m_geometry.rackLabelRects[r].width()));
            label.setTextFormat(Qt::PlainText);
            label.prepare(QTransform(), rackLabelFont());
            m_rackLabels.push_back(std::move(label));
        }
    }
    updateGeometry();
    setMinimumHeight(m_geometry.size.height());
}

QFont FleetHeatmap::rackLabelFont() const
{
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.75);
    return small;
}

QSize FleetHeatmap::sizeHint() const
{
    return m_geometry.size.isValid() ? m_geometry.size : QSize(800, 600);
}

int FleetHeatmap::heightForWidth(int) const
{
    return m_geometry.size.height();
}

QScrollArea *FleetHeatmap::scrollArea() const
{
    return parentWidget() ? qobject_cast<QScrollArea *>(parentWidget()->parentWidget()) : nullptr;
}

void FleetHeatmap::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitViewport();
}

bool FleetHeatmap::eventFilter(QObject *watched, QEvent *event)
{
    // The viewport can shrink while we keep our height (it is our minimum): fit to it.
    if (event->type() == QEvent::Resize && scrollArea() && watched == scrollArea()->viewport())
        fitViewport();
    return QWidget::eventFilter(watched, event);
}

void FleetHeatmap::fitViewport()
{
    // Fit to the scroll area's viewport, not to ourselves (we grow to our content).
    QScrollArea *area = scrollArea();
    if (area && !m_watchingViewport) {
        area->viewport()->installEventFilter(this);
        m_watchingViewport = true;
    }
    const QSize viewport = area ? area->viewport()->size() : size();
    if (viewport != m_viewport) {
        m_viewport = viewport;
        relayout();
        revealSelected();  // the card someone chose stays in sight as the map re-flows
    }
}

void FleetHeatmap::revealSelected()
{
    // Once the scroll area has taken our new size, not before.
    QTimer::singleShot(0, this, [this] {
        QScrollArea *area = scrollArea();
        if (!area || !m_selected || *m_selected >= m_geometry.cardRects.size())
            return;
        const QPoint center = m_geometry.cardRects[*m_selected].center();
        area->ensureVisible(center.x(), center.y(), 40, 40);
    });
}

FleetHeatmap::CardLook FleetHeatmap::cardLook(CardHandle card, bool unreachable, bool stale,
                                              bool dark) const
{
    const FleetSnapshot &s = *m_snapshot;
    if (m_metric == FleetMetric::Health) {
        const CardCondition condition =
            cardCondition(s.cardFaults[card], unreachable, stale, s.utilization[card]);
        if (condition == CardCondition::Healthy)
            return {healthyColor(s.utilization[card] / 100.0f, dark), false};
        return {conditionColor(condition), condition == CardCondition::NoReading};
    }
    if (stale)
        return {staleColor(), false};
    const float value = metricValue(s, m_metric, card);
    if (std::isnan(value))
        return {noReadingColor(), true};
    return {metricColor(m_metric, metricFraction(m_metric, value)), false};
}

bool FleetHeatmap::darkBackground() const
{
    return palette().color(QPalette::Base).lightnessF() < 0.5f;
}

void FleetHeatmap::paintEvent(QPaintEvent *event)
{
    QPainter painter(this);
    const QRect exposed = event->rect();
    painter.fillRect(exposed, palette().color(QPalette::Base));
    if (!m_snapshot)
        return;
    paintLabels(painter, exposed);
    paintCards(painter, exposed);
    if (m_metric == FleetMetric::Health)
        paintFaultMarkers(painter, exposed);
}

void FleetHeatmap::paintLabels(QPainter &painter, const QRect &exposed) const
{
    QFont titleFont = font();
    titleFont.setBold(true);
    painter.setFont(titleFont);
    painter.setPen(palette().color(QPalette::Text));
    for (const auto &section : m_geometry.sections) {
        if (section.titleRect.intersects(exposed))
            painter.drawText(section.titleRect.adjusted(2, 0, 0, -4),
                             Qt::AlignLeft | Qt::AlignBottom, sectionTitle(section));
    }
    if (!m_rackLabels.empty()) {
        painter.setFont(rackLabelFont());
        painter.setPen(palette().color(QPalette::PlaceholderText));
        for (size_t r = 0; r < m_rackLabels.size(); ++r) {
            const QRect &strip = m_geometry.rackLabelRects[r];
            if (strip.intersects(exposed))
                painter.drawStaticText(strip.topLeft(), m_rackLabels[r]);
        }
    }
}

namespace {

// A card's cell: filled with its colour, or (no reading) an empty box unlike any colour a
// value can take; `outline`, where valid, edges a fill that would vanish on the background.
void drawCell(QPainter &painter, const QRect &r, const QColor &color, bool empty,
              const QColor &outline)
{
    if (empty) {
        painter.setPen(QPen(color, 1));
        painter.drawRect(r.adjusted(0, 0, -1, -1));
        return;
    }
    painter.fillRect(r, color);
    if (outline.isValid()) {
        painter.setPen(QPen(outline, 1));
        painter.drawRect(r.adjusted(0, 0, -1, -1));
    }
}

}  // namespace

void FleetHeatmap::paintCards(QPainter &painter, const QRect &exposed) const
{
    const FleetSnapshot &s = *m_snapshot;
    const FleetLayout &l = *s.layout;
    // Dark cells (0% on the ramp) on a dark background get an outline, or they vanish.
    const QColor background = palette().color(QPalette::Base);
    QColor outline = palette().color(QPalette::Text);
    outline.setAlphaF(0.35f);
    const float backgroundLightness = background.lightnessF();
    const bool outlineDark = m_geometry.cell >= 6;  // below that, cells touch: no room
    const bool health = m_metric == FleetMetric::Health;
    const bool dark = darkBackground();
    std::vector<bool> stale(l.nodeCount());
    std::vector<bool> unreachable(l.nodeCount());
    for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
        stale[n] = s.nodeStale(n);
        unreachable[n] = s.nodeConnection[n] == ConnectionState::Unreachable;
        // A node we never reached has no cards to draw: show its row as one dead bar.
        if (l.nodeCards[n].empty() && m_geometry.nodeRects[n].intersects(exposed)) {
            painter.fillRect(m_geometry.nodeRects[n], staleColor());
            painter.fillRect(m_geometry.nodeRects[n], QBrush(noReadingColor(), Qt::BDiagPattern));
        }
    }
    const QColor errorPen(0xd6, 0x27, 0x28);
    const bool filtering = !m_filter.empty();
    for (CardHandle c = 0; c < l.cardCount(); ++c) {
        const QRect &r = m_geometry.cardRects[c];
        if (!r.intersects(exposed))
            continue;
        const NodeHandle node = l.cardNode[c];
        const bool nodeStale = stale[node];
        CardLook look = cardLook(c, unreachable[node], nodeStale, dark);
        if (filtering && !m_matches[c])
            look.color.setAlphaF(0.15f);
        drawCell(painter, r, look.color, look.empty,
                 outlineDark && std::abs(look.color.lightnessF() - backgroundLightness) < 0.15f
                     ? outline
                     : QColor());
        if (nodeStale && m_geometry.cell >= 6)
            painter.fillRect(r, QBrush(noReadingColor(), Qt::BDiagPattern));
        if (!health && s.errors[c] > 0) {
            painter.setPen(QPen(errorPen, std::max(1, m_geometry.cell / 5)));
            painter.drawRect(r.adjusted(0, 0, -1, -1));
        }
        if (m_selected == c) {
            painter.setPen(QPen(palette().color(QPalette::Text), 2));
            painter.drawRect(r.adjusted(-2, -2, 1, 1));
        }
        if (filtering && m_matches[c] && !m_filter.search.isEmpty()) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 1));
            painter.drawRect(r.adjusted(-1, -1, 0, 0));
        }
    }
}

QRect FleetHeatmap::faultMarkerRect(CardHandle card) const
{
    // Larger than the cell, so one faulty card among 6,000 four-pixel cells (or 100,000
    // in a scrolled view) is still a spot the eye catches.
    const int grow = std::clamp((m_geometry.cell + 1) / 2, 2, 5);
    return m_geometry.cardRects[card].adjusted(-grow, -grow, grow, grow);
}

void FleetHeatmap::paintFaultMarkers(QPainter &painter, const QRect &exposed) const
{
    const FleetSnapshot &s = *m_snapshot;
    const FleetLayout &l = *s.layout;
    // The rim is the theme's text colour: dark on light backgrounds, light on dark ones.
    const QPen rim(palette().color(QPalette::Text), 1);
    const QPen badge(linkFaultColor(), std::max(2, m_geometry.cell / 3));
    for (NodeHandle n = 0; n < l.nodeCount(); ++n) {
        const QRect row = m_geometry.nodeRects[n].adjusted(-1, -1, 0, 0);
        if (s.nodeLinkFault[n] && row.adjusted(-3, -3, 3, 3).intersects(exposed)) {
            painter.setPen(badge);
            painter.drawRect(row);
        }
    }
    for (CardHandle c = 0; c < l.cardCount(); ++c) {
        if (!s.cardFaults[c])
            continue;
        const CardCondition condition = cardCondition(s, c);
        const QRect marker = faultMarkerRect(c);
        if (!isCardFault(condition) || !marker.intersects(exposed))
            continue;
        painter.fillRect(marker, conditionColor(condition));
        painter.setPen(rim);
        painter.drawRect(marker.adjusted(0, 0, -1, -1));
    }
}

QString FleetHeatmap::describeAt(const QPoint &point) const
{
    if (!m_snapshot)
        return {};
    const FleetSnapshot &s = *m_snapshot;
    const FleetLayout &l = *s.layout;
    const int card = cardAt(m_geometry, point);
    const int node = card >= 0 ? static_cast<int>(l.cardNode[static_cast<size_t>(card)])
                               : nodeAt(m_geometry, point);
    if (node < 0)
        return {};
    const auto n = static_cast<NodeHandle>(node);
    const QString name = l.nodeId[n].empty() ? QString::fromStdString(l.nodeAddress[n])
                                             : QString::fromStdString(l.nodeId[n]);
    QString text = QStringLiteral("<b>%1</b> · %2 · %3")
                       .arg(name.toHtmlEscaped(), dataCenterTitle(l.nodeDataCenter[n]),
                            QString::fromStdString(l.nodeAddress[n]));
    if (s.nodeConnection[n] == ConnectionState::Unreachable) {
        text += QStringLiteral("<br><font color=\"#d62728\">%1</font>")
                    .arg(tr("unreachable: %1")
                             .arg(QString::fromStdString(s.nodeError[n]).toHtmlEscaped()));
    } else if (s.nodeStale(n)) {
        text +=
            QStringLiteral("<br>") +
            tr("stale: last seen %1")
                .arg(secondsAgo(s.nodeLastSeenMs[n] ? s.takenUnixMs - s.nodeLastSeenMs[n] : -1));
    }
    const auto unwrapped = [](const QString &html) {
        // Tooltips wrap rich text narrowly; these lines read better whole.
        return QStringLiteral("<p style=\"white-space:pre\">%1</p>").arg(html);
    };
    if (card < 0)
        return unwrapped(text);
    const auto c = static_cast<CardHandle>(card);
    text +=
        QStringLiteral("<br>") + tr("card %1 · %2")
                                     .arg(l.cardIndex[c])
                                     .arg(QString::fromStdString(l.cardModel[c]).toHtmlEscaped());
    text += QStringLiteral("<br><small>%1</small>")
                .arg(QString::fromStdString(l.cardUuid[c]).toHtmlEscaped());
    QStringList readings;
    for (FleetMetric m : {FleetMetric::Utilization, FleetMetric::Memory, FleetMetric::Temperature,
                          FleetMetric::Power}) {
        readings << QStringLiteral("%1 %2").arg(metricName(m),
                                                formatMetric(m, metricValue(s, m, c)));
    }
    text += QStringLiteral("<br>") + readings.join(QStringLiteral(" · "));
    if (s.errors[c] > 0)
        text += QStringLiteral("<br><font color=\"#d62728\">%1</font>")
                    .arg(tr("%n error event(s)", nullptr, static_cast<int>(s.errors[c])));
    if (const CardCondition condition = cardCondition(s, c); isCardFault(condition))
        text += QStringLiteral("<br><font color=\"%1\">%2</font>")
                    .arg(conditionColor(condition).name(), conditionName(condition));
    return text;
}

bool FleetHeatmap::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = describeAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void FleetHeatmap::setSelectedCard(std::optional<CardHandle> card)
{
    m_selected = card;
    revealSelected();
    update();
}

void FleetHeatmap::mousePressEvent(QMouseEvent *event)
{
    const int card = cardAt(m_geometry, event->position().toPoint());
    if (card >= 0 && event->button() == Qt::LeftButton) {
        m_selected = static_cast<CardHandle>(card);  // under the mouse: in sight already
        update();
        Q_EMIT cardSelected(static_cast<CardHandle>(card));
    }
}

void FleetHeatmap::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int card = cardAt(m_geometry, event->position().toPoint());
    if (card >= 0)
        Q_EMIT cardActivated(static_cast<CardHandle>(card));
}

}  // namespace meridian

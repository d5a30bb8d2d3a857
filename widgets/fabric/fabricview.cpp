#include "fabricview.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <cmath>
#include <map>
#include <tuple>

namespace meridian {

namespace {

constexpr double kPickDistance = 6;  // px
constexpr double kSmallestLabelPoints = 6;

double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0;
    const QPointF q = a + t * ab;
    return std::hypot(p.x() - q.x(), p.y() - q.y());
}

}  // namespace

QColor fabricLoadColour(double loadShare)
{
    if (loadShare < 0)
        return QColor(150, 150, 150);
    const double v = std::clamp(loadShare, 0.0, 1.0);
    if (v < 0.5)
        return QColor::fromHsvF(static_cast<float>((120 - 60 * (v / 0.5)) / 360.0), 0.8f, 0.75f);
    if (v < 0.9)
        return QColor::fromHsvF(static_cast<float>((60 - 30 * ((v - 0.5) / 0.4)) / 360.0), 0.9f,
                                0.9f);
    return QColor(211, 47, 47);
}

FabricView::FabricView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(false);
    setMinimumSize(480, 320);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void FabricView::setScene(FabricScene scene)
{
    const bool grew = scene.bounds != m_scene.bounds;
    m_scene = std::move(scene);
    rebuildBatches();
    // Follow the fleet as it reports in, until the user zooms or pans.
    if (!m_userMoved && grew && !m_scene.bounds.isEmpty())
        fitAll();
    update();
}

void FabricView::setHighlighted(std::set<size_t> links)
{
    m_highlighted = std::move(links);
    rebuildBatches();
    update();
}

void FabricView::fitAll()
{
    if (m_scene.bounds.isEmpty() || width() <= 0 || height() <= 0)
        return;
    m_userMoved = false;  // and follow the data again
    m_zoom = std::min(width() / m_scene.bounds.width(), height() / m_scene.bounds.height());
    m_offset = QPointF(-m_scene.bounds.left() * m_zoom, -m_scene.bounds.top() * m_zoom) +
               QPointF((width() - m_scene.bounds.width() * m_zoom) / 2, 0);
    checkExpansion();
    update();
}

QPointF FabricView::toScreen(QPointF world) const
{
    return world * m_zoom + m_offset;
}

QPointF FabricView::toWorld(QPointF screen) const
{
    return (screen - m_offset) / m_zoom;
}

bool FabricView::racksExpanded() const
{
    return m_expanded;
}

void FabricView::checkExpansion()
{
    const bool expand = m_zoom >= FabricView::kExpandAtZoom;
    if (expand != m_expanded) {
        m_expanded = expand;
        Q_EMIT expandRacksChanged(expand);
    }
}

void FabricView::zoomBy(double factor, QPointF around)
{
    m_userMoved = true;
    const QPointF world = toWorld(around);
    m_zoom = std::clamp(m_zoom * factor, 0.02, 8.0);
    m_offset = around - world * m_zoom;
    checkExpansion();
    update();
}

void FabricView::panBy(QPointF pixels)
{
    m_userMoved = true;
    m_offset += pixels;
    update();
}

std::optional<size_t> FabricView::lineAt(QPointF pixel) const
{
    std::optional<size_t> best;
    double bestDistance = kPickDistance;
    for (size_t i = 0; i < m_scene.lines.size(); ++i) {
        const FabricSceneLine &l = m_scene.lines[i];
        const double d = distanceToSegment(pixel, toScreen(l.from), toScreen(l.to));
        if (d <= bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    return best;
}

std::optional<size_t> FabricView::boxAt(QPointF pixel) const
{
    const QPointF world = toWorld(pixel);
    for (size_t i = 0; i < m_scene.boxes.size(); ++i) {
        if (m_scene.boxes[i].rect.adjusted(-2, -2, 2, 2).contains(world))
            return i;
    }
    return std::nullopt;
}

namespace {

// The pen a line is drawn with: load quantised to a few colours, so thousands of lines
// go out in a handful of drawLines() calls.
struct PenKey {
    int colour = 0;  // 0..kLoadSteps-1: load bucket; kLoadSteps: unknown
    int kind = 0;    // 0 up, 1 stale, 2 down, 3 flapping
    bool uplink = false;
    bool operator<(const PenKey &o) const
    {
        return std::tie(colour, kind, uplink) < std::tie(o.colour, o.kind, o.uplink);
    }
};
constexpr int kLoadSteps = 12;

}  // namespace

QPen fabricTroublePen(LinkHealth health, bool stale)
{
    QPen pen;
    pen.setCosmetic(true);
    if (health == LinkHealth::Down) {
        pen.setColor(QColor(198, 40, 40));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(2.6);
    } else if (health == LinkHealth::Flapping) {
        pen.setColor(QColor(170, 0, 200));
        pen.setStyle(Qt::DashDotLine);
        pen.setWidthF(2.6);
    } else if (stale) {
        pen.setColor(QColor(160, 160, 160));
        pen.setStyle(Qt::DotLine);
    }
    return pen;
}

namespace {

QPen penFor(const PenKey &key)
{
    const double load = key.colour >= kLoadSteps ? -1 : (key.colour + 0.5) / kLoadSteps;
    QPen pen(fabricLoadColour(load));
    pen.setCosmetic(true);  // widths in pixels whatever the zoom
    // One-pixel lines take the raster engine's fast path; only trouble is drawn wider.
    pen.setWidth(key.uplink ? 2 : 1);
    if (key.kind != 0)
        pen = fabricTroublePen(key.kind == 2   ? LinkHealth::Down
                               : key.kind == 3 ? LinkHealth::Flapping
                                               : LinkHealth::Up,
                               key.kind == 1);
    return pen;
}

PenKey keyOf(const FabricSceneLine &l)
{
    PenKey key;
    key.colour = l.loadShare < 0
                     ? kLoadSteps
                     : std::min(kLoadSteps - 1, static_cast<int>(l.loadShare * kLoadSteps));
    key.kind = l.health == LinkHealth::Down       ? 2
               : l.health == LinkHealth::Flapping ? 3
               : l.stale                          ? 1
                                                  : 0;
    key.uplink = l.uplink;
    return key;
}

}  // namespace

void FabricView::rebuildBatches()
{
    m_batches.clear();
    m_lit.clear();
    m_badges.clear();
    std::map<PenKey, QVector<QLineF>> byPen;
    for (const FabricSceneLine &l : m_scene.lines) {
        const bool lit = (l.link != FabricSceneLine::kAggregate && m_highlighted.count(l.link)) ||
                         std::any_of(l.bundled.begin(), l.bundled.end(),
                                     [&](size_t b) { return m_highlighted.count(b) > 0; });
        // A selected link keeps its own look (a down link stays red and dashed), over a halo.
        byPen[keyOf(l)].append(QLineF(l.from, l.to));
        if (lit)
            m_lit.append(QLineF(l.from, l.to));
        const bool pfc = l.pfcPausesPerSecond >= kFabricPfcBadgeAt;
        const bool ecn = l.ecnPerSecond >= kFabricEcnBadgeAt;
        if (pfc || ecn)
            m_badges.push_back({l.from + (l.to - l.from) * 0.33, pfc, ecn});
    }
    // Healthy first, trouble last: a down link is never hidden under a busy one.
    for (auto &[key, lines] : byPen)
        m_batches.push_back({penFor(key), std::move(lines)});
    std::stable_sort(m_batches.begin(), m_batches.end(), [](const Batch &a, const Batch &b) {
        return a.pen.widthF() < b.pen.widthF();
    });
}

void FabricView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QTransform toView(m_zoom, 0, 0, m_zoom, m_offset.x(), m_offset.y());
    p.setTransform(toView);
    p.setRenderHint(QPainter::Antialiasing, false);
    if (!m_lit.isEmpty()) {
        QColor halo = palette().color(QPalette::Highlight);
        halo.setAlpha(120);
        QPen lit(halo);
        lit.setCosmetic(true);
        lit.setWidthF(9);
        lit.setCapStyle(Qt::RoundCap);
        p.setPen(lit);
        p.drawLines(m_lit);
    }
    for (const Batch &b : m_batches) {
        p.setPen(b.pen);
        p.drawLines(b.lines);
    }
    p.resetTransform();

    paintBadges(p);
    paintBoxes(p);
}

void FabricView::paintBadges(QPainter &p)
{
    // Badges: PFC (orange P) and ECN/CNP (blue E), a third of the way up from the host.
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.75));
    small.setBold(true);
    p.setFont(small);
    for (const Badge &badge : m_badges) {
        const QPointF at = toScreen(badge.at);
        if (!rect().adjusted(-20, -20, 20, 20).contains(at.toPoint()))
            continue;
        double dx = 0;
        for (const auto &[on, colour, letter] :
             {std::tuple{badge.pfc, QColor(239, 108, 0), QStringLiteral("P")},
              std::tuple{badge.ecn, QColor(21, 101, 192), QStringLiteral("E")}}) {
            if (!on)
                continue;
            const QRectF r(at.x() - 6 + dx, at.y() - 6, 12, 12);
            p.fillRect(r, colour);
            p.setPen(Qt::white);
            p.drawText(r, Qt::AlignCenter, letter);
            dx += 13;
        }
    }
}

void FabricView::paintBoxes(QPainter &p)
{
    // Boxes, then the labels that fit.
    p.setFont(font());
    const QRectF visible(toWorld(QPointF(0, 0)), toWorld(QPointF(width(), height())));
    const QColor text = palette().color(QPalette::Text);
    for (const FabricSceneBox &b : m_scene.boxes) {
        if (!visible.intersects(b.rect))
            continue;
        const QRectF r(toScreen(b.rect.topLeft()), toScreen(b.rect.bottomRight()));
        switch (b.kind) {
        case FabricSceneBox::Kind::RackLabel:
        case FabricSceneBox::Kind::LeafLabel:
            drawLabel(p, r, b.label, palette().color(QPalette::PlaceholderText), Qt::AlignTop,
                      false, true, b.shortLabel);
            continue;
        case FabricSceneBox::Kind::PodLabel:
            drawLabel(p, r, b.label, text, Qt::AlignBottom, true);
            continue;
        case FabricSceneBox::Kind::HostGroup:
            // A leaf's hosts: grey, or the colour of the worst trouble among their links.
            p.fillRect(r, b.health == LinkHealth::Up ? QColor(176, 190, 197)
                                                     : fabricTroublePen(b.health, false).color());
            drawLabel(p, r, b.label, b.health == LinkHealth::Up ? QColor(Qt::black) : Qt::white,
                      Qt::AlignVCenter, false, true, b.shortLabel);
            continue;
        default: break;
        }
        const QColor fill = b.kind == FabricSceneBox::Kind::Spine  ? QColor(69, 90, 100)
                            : b.kind == FabricSceneBox::Kind::Leaf ? QColor(96, 125, 139)
                                                                   : QColor(176, 190, 197);
        p.fillRect(r, fill);
        if (r.width() > 10 && !b.label.isEmpty())
            drawLabel(p, r, b.label,
                      b.kind == FabricSceneBox::Kind::Spine || b.kind == FabricSceneBox::Kind::Leaf
                          ? QColor(Qt::white)
                          : text,
                      Qt::AlignVCenter, false, false);
    }
}

void FabricView::drawLabel(QPainter &p, const QRectF &r, const QString &label, const QColor &colour,
                           Qt::Alignment vertical, bool bold, bool mayTurn,
                           const QString &shortLabel) const
{
    if (!shortLabel.isEmpty()) {
        // The whole name where it reads, across or upright; else the short one across.
        const QFontMetricsF metrics(font());
        const bool across = metrics.horizontalAdvance(label) + 4 <= r.width();
        const bool upright =
            mayTurn && r.height() > r.width() &&
            font().pointSizeF() * r.width() / (metrics.height() + 1) >= kSmallestLabelPoints;
        if (!across && !upright) {
            drawLabel(p, r, shortLabel, colour, vertical, bold, false);
            return;
        }
    }
    QFont labelFont = font();
    labelFont.setBold(bold);
    const QFontMetricsF metrics(labelFont);
    if (r.height() < metrics.height() * 0.7 && r.width() < metrics.height() * 0.7)
        return;
    const double needed = metrics.horizontalAdvance(label) + 4;
    // Across if it fits (set smaller down to a readable size); upright in a tall, narrow
    // rect (a leaf of a fitted data center); else it waits for a zoom.
    if (needed <= r.width() || (!mayTurn || r.height() <= r.width())) {
        if (needed > r.width())
            labelFont.setPointSizeF(font().pointSizeF() * r.width() / needed);
        if (labelFont.pointSizeF() < kSmallestLabelPoints || r.height() < metrics.height() * 0.7)
            return;
        p.setFont(labelFont);
        p.setPen(colour);
        p.drawText(r, Qt::AlignHCenter | vertical, label);
        p.setFont(font());
        return;
    }
    // Upright, in type as large as the rect's width allows, down to a readable size.
    labelFont.setPointSizeF(
        std::min(font().pointSizeF(), font().pointSizeF() * r.width() / (metrics.height() + 1)));
    if (labelFont.pointSizeF() < kSmallestLabelPoints)
        return;
    const QFontMetricsF turnedMetrics(labelFont);
    p.save();
    p.setFont(labelFont);
    p.setPen(colour);
    // Turned a quarter anticlockwise, reading upwards; the rect's top is where it ends.
    p.translate(r.center());
    p.rotate(-90);
    const QRectF turned(-r.height() / 2, -r.width() / 2, r.height(), r.width());
    const Qt::Alignment along = vertical == Qt::AlignTop      ? Qt::AlignRight
                                : vertical == Qt::AlignBottom ? Qt::AlignLeft
                                                              : Qt::AlignHCenter;
    p.drawText(turned, along | Qt::AlignVCenter,
               turnedMetrics.elidedText(label, Qt::ElideRight, turned.width() - 2));
    p.restore();
}

void FabricView::centerOn(QPointF world, double zoom)
{
    m_userMoved = true;
    m_zoom = std::clamp(zoom, 0.02, 8.0);
    m_offset = QPointF(width() / 2.0, height() / 2.0) - world * m_zoom;
    checkExpansion();
    update();
}

void FabricView::wheelEvent(QWheelEvent *event)
{
    m_userMoved = true;
    const double steps = event->angleDelta().y() / 120.0;
    zoomBy(std::pow(1.25, steps), event->position());
    event->accept();
}

void FabricView::mousePressEvent(QMouseEvent *event)
{
    m_pressAt = event->pos();
    m_lastDrag = event->pos();
    m_dragging = true;
}

void FabricView::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_dragging)
        return;
    m_userMoved = true;
    panBy(event->pos() - m_lastDrag);
    m_lastDrag = event->pos();
}

void FabricView::mouseReleaseEvent(QMouseEvent *event)
{
    m_dragging = false;
    if ((event->pos() - m_pressAt).manhattanLength() > 4)
        return;  // a drag, not a click
    if (const auto box = boxAt(event->position()))
        Q_EMIT boxClicked(*box);
    else if (const auto line = lineAt(event->position()))
        Q_EMIT lineClicked(*line);
}

void FabricView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (!m_userMoved && !m_scene.bounds.isEmpty())
        fitAll();
    Q_EMIT resized();
}

}  // namespace meridian

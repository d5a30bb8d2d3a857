#include "fabricview.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <cmath>

namespace meridian {

namespace {

constexpr double kExpandAtZoom = 0.6;  // a host box is ~8 px wide on screen
constexpr double kPfcBadgeAt = 500;    // pause frames/s on a link
constexpr double kEcnBadgeAt = 5000;   // ECN marks + CNPs/s: a congested link
constexpr double kPickDistance = 6;    // px

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
    // Follow the fleet as it reports in, until the user zooms or pans.
    if (!m_userMoved && grew && !m_scene.bounds.isEmpty())
        fitAll();
    update();
}

void FabricView::setHighlighted(std::set<size_t> links)
{
    m_highlighted = std::move(links);
    update();
}

void FabricView::fitAll()
{
    if (m_scene.bounds.isEmpty() || width() <= 0 || height() <= 0)
        return;
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
    const bool expand = m_zoom >= kExpandAtZoom;
    if (expand != m_expanded) {
        m_expanded = expand;
        Q_EMIT expandRacksChanged(expand);
    }
}

void FabricView::zoomBy(double factor, QPointF around)
{
    const QPointF world = toWorld(around);
    m_zoom = std::clamp(m_zoom * factor, 0.02, 8.0);
    m_offset = around - world * m_zoom;
    checkExpansion();
    update();
}

void FabricView::panBy(QPointF pixels)
{
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

void FabricView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QRectF visible = QRectF(toWorld(QPointF(0, 0)), toWorld(QPointF(width(), height())));
    const QColor text = palette().color(QPalette::Text);
    const auto drawLine = [&](const FabricSceneLine &l, bool highlighted) {
        if (!visible.intersects(QRectF(l.from, l.to).normalized().adjusted(-1, -1, 1, 1)))
            return;  // off screen: at 6,000 links most are, zoomed in
        QPen pen(fabricLoadColour(l.loadShare));
        pen.setWidthF(l.uplink ? 1.6 : 1.2);
        if (l.stale) {
            pen.setColor(QColor(160, 160, 160));
            pen.setStyle(Qt::DotLine);
        }
        if (l.health == LinkHealth::Down) {
            pen.setColor(QColor(198, 40, 40));
            pen.setStyle(Qt::DashLine);
            pen.setWidthF(2.6);
        } else if (l.health == LinkHealth::Flapping) {
            pen.setColor(QColor(170, 0, 200));
            pen.setStyle(Qt::DashDotLine);
            pen.setWidthF(2.6);
        }
        if (highlighted) {
            pen.setWidthF(4);
            pen.setStyle(Qt::SolidLine);
            pen.setColor(QColor(21, 101, 192));
        }
        p.setPen(pen);
        p.drawLine(toScreen(l.from), toScreen(l.to));
    };
    p.setRenderHint(QPainter::Antialiasing, false);
    for (size_t i = 0; i < m_scene.lines.size(); ++i) {
        const FabricSceneLine &l = m_scene.lines[i];
        const bool lit = (l.link != FabricSceneLine::kAggregate && m_highlighted.count(l.link)) ||
                         std::any_of(l.bundled.begin(), l.bundled.end(),
                                     [&](size_t b) { return m_highlighted.count(b) > 0; });
        if (!lit)
            drawLine(l, false);
    }
    for (const FabricSceneLine &l : m_scene.lines) {
        const bool lit = (l.link != FabricSceneLine::kAggregate && m_highlighted.count(l.link)) ||
                         std::any_of(l.bundled.begin(), l.bundled.end(),
                                     [&](size_t b) { return m_highlighted.count(b) > 0; });
        if (lit)
            drawLine(l, true);
    }
    // Badges: PFC (orange P) and ECN/CNP (blue E), a third of the way up from the host.
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.75));
    small.setBold(true);
    p.setFont(small);
    for (const FabricSceneLine &l : m_scene.lines) {
        const bool pfc = l.pfcPausesPerSecond >= kPfcBadgeAt;
        const bool ecn = l.ecnPerSecond >= kEcnBadgeAt;
        if (!pfc && !ecn)
            continue;
        const QPointF at = toScreen(l.from + (l.to - l.from) * 0.33);
        if (!rect().contains(at.toPoint()))
            continue;
        double dx = 0;
        for (const auto &[on, colour, letter] :
             {std::tuple{pfc, QColor(239, 108, 0), QStringLiteral("P")},
              std::tuple{ecn, QColor(21, 101, 192), QStringLiteral("E")}}) {
            if (!on)
                continue;
            const QRectF badge(at.x() - 6 + dx, at.y() - 6, 12, 12);
            p.fillRect(badge, colour);
            p.setPen(Qt::white);
            p.drawText(badge, Qt::AlignCenter, letter);
            dx += 13;
        }
    }
    // Boxes and their labels.
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setFont(font());
    for (const FabricSceneBox &b : m_scene.boxes) {
        if (!visible.intersects(b.rect))
            continue;
        const QRectF r(toScreen(b.rect.topLeft()), toScreen(b.rect.bottomRight()));
        QColor fill = b.kind == FabricSceneBox::Kind::Spine  ? QColor(69, 90, 100)
                      : b.kind == FabricSceneBox::Kind::Leaf ? QColor(96, 125, 139)
                                                             : QColor(176, 190, 197);
        p.setPen(QPen(fill.darker(130), 1));
        p.setBrush(fill);
        p.drawRoundedRect(r, 3, 3);
        const QString label = b.label;
        const QFontMetricsF metrics(p.font());
        if (metrics.horizontalAdvance(label) + 4 <= r.width()) {
            p.setPen(b.kind == FabricSceneBox::Kind::Spine || b.kind == FabricSceneBox::Kind::Leaf
                         ? QColor(Qt::white)
                         : text);
            p.drawText(r, Qt::AlignCenter, label);
        }
    }
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
}

}  // namespace meridian

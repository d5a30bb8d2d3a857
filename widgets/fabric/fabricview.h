// One data center's fabric, drawn from a FabricScene: pans by dragging, zooms with the
// wheel around the cursor, opens racks into hosts past a zoom level, and says which line
// or box was clicked. Links are coloured by load; down links are red and dashed,
// flapping ones magenta; PFC and ECN/CNP show as badges on the link.
#pragma once

#include <QLineF>
#include <QPen>
#include <QVector>
#include <QWidget>

class QPainter;
#include <set>

#include "models/fabric/fabricscene.h"

namespace meridian {

class FabricView final : public QWidget {
    Q_OBJECT
public:
    explicit FabricView(QWidget *parent = nullptr);

    void setScene(FabricScene scene);
    const FabricScene &scene() const { return m_scene; }
    // Links drawn on top, thick: a path, or the selection.
    void setHighlighted(std::set<size_t> links);
    void fitAll();
    double zoom() const { return m_zoom; }
    void zoomBy(double factor, QPointF around);
    void panBy(QPointF pixels);
    // Shows `world` in the middle at `zoom` (at which racks may open into hosts).
    void centerOn(QPointF world, double zoom);
    static constexpr double kExpandAtZoom = 0.6;  // a host box is ~8 px wide on screen
    bool racksExpanded() const;
    // The line (index into the scene's lines) or box under a point, if any.
    std::optional<size_t> lineAt(QPointF pixel) const;
    std::optional<size_t> boxAt(QPointF pixel) const;

Q_SIGNALS:
    void expandRacksChanged(bool expanded);
    // The view's shape changed: the scene's rows may be spread to fill it.
    void resized();
    void lineClicked(size_t line);
    void boxClicked(size_t box);

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // PFC (orange P) and ECN/CNP (blue E) badges on the links, in screen space.
    void paintBadges(QPainter &p);
    // Spines, leaves, host groups and their labels where they fit.
    void paintBoxes(QPainter &p);
    QPointF toScreen(QPointF world) const;
    QPointF toWorld(QPointF screen) const;
    void checkExpansion();
    void rebuildBatches();
    // A box's text in its screen rect: across where it fits, upright where the rect is
    // tall and narrow (`mayTurn`), nothing where neither is readable.
    void drawLabel(QPainter &p, const QRectF &r, const QString &label, const QColor &colour,
                   Qt::Alignment vertical, bool bold = false, bool mayTurn = true,
                   const QString &shortLabel = QString()) const;

    FabricScene m_scene;
    std::set<size_t> m_highlighted;
    // The scene's lines grouped by pen, in world coordinates: one drawLines() per group.
    struct Batch {
        QPen pen;
        QVector<QLineF> lines;
    };
    std::vector<Batch> m_batches;
    QVector<QLineF> m_lit;
    struct Badge {
        QPointF at;
        bool pfc;
        bool ecn;
    };
    std::vector<Badge> m_badges;
    double m_zoom = 1;
    QPointF m_offset;  // screen position of world (0, 0)
    QPoint m_pressAt;
    QPoint m_lastDrag;
    bool m_dragging = false;
    bool m_userMoved = false;  // zoomed or panned: stop fitting to the data
    bool m_expanded = false;
};

// Load share (0..1) to a colour: green, yellow, orange, red; grey when unknown.
QColor fabricLoadColour(double loadShare);
// Down (red, dashed), flapping (magenta, dash-dot), stale (grey, dotted).
QPen fabricTroublePen(LinkHealth health, bool stale);
constexpr double kFabricPfcBadgeAt = 500;   // pause frames/s on a link: a "P" badge
constexpr double kFabricEcnBadgeAt = 5000;  // ECN marks + CNPs/s, a congested link: "E"

}  // namespace meridian

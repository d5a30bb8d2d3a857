// Every card of the fleet on one canvas, coloured by health (the default) or by a
// reading, painted in one paintEvent from the latest snapshot (only the exposed
// rectangle). Cards that do not match the filters are dimmed, not removed, so the
// picture keeps its shape.
// Lives on the UI thread.
#pragma once

#include <QStaticText>
#include <QWidget>
#include <memory>
#include <optional>

#include "heatmaplayout.h"
#include "models/metricscale.h"

class QPainter;
class QScrollArea;

namespace meridian {

// Faulty: the card's own fault (Xid, ECC, heat, throttling) or its node's link.
enum class CardState { Any, Live, Idle, Stale, Unreachable, WithErrors, NoReading, Faulty };

struct HeatmapFilter {
    QString dataCenter;  // empty: all
    int vendor = -1;     // a Vendor value, -1: all
    QString model;       // empty: all
    CardState state = CardState::Any;
    QString search;  // node id, hostname, address or card UUID; case-insensitive
    bool empty() const
    {
        return dataCenter.isEmpty() && vendor < 0 && model.isEmpty() && state == CardState::Any &&
               search.isEmpty();
    }
};

class FleetHeatmap final : public QWidget {
    Q_OBJECT
public:
    explicit FleetHeatmap(QWidget *parent = nullptr);

    void setSnapshot(std::shared_ptr<const FleetSnapshot> snapshot);
    // What is drawn: the live fleet, or a moment of the past.
    const std::shared_ptr<const FleetSnapshot> &snapshot() const { return m_snapshot; }
    void setMetric(FleetMetric metric);
    void setFilter(const HeatmapFilter &filter);
    FleetMetric metric() const { return m_metric; }
    // How many cards match the filter (all, when there is none).
    int matchingCards() const { return m_matching; }
    const HeatmapGeometry &geometry() const { return m_geometry; }
    // Where the Health colouring marks a faulty card (larger than its cell).
    QRect faultMarkerRect(CardHandle card) const;

    // Tooltip text for the card or node at a point; empty where there is none.
    QString describeAt(const QPoint &point) const;

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

    void setSelectedCard(std::optional<CardHandle> card);

Q_SIGNALS:
    void cardSelected(CardHandle card);
    void cardActivated(CardHandle card);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    bool event(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    QFont rackLabelFont() const;
    QScrollArea *scrollArea() const;
    void revealSelected();
    void fitViewport();
    void relayout();
    void recomputeMatches();
    bool stateMatches(CardHandle card) const;
    // How a card is drawn: filled with a colour, or an empty box (no reading).
    struct CardLook {
        QColor color;
        bool empty = false;
    };
    CardLook cardLook(CardHandle card, bool unreachable, bool stale, bool dark) const;
    bool darkBackground() const;
    void paintLabels(QPainter &painter, const QRect &exposed) const;
    void paintCards(QPainter &painter, const QRect &exposed) const;
    // Health only: a spot larger than its cell for each faulty card, a ring round each
    // node whose link is down or flapping.
    void paintFaultMarkers(QPainter &painter, const QRect &exposed) const;
    QString sectionTitle(const HeatmapGeometry::Section &section) const;

    std::shared_ptr<const FleetSnapshot> m_snapshot;
    uint64_t m_layoutGeneration = 0;
    HeatmapGeometry m_geometry;
    std::vector<QStaticText> m_rackLabels;  // beside m_geometry.rackLabelRects
    FleetMetric m_metric = FleetMetric::Health;
    HeatmapFilter m_filter;
    std::vector<bool> m_matches;  // by CardHandle
    int m_matching = 0;
    std::optional<CardHandle> m_selected;
    QSize m_viewport;
    bool m_watchingViewport = false;
};

}  // namespace meridian

// Where every card of the fleet goes on the heatmap: data centers as sections, racks as
// blocks flowing left to right, a node per row of its rack, a card per cell. Pure
// geometry from a FleetLayout, so it is computed once per inventory change, not per paint.
#pragma once

#include <QRect>
#include <QString>
#include <vector>

#include "models/fleetsnapshotsource.h"

namespace meridian {

struct HeatmapGeometry {
    struct Section {
        QString name;
        int cards = 0;
        std::vector<NodeHandle> nodes;
        QRect titleRect;
    };
    int cell = 0;
    std::vector<Section> sections;
    std::vector<QRect> cardRects;  // by CardHandle
    std::vector<QRect> nodeRects;  // by NodeHandle: the node's row (also without cards)
    std::vector<QRect> rackRects;
    std::vector<QRect> rackLabelRects;  // beside rackRects: the strip above each rack
    std::vector<QString> rackNames;
    QSize size;
};

constexpr int kHeatmapTitleHeight = 22;
// Cells are at least kHeatmapMinCell wide; where the whole fleet does not fit even so (a
// laptop with the card panel open), down to kHeatmapFloorCell before the view scrolls:
// rows out of sight hide faults, smaller cells do not (faults are drawn larger).
constexpr int kHeatmapMinCell = 4;
constexpr int kHeatmapFloorCell = 3;
constexpr int kHeatmapMaxCell = 18;
// Racks are labelled when their cells are big enough to be told apart by eye.
constexpr int kHeatmapRackLabelHeight = 13;
constexpr int kHeatmapRackLabelMinCell = 6;

HeatmapGeometry layoutHeatmap(const FleetLayout &layout, int width, int cell);

// The largest cell (within limits) at which the whole fleet fits the viewport's height;
// kHeatmapFloorCell when nothing fits (the view then scrolls).
int fittingCellSize(const FleetLayout &layout, const QSize &viewport);

// The card (or, failing that, the node) under a point; -1 when none.
int cardAt(const HeatmapGeometry &geometry, const QPoint &point);
int nodeAt(const HeatmapGeometry &geometry, const QPoint &point);

}  // namespace meridian

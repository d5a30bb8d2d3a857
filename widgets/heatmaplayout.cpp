#include "heatmaplayout.h"

#include "models/metricscale.h"

#include <algorithm>
#include <map>

namespace meridian {

namespace {

constexpr int kCardsPerNodeMinimum = 8;  // a node without inventory still gets a full row

struct Rack {
    QString name;
    std::vector<NodeHandle> nodes;
};

struct DataCenter {
    QString name;
    std::vector<Rack> racks;
    int cards = 0;
    std::vector<NodeHandle> nodes;
};

// In order of first appearance. Looked up by name through maps: a linear search per node
// cost seconds at 12,500 nodes in thousands of racks, and the layout runs once per cell
// size tried.
std::vector<DataCenter> group(const FleetLayout &layout)
{
    std::vector<DataCenter> dcs;
    std::map<std::string, size_t> dcIndex;                 // by configured name
    std::vector<std::map<std::string, size_t>> rackIndex;  // per data center
    for (NodeHandle n = 0; n < layout.nodeCount(); ++n) {
        auto [dcAt, newDc] = dcIndex.try_emplace(layout.nodeDataCenter[n], dcs.size());
        if (newDc) {
            dcs.push_back({dataCenterTitle(layout.nodeDataCenter[n]), {}, 0, {}});
            rackIndex.emplace_back();
        }
        DataCenter &dc = dcs[dcAt->second];
        // A node not heard from yet has no rack: it sits in a rack of its own address.
        const std::string &rackName =
            layout.nodeRack[n].empty() ? layout.nodeAddress[n] : layout.nodeRack[n];
        auto [rackAt, newRack] = rackIndex[dcAt->second].try_emplace(rackName, dc.racks.size());
        if (newRack)
            dc.racks.push_back({QString::fromStdString(rackName), {}});
        dc.racks[rackAt->second].nodes.push_back(n);
        dc.nodes.push_back(n);
        dc.cards += static_cast<int>(layout.nodeCards[n].size());
    }
    return dcs;
}

int pitch(int cell)
{
    return cell + std::max(1, cell / 6);
}

int rackGap(int cell)
{
    return std::max(4, cell);
}

}  // namespace

HeatmapGeometry layoutHeatmap(const FleetLayout &layout, int width, int cell)
{
    HeatmapGeometry g;
    g.cell = cell;
    g.cardRects.assign(layout.cardCount(), QRect());
    g.nodeRects.assign(layout.nodeCount(), QRect());
    const int p = pitch(cell);
    const int gap = rackGap(cell);
    const int label = cell >= kHeatmapRackLabelMinCell ? kHeatmapRackLabelHeight : 0;
    int y = 0;
    for (const DataCenter &dc : group(layout)) {
        g.sections.push_back(
            {dc.name, dc.cards, dc.nodes, QRect(0, y, width, kHeatmapTitleHeight)});
        y += kHeatmapTitleHeight + label;
        int x = 0;
        int lineHeight = 0;
        for (const Rack &rack : dc.racks) {
            size_t widest = kCardsPerNodeMinimum;
            for (NodeHandle n : rack.nodes)
                widest = std::max(widest, layout.nodeCards[n].size());
            const int rackWidth = static_cast<int>(widest) * p;
            const int rackHeight = static_cast<int>(rack.nodes.size()) * p;
            if (x > 0 && x + rackWidth > width) {
                x = 0;
                y += lineHeight + gap + label;
                lineHeight = 0;
            }
            g.rackRects.emplace_back(x, y, rackWidth - (p - cell), rackHeight - (p - cell));
            g.rackLabelRects.emplace_back(x, y - label, rackWidth - (p - cell), label);
            g.rackNames.push_back(rack.name);
            for (size_t row = 0; row < rack.nodes.size(); ++row) {
                const NodeHandle n = rack.nodes[row];
                const int rowY = y + static_cast<int>(row) * p;
                g.nodeRects[n] = QRect(x, rowY, rackWidth - (p - cell), cell);
                const auto &cards = layout.nodeCards[n];
                for (size_t i = 0; i < cards.size(); ++i)
                    g.cardRects[cards[i]] = QRect(x + static_cast<int>(i) * p, rowY, cell, cell);
            }
            x += rackWidth + gap;
            lineHeight = std::max(lineHeight, rackHeight);
        }
        y += lineHeight + gap * 2;
    }
    g.size = QSize(width, y);
    return g;
}

int fittingCellSize(const FleetLayout &layout, const QSize &viewport)
{
    for (int cell = kHeatmapMaxCell; cell > kHeatmapMinCell; --cell) {
        if (layoutHeatmap(layout, viewport.width(), cell).size.height() <= viewport.height())
            return cell;
    }
    return kHeatmapMinCell;
}

int cardAt(const HeatmapGeometry &geometry, const QPoint &point)
{
    for (size_t c = 0; c < geometry.cardRects.size(); ++c) {
        if (geometry.cardRects[c].contains(point))
            return static_cast<int>(c);
    }
    return -1;
}

int nodeAt(const HeatmapGeometry &geometry, const QPoint &point)
{
    for (size_t n = 0; n < geometry.nodeRects.size(); ++n) {
        if (geometry.nodeRects[n].contains(point))
            return static_cast<int>(n);
    }
    return -1;
}

}  // namespace meridian

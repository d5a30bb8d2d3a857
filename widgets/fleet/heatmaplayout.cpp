#include "heatmaplayout.h"

#include "models/metricscale.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

namespace meridian {

namespace {

constexpr int kCardsPerNodeMinimum = 8;  // a node without inventory still gets a full row

struct Rack {
    QString name;
    std::vector<NodeHandle> nodes;
    int widestNode = kCardsPerNodeMinimum;  // in cards
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
        Rack &rack = dc.racks[rackAt->second];
        rack.nodes.push_back(n);
        rack.widestNode = std::max(rack.widestNode, static_cast<int>(layout.nodeCards[n].size()));
        dc.nodes.push_back(n);
        dc.cards += static_cast<int>(layout.nodeCards[n].size());
    }
    return dcs;
}

// The sizes of one cell size, in pixels.
struct Metrics {
    int cell = 0;
    int pitch = 0;  // from one card to the next
    int gap = 0;    // between racks
    int label = 0;  // the rack label strip; 0 when cells are too small to label
    int rackWidth(const Rack &rack) const { return rack.widestNode * pitch - (pitch - cell); }
    int rackHeight(const Rack &rack) const
    {
        return static_cast<int>(rack.nodes.size()) * pitch - (pitch - cell);
    }
};

Metrics metricsFor(int cell)
{
    return {cell, cell + std::max(1, cell / 6), std::max(4, cell),
            cell >= kHeatmapRackLabelMinCell ? kHeatmapRackLabelHeight : 0};
}

// Where the cards go, when a flow is placing and not only measuring.
struct Placement {
    const FleetLayout &layout;
    HeatmapGeometry &geometry;
};

// Flows a data center's racks left to right within `width`, placing them when asked.
// Returns the height the racks take below the section's title.
int flowRacks(const DataCenter &dc, const Metrics &m, int left, int top, int width,
              Placement *place)
{
    int x = 0;
    int y = top + m.label;
    int lineHeight = 0;
    for (const Rack &rack : dc.racks) {
        const int rackWidth = m.rackWidth(rack);
        if (x > 0 && x + rackWidth > width) {
            x = 0;
            y += lineHeight + m.gap + m.label;
            lineHeight = 0;
        }
        if (place) {
            HeatmapGeometry *g = &place->geometry;
            g->rackRects.emplace_back(left + x, y, rackWidth, m.rackHeight(rack));
            g->rackLabelRects.emplace_back(left + x, y - m.label, rackWidth, m.label);
            g->rackNames.push_back(rack.name);
            for (size_t row = 0; row < rack.nodes.size(); ++row) {
                const NodeHandle n = rack.nodes[row];
                const int rowY = y + static_cast<int>(row) * m.pitch;
                g->nodeRects[n] = QRect(left + x, rowY, rackWidth, m.cell);
                const auto &cards = place->layout.nodeCards[n];
                for (size_t i = 0; i < cards.size(); ++i)
                    g->cardRects[cards[i]] =
                        QRect(left + x + static_cast<int>(i) * m.pitch, rowY, m.cell, m.cell);
            }
        }
        x += rackWidth + m.gap;
        lineHeight = std::max(lineHeight, m.rackHeight(rack));
    }
    return y + lineHeight - top;
}

// Data centers one under another, or side by side in columns as wide as their share of
// the racks: three data centers then pay for one title row, not three, and a laptop
// shows 6,000 cards without scrolling.
struct Arrangement {
    std::vector<int> left;
    std::vector<int> width;
    bool sideBySide = false;
    int height = 0;
};

int stackedHeight(const std::vector<DataCenter> &dcs, const Metrics &m, int width)
{
    int height = 0;
    for (const DataCenter &dc : dcs)
        height += kHeatmapTitleHeight + flowRacks(dc, m, 0, 0, width, nullptr) + m.gap * 2;
    return height;
}

// The tallest column's height, and which columns are tallest and shortest.
struct ColumnHeights {
    int tallest = 0;
    size_t tallestAt = 0;
    size_t shortestAt = 0;
};

ColumnHeights columnHeights(const std::vector<DataCenter> &dcs, const Metrics &m,
                            const std::vector<int> &widths)
{
    ColumnHeights h;
    int shortest = std::numeric_limits<int>::max();
    for (size_t i = 0; i < dcs.size(); ++i) {
        const int height = flowRacks(dcs[i], m, 0, 0, widths[i], nullptr);
        if (height > h.tallest) {
            h.tallest = height;
            h.tallestAt = i;
        }
        if (height < shortest) {
            shortest = height;
            h.shortestAt = i;
        }
    }
    return h;
}

// Widths for side-by-side columns, or nothing when the widest rack of each does not fit.
std::vector<int> columnWidths(const std::vector<DataCenter> &dcs, const Metrics &m, int width,
                              std::vector<int> *minimum)
{
    const int columnGap = m.gap * 3;
    const int available = width - columnGap * static_cast<int>(dcs.size() - 1);
    std::vector<double> area;
    for (const DataCenter &dc : dcs) {
        int widest = 0;
        double racks = 0;
        for (const Rack &rack : dc.racks) {
            widest = std::max(widest, m.rackWidth(rack));
            racks += static_cast<double>(m.rackWidth(rack) + m.gap) *
                     (m.rackHeight(rack) + m.gap + m.label);
        }
        minimum->push_back(widest);
        area.push_back(racks);
    }
    const int spare = available - std::accumulate(minimum->begin(), minimum->end(), 0);
    const double total = std::accumulate(area.begin(), area.end(), 0.0);
    if (spare < 0 || total <= 0)
        return {};
    std::vector<int> widths;
    for (size_t i = 0; i < dcs.size(); ++i)
        widths.push_back((*minimum)[i] + static_cast<int>(spare * area[i] / total));
    return widths;
}

Arrangement arrange(const std::vector<DataCenter> &dcs, const Metrics &m, int width)
{
    Arrangement stacked{std::vector<int>(dcs.size(), 0), std::vector<int>(dcs.size(), width), false,
                        stackedHeight(dcs, m, width)};
    std::vector<int> minimum;
    std::vector<int> widths =
        dcs.size() < 2 ? std::vector<int>{} : columnWidths(dcs, m, width, &minimum);
    if (widths.empty())
        return stacked;
    // Racks come in whole widths: even the columns out by moving a rack's width at a time
    // from the shortest to the tallest while that lowers the tallest.
    ColumnHeights heights = columnHeights(dcs, m, widths);
    const int step = kCardsPerNodeMinimum * m.pitch + m.gap;
    for (int round = 0; round < 16 && heights.tallestAt != heights.shortestAt; ++round) {
        std::vector<int> tried = widths;
        tried[heights.shortestAt] -= step;
        tried[heights.tallestAt] += step;
        if (tried[heights.shortestAt] < minimum[heights.shortestAt])
            break;
        const ColumnHeights after = columnHeights(dcs, m, tried);
        if (after.tallest >= heights.tallest)
            break;
        widths = std::move(tried);
        heights = after;
    }
    const int height = kHeatmapTitleHeight + heights.tallest + m.gap * 2;
    if (height >= stacked.height)
        return stacked;
    Arrangement columns{{}, widths, true, height};
    int left = 0;
    for (int w : widths) {
        columns.left.push_back(left);
        left += w + m.gap * 3;
    }
    return columns;
}

}  // namespace

HeatmapGeometry layoutHeatmap(const FleetLayout &layout, int width, int cell)
{
    HeatmapGeometry g;
    g.cell = cell;
    g.cardRects.assign(layout.cardCount(), QRect());
    g.nodeRects.assign(layout.nodeCount(), QRect());
    const Metrics m = metricsFor(cell);
    const std::vector<DataCenter> dcs = group(layout);
    const Arrangement a = arrange(dcs, m, width);
    Placement place{layout, g};
    int y = 0;
    for (size_t i = 0; i < dcs.size(); ++i) {
        const DataCenter &dc = dcs[i];
        g.sections.push_back(
            {dc.name, dc.cards, dc.nodes, QRect(a.left[i], y, a.width[i], kHeatmapTitleHeight)});
        const int racks = flowRacks(dc, m, a.left[i], y + kHeatmapTitleHeight, a.width[i], &place);
        if (!a.sideBySide)
            y += kHeatmapTitleHeight + racks + m.gap * 2;
    }
    g.size = QSize(width, a.sideBySide ? a.height : y);
    return g;
}

int fittingCellSize(const FleetLayout &layout, const QSize &viewport)
{
    // Measured from racks alone: placing every card for each size tried cost 40 ms at
    // 100,000 cards.
    const std::vector<DataCenter> dcs = group(layout);
    for (int cell = kHeatmapMaxCell; cell > kHeatmapFloorCell; --cell) {
        if (arrange(dcs, metricsFor(cell), viewport.width()).height <= viewport.height())
            return cell;
    }
    return kHeatmapFloorCell;
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

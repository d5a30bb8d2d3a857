// Where everything of one data center's fabric is drawn: spines on top, leaves in the
// middle grouped by pod (each pod named above its leaves), hosts below, in world
// coordinates the view pans and zooms over. Collapsed (a whole data center fitted to the
// window), a leaf's hosts are gathered into one box under it, joined to it by one line
// that shows their worst link; a click opens one leaf's hosts in place below. Expanded
// (zoomed in), every host and NIC link is its own, racks named under their hosts. Rows
// are spread to the view's shape, so a fitted data center fills the window's height.
#pragma once

#include <QRectF>
#include <QString>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabricmodel.h"

namespace meridian {

struct FabricSceneBox {
    // Labels (RackLabel, PodLabel, LeafLabel) are text in their rect, turned upright where
    // the rect is narrow; a HostGroup is a leaf's hosts, gathered.
    enum class Kind { Spine, Leaf, Host, RackLabel, PodLabel, LeafLabel, HostGroup };
    Kind kind = Kind::Host;
    QString label;
    std::string key;  // switch name (a HostGroup's: its leaf), rack, pod or node id
    QRectF rect;
    LinkHealth health = LinkHealth::Up;  // a HostGroup's worst link
    QString shortLabel;  // where the label fits neither across nor upright ("7", "40")
};

struct FabricSceneLine {
    static constexpr size_t kAggregate = std::numeric_limits<size_t>::max();
    QPointF from;  // the lower end (host or rack, or a leaf for an uplink)
    QPointF to;
    size_t link = kAggregate;     // index into Fabric::links; kAggregate for a rack's bundle
    std::vector<size_t> bundled;  // a bundle's links (a leaf's hosts, or a pod's uplinks)
    double loadShare = -1;        // -1: unknown
    LinkHealth health = LinkHealth::Up;
    bool stale = false;
    double pfcPausesPerSecond = 0;
    double ecnPerSecond = 0;
    bool uplink = false;
};

struct FabricScene {
    std::vector<FabricSceneBox> boxes;
    std::vector<FabricSceneLine> lines;
    QRectF bounds;
    int hosts = 0;
    int hostLinks = 0;
};

struct FabricSceneOptions {
    std::string dataCenter;
    std::optional<uint32_t> rail;  // only this rail's host links (and its leaves)
    bool expandRacks = false;
    double aspect = 0;     // the view's height over its width; 0: rows by the host count
    std::string openLeaf;  // collapsed: the leaf whose hosts are drawn one by one
};

constexpr double kFabricHostWidth = 14;
constexpr double kFabricHostGap = 4;
constexpr double kFabricMinRowGap = 180;

FabricScene layoutFabricScene(const Fabric &fabric,
                              const std::map<std::string, std::string> &rackOfNode,
                              const FabricSceneOptions &options);

}  // namespace meridian

// Where everything of one data center's fabric is drawn: spines on top, leaves in the
// middle grouped by pod, hosts below grouped by rack, in world coordinates the view pans
// and zooms over. Collapsed, a rack is one box and its links to a leaf one line (the
// worst health, the highest load, PFC and ECN of its worst link); expanded, every host and NIC link
// is its own. Positions do not move between the two, so zooming in opens racks in place.
// A bundle shows its worst link: the highest load and the most PFC and ECN.
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
    enum class Kind { Spine, Leaf, Rack, Host, RackLabel };
    Kind kind = Kind::Host;
    QString label;
    std::string key;  // switch name, rack or node id
    QRectF rect;
};

struct FabricSceneLine {
    static constexpr size_t kAggregate = std::numeric_limits<size_t>::max();
    QPointF from;  // the lower end (host or rack, or a leaf for an uplink)
    QPointF to;
    size_t link = kAggregate;     // index into Fabric::links; kAggregate for a rack's bundle
    std::vector<size_t> bundled;  // a rack's bundle: its links
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
};

constexpr double kFabricHostWidth = 14;
constexpr double kFabricHostGap = 4;
constexpr double kFabricMinRowGap = 180;

FabricScene layoutFabricScene(const Fabric &fabric,
                              const std::map<std::string, std::string> &rackOfNode,
                              const FabricSceneOptions &options);

}  // namespace meridian

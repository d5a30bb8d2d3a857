#include "fabricscene.h"

#include <algorithm>
#include <set>

#include "core/textutil.h"

namespace meridian {

namespace {

constexpr double kBoxHeight = 22;
constexpr double kPodGap = 40;

int healthRank(LinkHealth h)
{
    return h == LinkHealth::Down ? 2 : h == LinkHealth::Flapping ? 1 : 0;
}

bool nodeLess(const std::string &a, const std::string &b)
{
    return naturalLess(a, b);
}

// A switch's own name, less the data center every box on the screen shares: two pods'
// leaves of one rail must not read alike ("pod0-leaf3", "pod1-leaf3").
QString switchLabel(const FabricSwitch &s, const std::string &dataCenter)
{
    std::string name = s.name;
    if (name.size() > dataCenter.size() + 1 && name.rfind(dataCenter, 0) == 0 &&
        (name[dataCenter.size()] == '-' || name[dataCenter.size()] == '.'))
        name = name.substr(dataCenter.size() + 1);
    return QString::fromStdString(name);
}

}  // namespace

FabricScene layoutFabricScene(const Fabric &fabric,
                              const std::map<std::string, std::string> &rackOfNode,
                              const FabricSceneOptions &options)
{
    FabricScene scene;
    // Hosts of this data center with their links, by rack; leaves by pod.
    std::map<std::string, std::vector<size_t>> linksOfHost;
    for (size_t i = 0; i < fabric.links.size(); ++i) {
        const FabricLink &l = fabric.links[i];
        if (l.kind != FabricLink::Kind::HostToLeaf || l.dataCenter != options.dataCenter)
            continue;
        if (options.rail && l.rail != options.rail)
            continue;
        linksOfHost[l.hostNode].push_back(i);
    }
    std::vector<std::string> hosts;
    for (const auto &[host, links] : linksOfHost)
        hosts.push_back(host);
    const auto rackOf = [&](const std::string &host) {
        const auto it = rackOfNode.find(host);
        return it != rackOfNode.end() ? it->second : std::string("?");
    };
    std::stable_sort(hosts.begin(), hosts.end(), [&](const std::string &a, const std::string &b) {
        const std::string ra = rackOf(a), rb = rackOf(b);
        return ra != rb ? nodeLess(ra, rb) : nodeLess(a, b);
    });

    // Rows far enough apart that a whole data center, fitted to a window, is not a sliver.
    const double hostsWidth =
        static_cast<double>(hosts.size()) * (kFabricHostWidth + kFabricHostGap);
    const double rowGap = std::max(kFabricMinRowGap, hostsWidth / 4);
    const double hostsY = 2 * rowGap;
    std::map<std::string, QRectF> hostRect;
    std::map<std::string, QRectF> rackRect;
    std::vector<std::string> rackOrder;
    double x = 0;
    std::string previousRack;
    for (const std::string &host : hosts) {
        const std::string rack = rackOf(host);
        if (!previousRack.empty() && rack != previousRack)
            x += kFabricHostGap * 3;  // a little air between racks
        previousRack = rack;
        const QRectF r(x, hostsY, kFabricHostWidth, kBoxHeight);
        hostRect[host] = r;
        if (!rackRect.count(rack)) {
            rackRect[rack] = r;
            rackOrder.push_back(rack);
        } else {
            rackRect[rack] = rackRect[rack].united(r);
        }
        x += kFabricHostWidth + kFabricHostGap;
    }
    const double width = std::max(x, 200.0);
    scene.hosts = static_cast<int>(hosts.size());

    // Leaves above the hosts they serve: each at the mean x of its hosts, spread apart.
    std::map<std::string, std::vector<double>> hostXsOfLeaf;
    for (const auto &[host, links] : linksOfHost) {
        for (size_t i : links)
            hostXsOfLeaf[fabric.links[i].leaf].push_back(hostRect[host].center().x());
    }
    std::vector<const FabricSwitch *> leaves, spines;
    for (const FabricSwitch &s : fabric.switches) {
        if (s.dataCenter != options.dataCenter)
            continue;
        if (s.tier == SwitchTier::Spine) {
            spines.push_back(&s);
        } else if (hostXsOfLeaf.count(s.name) || (!options.rail && s.declared) ||
                   (options.rail && s.rail == static_cast<int>(*options.rail))) {
            leaves.push_back(&s);
        }
    }
    const auto meanX = [&](const FabricSwitch *s) {
        const auto it = hostXsOfLeaf.find(s->name);
        if (it == hostXsOfLeaf.end() || it->second.empty())
            return width;  // declared but unseen: at the end
        double sum = 0;
        for (double v : it->second)
            sum += v;
        return sum / static_cast<double>(it->second.size());
    };
    std::stable_sort(leaves.begin(), leaves.end(),
                     [&](const FabricSwitch *a, const FabricSwitch *b) {
                         if (a->pod != b->pod)
                             return a->pod.value_or(1 << 20) < b->pod.value_or(1 << 20);
                         if (a->rail != b->rail)
                             return a->rail.value_or(1 << 20) < b->rail.value_or(1 << 20);
                         return meanX(a) < meanX(b);
                     });
    // A pod's leaves spread evenly over the span of the hosts they serve.
    std::map<std::string, QRectF> switchRect;
    const double leafWidth = 64;  // room for "pod1-leaf7"
    const double leafStep = leafWidth + 6;
    double leafX = 0;
    for (size_t first = 0; first < leaves.size();) {
        size_t last = first;
        double lo = meanX(leaves[first]), hi = lo;
        while (last + 1 < leaves.size() && leaves[last + 1]->pod == leaves[first]->pod) {
            ++last;
            lo = std::min(lo, meanX(leaves[last]));
            hi = std::max(hi, meanX(leaves[last]));
        }
        const auto group = static_cast<double>(last - first + 1);
        double spanLo = width, spanHi = 0;
        for (size_t i = first; i <= last; ++i) {
            for (double hx : hostXsOfLeaf[leaves[i]->name]) {
                spanLo = std::min(spanLo, hx);
                spanHi = std::max(spanHi, hx);
            }
        }
        if (spanHi < spanLo) {
            spanLo = lo;
            spanHi = hi;
        }
        const double step = std::max(leafStep, (spanHi - spanLo) / std::max(1.0, group - 1));
        const double start =
            std::max(leafX, (spanLo + spanHi) / 2 - step * (group - 1) / 2 - leafWidth / 2);
        for (size_t i = first; i <= last; ++i) {
            const double x = start + step * static_cast<double>(i - first);
            switchRect[leaves[i]->name] = QRectF(x, rowGap, leafWidth, kBoxHeight);
            leafX = x + leafStep + kPodGap;
        }
        first = last + 1;
    }
    const double fullWidth = std::max(width, leafX);
    const double spineWidth = 70;
    for (size_t i = 0; i < spines.size(); ++i) {
        const double slot = fullWidth / static_cast<double>(spines.size());
        switchRect[spines[i]->name] = QRectF(slot * (static_cast<double>(i) + 0.5) - spineWidth / 2,
                                             0, spineWidth, kBoxHeight);
    }
    for (const FabricSwitch *s : spines)
        scene.boxes.push_back({FabricSceneBox::Kind::Spine, switchLabel(*s, options.dataCenter),
                               s->name, switchRect[s->name]});
    for (const FabricSwitch *s : leaves)
        scene.boxes.push_back({FabricSceneBox::Kind::Leaf, switchLabel(*s, options.dataCenter),
                               s->name, switchRect[s->name]});

    // Uplinks. Collapsed, a pod's leaves reach each spine as one bundle (its busiest
    // uplink): thousands of long crossing lines would only be a green wash.
    std::map<std::pair<std::string, std::string>, FabricSceneLine> podUplinks;  // (pod, spine)
    std::map<std::string, QRectF> podRect;
    for (const FabricSwitch *leaf : leaves) {
        const std::string pod = leaf->pod ? std::to_string(*leaf->pod) : leaf->name;
        podRect[pod] = podRect.count(pod) ? podRect[pod].united(switchRect[leaf->name])
                                          : switchRect[leaf->name];
    }
    for (size_t i = 0; i < fabric.links.size(); ++i) {
        const FabricLink &l = fabric.links[i];
        if (l.kind != FabricLink::Kind::LeafToSpine || l.dataCenter != options.dataCenter ||
            !switchRect.count(l.leaf) || !switchRect.count(l.spine))
            continue;
        FabricSceneLine line;
        line.to = QPointF(switchRect[l.spine].center().x(), switchRect[l.spine].bottom());
        line.loadShare = l.loadShare.value_or(-1);
        line.health = l.health;
        line.uplink = true;
        if (options.expandRacks) {
            line.from = QPointF(switchRect[l.leaf].center().x(), switchRect[l.leaf].top());
            line.link = i;
            scene.lines.push_back(std::move(line));
            continue;
        }
        const FabricSwitch *leaf = fabric.findSwitch(l.leaf);
        const std::string pod = leaf && leaf->pod ? std::to_string(*leaf->pod) : l.leaf;
        auto [it, fresh] = podUplinks.try_emplace({pod, l.spine});
        FabricSceneLine &b = it->second;
        if (fresh) {
            b = line;
            b.from = QPointF(podRect[pod].center().x(), podRect[pod].top());
        } else {
            b.loadShare = std::max(b.loadShare, line.loadShare);
        }
        b.bundled.push_back(i);
    }
    for (auto &[key, line] : podUplinks)
        scene.lines.push_back(std::move(line));

    // Hosts and their links: one by one, or a rack's bundle per leaf.
    const auto lineFor = [&](const FabricLink &l, QPointF from) {
        FabricSceneLine line;
        line.from = from;
        line.to = QPointF(switchRect[l.leaf].center().x(), switchRect[l.leaf].bottom());
        line.loadShare = l.loadShare.value_or(-1);
        line.health = l.health;
        line.stale = l.stale;
        line.pfcPausesPerSecond = l.pfcPausesPerSecond;
        line.ecnPerSecond = l.ecnPerSecond;
        return line;
    };
    if (options.expandRacks) {
        // Each host says its rack: a label under the rack's hosts.
        for (const std::string &rack : rackOrder) {
            const QRectF hostsOfRack = rackRect[rack];
            scene.boxes.push_back({FabricSceneBox::Kind::RackLabel, QString::fromStdString(rack),
                                   rack,
                                   QRectF(hostsOfRack.left(), hostsOfRack.bottom() + 4,
                                          hostsOfRack.width(), kBoxHeight * 0.8)});
        }
        for (const std::string &host : hosts) {
            const QRectF r = hostRect[host];
            scene.boxes.push_back({FabricSceneBox::Kind::Host,
                                   QString::fromStdString(host).section(QLatin1Char('-'), -1), host,
                                   r});
            for (size_t i : linksOfHost[host]) {
                const FabricLink &l = fabric.links[i];
                if (!switchRect.count(l.leaf))
                    continue;
                FabricSceneLine line = lineFor(l, QPointF(r.center().x(), r.top()));
                line.link = i;
                scene.lines.push_back(std::move(line));
                ++scene.hostLinks;
            }
        }
    } else {
        std::map<std::pair<std::string, std::string>, FabricSceneLine> bundles;  // (rack, leaf)
        for (const std::string &host : hosts) {
            const std::string rack = rackOf(host);
            const QRectF r = rackRect[rack];
            for (size_t i : linksOfHost[host]) {
                const FabricLink &l = fabric.links[i];
                if (!switchRect.count(l.leaf))
                    continue;
                ++scene.hostLinks;
                auto [it, fresh] = bundles.try_emplace({rack, l.leaf});
                FabricSceneLine &b = it->second;
                if (fresh)
                    b = lineFor(l, QPointF(r.center().x(), r.top()));
                else {
                    b.loadShare = std::max(b.loadShare, l.loadShare.value_or(-1));
                    if (healthRank(l.health) > healthRank(b.health))
                        b.health = l.health;
                    b.stale = b.stale || l.stale;
                    // The worst link of the bundle: a sum would flag a rack of quiet links.
                    b.pfcPausesPerSecond = std::max(b.pfcPausesPerSecond, l.pfcPausesPerSecond);
                    b.ecnPerSecond = std::max(b.ecnPerSecond, l.ecnPerSecond);
                }
                b.bundled.push_back(i);
            }
        }
        for (const std::string &rack : rackOrder)
            scene.boxes.push_back(
                {FabricSceneBox::Kind::Rack, QString::fromStdString(rack), rack, rackRect[rack]});
        for (auto &[key, line] : bundles)
            scene.lines.push_back(std::move(line));
    }
    scene.bounds = QRectF(-20, -20, fullWidth + 40, hostsY + kBoxHeight * 2 + 44);
    return scene;
}

}  // namespace meridian

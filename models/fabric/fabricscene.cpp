#include "fabricscene.h"

#include <QObject>
#include <algorithm>
#include <set>

#include "core/textutil.h"

namespace meridian {

namespace {

constexpr double kBoxHeight = 22;
constexpr double kPodGap = 40;
// Shares of the gap between rows: a pod's name above its leaves, a leaf's name under it,
// then the box of its hosts.
constexpr double kPodLabelShare = 0.12;
constexpr double kLeafLabelShare = 0.3;
constexpr double kHostGroupShare = 0.5;
constexpr double kSwitchShare = 0.05;  // a switch box's height

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

// A leaf's number within its pod ("pod1-leaf7" → "7"), for a leaf too narrow for its name:
// its pod is named above it.
QString trailingNumber(const QString &name)
{
    qsizetype digits = 0;
    while (digits < name.size() && name.at(name.size() - 1 - digits).isDigit())
        ++digits;
    return digits > 0 ? name.right(digits) : name;
}

// Lays one data center's fabric out in rows: spines on top, leaves under them, hosts by
// rack at the bottom. Each step reads what the earlier ones placed.
class SceneLayout {
public:
    SceneLayout(const Fabric &fabric, const std::map<std::string, std::string> &rackOfNode,
                const FabricSceneOptions &options)
        : m_fabric(fabric), m_rackOfNode(rackOfNode), m_options(options)
    {}

    FabricScene run()
    {
        collectHosts();
        placeHosts();
        pickSwitches();
        placeLeaves();
        placeRows();
        placeSpines();
        addPodLabels();
        addUplinks();
        if (m_options.expandRacks) {
            addHostsOneByOne();
        } else {
            addHostGroups();
            addOpenLeafHosts();
        }
        m_scene.bounds = QRectF(-20, -20, m_fullWidth + 40, m_hostsY + kBoxHeight * 2 + 44);
        return std::move(m_scene);
    }

private:
    std::string rackOf(const std::string &host) const
    {
        const auto it = m_rackOfNode.find(host);
        return it != m_rackOfNode.end() ? it->second : std::string("?");
    }

    // Hosts of this data center (and rail) with their links, sorted by rack.
    void collectHosts()
    {
        for (size_t i = 0; i < m_fabric.links.size(); ++i) {
            const FabricLink &l = m_fabric.links[i];
            if (l.kind != FabricLink::Kind::HostToLeaf || l.dataCenter != m_options.dataCenter)
                continue;
            if (m_options.rail && l.rail != m_options.rail)
                continue;
            m_linksOfHost[l.hostNode].push_back(i);
        }
        for (const auto &[host, links] : m_linksOfHost)
            m_hosts.push_back(host);
        std::stable_sort(m_hosts.begin(), m_hosts.end(),
                         [&](const std::string &a, const std::string &b) {
                             const std::string ra = rackOf(a), rb = rackOf(b);
                             return ra != rb ? nodeLess(ra, rb) : nodeLess(a, b);
                         });
        m_scene.hosts = static_cast<int>(m_hosts.size());
    }

    // Across first; the rows' heights wait for the whole width (placeRows).
    void placeHosts()
    {
        double x = 0;
        std::string previousRack;
        for (const std::string &host : m_hosts) {
            const std::string rack = rackOf(host);
            if (!previousRack.empty() && rack != previousRack)
                x += kFabricHostGap * 3;  // a little air between racks
            previousRack = rack;
            const QRectF r(x, 0, kFabricHostWidth, kBoxHeight);
            m_hostRect[host] = r;
            if (!m_rackRect.count(rack)) {
                m_rackRect[rack] = r;
                m_rackOrder.push_back(rack);
            } else {
                m_rackRect[rack] = m_rackRect[rack].united(r);
            }
            x += kFabricHostWidth + kFabricHostGap;
        }
        m_width = std::max(x, 200.0);
    }

    // The spines, and the leaves that serve a shown host or are declared for the view.
    void pickSwitches()
    {
        for (const auto &[host, links] : m_linksOfHost) {
            for (size_t i : links)
                m_hostXsOfLeaf[m_fabric.links[i].leaf].push_back(m_hostRect[host].center().x());
        }
        for (const FabricSwitch &s : m_fabric.switches) {
            if (s.dataCenter != m_options.dataCenter)
                continue;
            if (s.tier == SwitchTier::Spine) {
                m_spines.push_back(&s);
            } else if (m_hostXsOfLeaf.count(s.name) || (!m_options.rail && s.declared) ||
                       (m_options.rail && s.rail == static_cast<int>(*m_options.rail))) {
                m_leaves.push_back(&s);
            }
        }
    }

    // A leaf's wished-for x: the mean of the hosts it serves.
    double meanX(const FabricSwitch *s) const
    {
        const auto it = m_hostXsOfLeaf.find(s->name);
        if (it == m_hostXsOfLeaf.end() || it->second.empty())
            return m_width;  // declared but unseen: at the end
        double sum = 0;
        for (double v : it->second)
            sum += v;
        return sum / static_cast<double>(it->second.size());
    }

    // Leaves above the hosts they serve, by pod and rail; a pod's leaves spread evenly
    // over the span of its hosts, never overlapping the pod before.
    void placeLeaves()
    {
        std::stable_sort(m_leaves.begin(), m_leaves.end(),
                         [&](const FabricSwitch *a, const FabricSwitch *b) {
                             if (a->pod != b->pod)
                                 return a->pod.value_or(1 << 20) < b->pod.value_or(1 << 20);
                             if (a->rail != b->rail)
                                 return a->rail.value_or(1 << 20) < b->rail.value_or(1 << 20);
                             return meanX(a) < meanX(b);
                         });
        // Room for "pod1-leaf7" zoomed in; fitted, wide enough for a name set upright.
        const double leafWidth = 66;
        const double leafStep = leafWidth + 4;
        double leafX = 0;
        for (size_t first = 0; first < m_leaves.size();) {
            size_t last = first;
            double lo = meanX(m_leaves[first]), hi = lo;
            while (last + 1 < m_leaves.size() && m_leaves[last + 1]->pod == m_leaves[first]->pod) {
                ++last;
                lo = std::min(lo, meanX(m_leaves[last]));
                hi = std::max(hi, meanX(m_leaves[last]));
            }
            const auto group = static_cast<double>(last - first + 1);
            double spanLo = m_width, spanHi = 0;
            for (size_t i = first; i <= last; ++i) {
                for (double hx : m_hostXsOfLeaf[m_leaves[i]->name]) {
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
                m_switchRect[m_leaves[i]->name] = QRectF(x, 0, leafWidth, kBoxHeight);
                leafX = x + leafStep + kPodGap;
            }
            first = last + 1;
        }
        m_fullWidth = std::max(m_width, leafX);
    }

    // Rows far enough apart that a whole data center, fitted to its window, fills it: as
    // tall as the view's shape asks, never closer than the smallest gap.
    void placeRows()
    {
        const double hostsWidth = m_width;
        m_rowGap = std::max(kFabricMinRowGap, hostsWidth / 4);
        if (m_options.aspect > 0)
            m_rowGap = std::max(kFabricMinRowGap,
                                (m_options.aspect * (m_fullWidth + 40) - 2 * kBoxHeight - 44) / 2);
        m_hostsY = 2 * m_rowGap;
        for (auto &[host, r] : m_hostRect)
            r.moveTop(m_hostsY);
        for (auto &[rack, r] : m_rackRect)
            r.moveTop(m_hostsY);
        // Switches tall enough to carry a name at the zoom that fits the whole.
        m_switchHeight = std::max(kBoxHeight, m_rowGap * kSwitchShare);
        for (const FabricSwitch *leaf : m_leaves) {
            m_switchRect[leaf->name].moveTop(m_rowGap);
            m_switchRect[leaf->name].setHeight(m_switchHeight);
        }
    }

    void placeSpines()
    {
        // Wide enough to carry a name when a whole data center is fitted to the window.
        const double slot = m_fullWidth / static_cast<double>(std::max<size_t>(1, m_spines.size()));
        const double spineWidth = std::max(70.0, slot * 0.5);
        for (size_t i = 0; i < m_spines.size(); ++i) {
            m_switchRect[m_spines[i]->name] =
                QRectF(slot * (static_cast<double>(i) + 0.5) - spineWidth / 2, 0, spineWidth,
                       m_switchHeight);
        }
        for (const FabricSwitch *s : m_spines)
            m_scene.boxes.push_back({FabricSceneBox::Kind::Spine,
                                     switchLabel(*s, m_options.dataCenter), s->name,
                                     m_switchRect[s->name]});
        for (const FabricSwitch *s : m_leaves) {
            const QRectF r = m_switchRect[s->name];
            const QString name = switchLabel(*s, m_options.dataCenter);
            if (m_options.expandRacks) {
                m_scene.boxes.push_back({FabricSceneBox::Kind::Leaf, name, s->name, r});
                continue;
            }
            // Collapsed, a leaf is narrow: its name stands upright under it.
            m_scene.boxes.push_back({FabricSceneBox::Kind::Leaf, QString(), s->name, r});
            FabricSceneBox label{
                FabricSceneBox::Kind::LeafLabel, name, s->name,
                QRectF(r.left(), r.bottom() + 2, r.width(), m_rowGap * kLeafLabelShare - 4)};
            label.shortLabel = trailingNumber(name);
            m_scene.boxes.push_back(std::move(label));
        }
    }

    std::string podOf(const FabricSwitch &leaf) const
    {
        return leaf.pod ? std::to_string(*leaf.pod) : leaf.name;
    }

    // Each pod named above its leaves ("pod 3 · 8 leaves"); a leaf of no pod is its own.
    void addPodLabels()
    {
        std::map<std::string, std::pair<QRectF, int>> pods;
        std::vector<std::string> order;
        for (const FabricSwitch *leaf : m_leaves) {
            if (!leaf->pod)
                continue;
            const std::string pod = podOf(*leaf);
            auto [it, fresh] = pods.try_emplace(pod, m_switchRect[leaf->name], 0);
            if (fresh)
                order.push_back(pod);
            it->second.first = it->second.first.united(m_switchRect[leaf->name]);
            ++it->second.second;
        }
        for (const std::string &pod : order) {
            const auto &[leaves, count] = pods[pod];
            const double height = m_rowGap * kPodLabelShare;
            m_podLabelRect[pod] =
                QRectF(leaves.left(), leaves.top() - height - 2, leaves.width(), height);
            m_scene.boxes.push_back(
                {FabricSceneBox::Kind::PodLabel,
                 QObject::tr("pod %1 · %n leaves", nullptr, count).arg(QString::fromStdString(pod)),
                 pod, m_podLabelRect[pod]});
        }
    }

    // Uplinks. Collapsed, a pod's leaves reach each spine as one bundle (its busiest
    // uplink): thousands of long crossing lines would only be a green wash.
    void addUplinks()
    {
        std::map<std::pair<std::string, std::string>, FabricSceneLine> podUplinks;  // pod, spine
        std::map<std::string, QRectF> podRect;  // its leaves and its name above them
        for (const FabricSwitch *leaf : m_leaves) {
            const std::string pod = podOf(*leaf);
            podRect[pod] = podRect.count(pod) ? podRect[pod].united(m_switchRect[leaf->name])
                                              : m_switchRect[leaf->name];
        }
        for (const auto &[pod, label] : m_podLabelRect)
            podRect[pod] = podRect[pod].united(label);
        for (size_t i = 0; i < m_fabric.links.size(); ++i) {
            const FabricLink &l = m_fabric.links[i];
            if (l.kind != FabricLink::Kind::LeafToSpine || l.dataCenter != m_options.dataCenter ||
                !m_switchRect.count(l.leaf) || !m_switchRect.count(l.spine))
                continue;
            FabricSceneLine line;
            line.to = QPointF(m_switchRect[l.spine].center().x(), m_switchRect[l.spine].bottom());
            line.loadShare = l.loadShare.value_or(-1);
            line.health = l.health;
            line.uplink = true;
            if (m_options.expandRacks) {
                line.from = QPointF(m_switchRect[l.leaf].center().x(), m_switchRect[l.leaf].top());
                line.link = i;
                m_scene.lines.push_back(std::move(line));
                continue;
            }
            const FabricSwitch *leaf = m_fabric.findSwitch(l.leaf);
            const std::string pod = leaf ? podOf(*leaf) : l.leaf;
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
            m_scene.lines.push_back(std::move(line));
    }

    FabricSceneLine hostLine(const FabricLink &l, QPointF from)
    {
        FabricSceneLine line;
        line.from = from;
        line.to = QPointF(m_switchRect[l.leaf].center().x(), m_switchRect[l.leaf].bottom());
        line.loadShare = l.loadShare.value_or(-1);
        line.health = l.health;
        line.stale = l.stale;
        line.pfcPausesPerSecond = l.pfcPausesPerSecond;
        line.ecnPerSecond = l.ecnPerSecond;
        return line;
    }

    // Expanded: every host and its own links; each rack says its name under its hosts.
    void addHostsOneByOne()
    {
        for (const std::string &rack : m_rackOrder) {
            const QRectF hostsOfRack = m_rackRect[rack];
            m_scene.boxes.push_back({FabricSceneBox::Kind::RackLabel, QString::fromStdString(rack),
                                     rack,
                                     QRectF(hostsOfRack.left(), hostsOfRack.bottom() + 4,
                                            hostsOfRack.width(), kBoxHeight * 0.8)});
        }
        for (const std::string &host : m_hosts) {
            const QRectF r = m_hostRect[host];
            m_scene.boxes.push_back({FabricSceneBox::Kind::Host,
                                     QString::fromStdString(host).section(QLatin1Char('-'), -1),
                                     host, r});
            for (size_t i : m_linksOfHost[host]) {
                const FabricLink &l = m_fabric.links[i];
                if (!m_switchRect.count(l.leaf))
                    continue;
                FabricSceneLine line = hostLine(l, QPointF(r.center().x(), r.top()));
                line.link = i;
                m_scene.lines.push_back(std::move(line));
                ++m_scene.hostLinks;
            }
        }
    }

    // Collapsed: a leaf's hosts gathered into one box under it, joined by one line that
    // shows their worst link (the highest load, the most PFC and ECN, down before up).
    void addHostGroups()
    {
        std::map<std::string, FabricSceneLine> bundles;  // by leaf
        std::map<std::string, std::set<std::string>> hostsOfLeaf;
        for (const std::string &host : m_hosts) {
            for (size_t i : m_linksOfHost[host]) {
                const FabricLink &l = m_fabric.links[i];
                if (!m_switchRect.count(l.leaf))
                    continue;
                ++m_scene.hostLinks;
                hostsOfLeaf[l.leaf].insert(host);
                auto [it, fresh] = bundles.try_emplace(l.leaf);
                FabricSceneLine &b = it->second;
                if (fresh) {
                    b = hostLine(l, groupRect(l.leaf).center());
                } else {
                    b.loadShare = std::max(b.loadShare, l.loadShare.value_or(-1));
                    if (healthRank(l.health) > healthRank(b.health))
                        b.health = l.health;
                    b.stale = b.stale || l.stale;
                    // The worst link of the bundle: a sum would flag a leaf of quiet links.
                    b.pfcPausesPerSecond = std::max(b.pfcPausesPerSecond, l.pfcPausesPerSecond);
                    b.ecnPerSecond = std::max(b.ecnPerSecond, l.ecnPerSecond);
                }
                b.bundled.push_back(i);
            }
        }
        for (auto &[leaf, line] : bundles) {
            const QRectF group = groupRect(leaf);
            line.from = QPointF(group.center().x(), group.top());
            const int hosts = static_cast<int>(hostsOfLeaf[leaf].size());
            FabricSceneBox box{FabricSceneBox::Kind::HostGroup,
                               QObject::tr("%n host(s)", nullptr, hosts), leaf, group};
            box.health = line.health;
            // No short count where the words do not fit: a partial pod's "7" would stand
            // alone beside full pods whose "32" does not fit, reading as stray marks.
            m_scene.boxes.push_back(std::move(box));
            m_scene.lines.push_back(std::move(line));
        }
    }

    QRectF groupRect(const std::string &leaf)
    {
        const QRectF r = m_switchRect[leaf];
        return QRectF(r.left(), r.bottom() + m_rowGap * kLeafLabelShare, r.width(),
                      m_rowGap * kHostGroupShare);
    }

    // Collapsed, one leaf opened: its hosts in their places below, each joined to the
    // leaf's box of hosts by its own link.
    void addOpenLeafHosts()
    {
        if (m_options.openLeaf.empty() || !m_switchRect.count(m_options.openLeaf))
            return;
        const QRectF group = groupRect(m_options.openLeaf);
        for (const std::string &host : m_hosts) {
            for (size_t i : m_linksOfHost[host]) {
                const FabricLink &l = m_fabric.links[i];
                if (l.leaf != m_options.openLeaf)
                    continue;
                const QRectF r = m_hostRect[host];
                m_scene.boxes.push_back({FabricSceneBox::Kind::Host,
                                         QString::fromStdString(host).section(QLatin1Char('-'), -1),
                                         host, r});
                FabricSceneLine line = hostLine(l, QPointF(r.center().x(), r.top()));
                line.to = QPointF(group.center().x(), group.bottom());
                line.link = i;
                m_scene.lines.push_back(std::move(line));
            }
        }
    }

    const Fabric &m_fabric;
    const std::map<std::string, std::string> &m_rackOfNode;
    const FabricSceneOptions &m_options;
    FabricScene m_scene;

    std::map<std::string, std::vector<size_t>> m_linksOfHost;
    std::vector<std::string> m_hosts;  // by rack, then name
    std::map<std::string, QRectF> m_hostRect;
    std::map<std::string, QRectF> m_rackRect;
    std::vector<std::string> m_rackOrder;
    std::map<std::string, std::vector<double>> m_hostXsOfLeaf;
    std::vector<const FabricSwitch *> m_leaves, m_spines;
    std::map<std::string, QRectF> m_switchRect;
    std::map<std::string, QRectF> m_podLabelRect;
    double m_rowGap = kFabricMinRowGap;
    double m_switchHeight = kBoxHeight;
    double m_hostsY = 0;
    double m_width = 0;      // of the host row
    double m_fullWidth = 0;  // of the widest row
};

}  // namespace

FabricScene layoutFabricScene(const Fabric &fabric,
                              const std::map<std::string, std::string> &rackOfNode,
                              const FabricSceneOptions &options)
{
    return SceneLayout(fabric, rackOfNode, options).run();
}

}  // namespace meridian

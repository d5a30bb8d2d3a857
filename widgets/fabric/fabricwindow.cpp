#include "fabricwindow.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <set>
#include <utility>

#include "core/clock.h"
#include "fabriclegend.h"
#include "fabricview.h"
#include "models/fabric/findingwords.h"
#include "models/metricscale.h"
#include "widgets/historychart.h"
#include "widgets/screenfit.h"

namespace meridian {

namespace {

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

// Names come from agents' LLDP and the fabric file: in the details' rich text they are
// shown as their characters, never as markup.
QString html(const std::string &s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

std::string keyOf(const FabricLink &l)
{
    return l.hostNode + " " + l.netdev;
}

QString describe(const FabricLink &l)
{
    const QString load = l.loadShare ? QStringLiteral("%1%").arg(*l.loadShare * 100, 0, 'f', 1)
                                     : QObject::tr("unknown");
    const QString health = l.health == LinkHealth::Down       ? QObject::tr("DOWN")
                           : l.health == LinkHealth::Flapping ? QObject::tr("FLAPPING")
                                                              : QObject::tr("up");
    if (l.kind == FabricLink::Kind::LeafToSpine)
        return QObject::tr(
                   "<b>%1 → %2</b><br/>uplink, %3 Gb/s; load %4 (estimated from the hosts below)")
            .arg(html(l.leaf), html(l.spine))
            .arg(l.capacityBitsPerSecond / 1e9, 0, 'f', 0)
            .arg(load);
    return QObject::tr(
               "<b>%1 %2 → %3 %4</b><br/>rail %5, %6 Gb/s, %7; load %8<br/>PFC pauses "
               "%9/s · ECN + CNP %10/s%11")
        .arg(html(l.hostNode), html(l.netdev), html(l.leaf), html(l.leafPort))
        .arg(l.rail ? QString::number(*l.rail) : QStringLiteral("?"))
        .arg(l.capacityBitsPerSecond / 1e9, 0, 'f', 0)
        .arg(health, load)
        .arg(l.pfcPausesPerSecond, 0, 'f', 0)
        .arg(l.ecnPerSecond, 0, 'f', 0)
        .arg(l.stale ? QObject::tr("<br/>neighbour not reported lately: as last seen") : QString());
}

}  // namespace

FabricWindow::FabricWindow(const FleetState &state, std::optional<FabricFile> file,
                           QString fileProblem, QWidget *parent, const Clock &clock)
    : QMainWindow(parent), m_source(new FabricSource(state, std::move(file), clock, this))
{
    setWindowFlag(Qt::Window);
    setWindowTitle(tr("Meridian — RoCE fabric"));
    buildToolBar();
    auto *split = new QSplitter(this);
    m_view = new FabricView(split);
    QWidget *side = buildSidePanel(split, fileProblem);
    split->addWidget(m_view);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    setCentralWidget(split);

    connect(m_dataCenter, &QComboBox::currentIndexChanged, this, [this] {
        m_openLeaf.clear();
        relayout();
        m_view->fitAll();
    });
    connect(m_rail, &QComboBox::currentIndexChanged, this, [this] { relayout(); });
    connect(m_view, &FabricView::expandRacksChanged, this, [this] { relayout(); });
    connect(m_view, &FabricView::resized, this, [this] { relayout(); });
    connect(m_view, &FabricView::lineClicked, this, &FabricWindow::selectLine);
    connect(m_view, &FabricView::boxClicked, this, &FabricWindow::selectBox);
    connect(m_findings, &QListWidget::currentRowChanged, this, &FabricWindow::selectFinding);
    connect(m_source, &FabricSource::assembled, this, &FabricWindow::assembled);
    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, &FabricWindow::refresh);
    m_timer->start(1000);
    fitToScreen(this, QSize(1400, 860));
    refresh();
}

void FabricWindow::buildToolBar()
{
    QToolBar *bar = addToolBar(tr("Fabric"));
    bar->setMovable(false);
    bar->addWidget(new QLabel(tr("Data center "), bar));
    m_dataCenter = new QComboBox(bar);
    bar->addWidget(m_dataCenter);
    bar->addWidget(new QLabel(tr("  Rail "), bar));
    m_rail = new QComboBox(bar);
    m_rail->addItem(tr("All"), -1);
    for (int r = 0; r < 8; ++r)
        m_rail->addItem(QString::number(r), r);
    bar->addWidget(m_rail);
    bar->addAction(tr("Fit"), this, [this] { m_view->fitAll(); });
    bar->addSeparator();
    bar->addWidget(new QLabel(tr("Path "), bar));
    m_from = new QLineEdit(bar);
    m_from->setPlaceholderText(tr("from node"));
    m_to = new QLineEdit(bar);
    m_to->setPlaceholderText(tr("to node"));
    bar->addWidget(m_from);
    bar->addWidget(m_to);
    bar->addAction(tr("Show"), this, [this] {
        showPath(m_from->text().trimmed().toStdString(), m_to->text().trimmed().toStdString(),
                 rail().value_or(0));
    });
}

QWidget *FabricWindow::buildSidePanel(QWidget *parent, const QString &fileProblem)
{
    auto *side = new QWidget(parent);
    auto *sideLayout = new QVBoxLayout(side);
    m_status = new QLabel(side);
    m_status->setWordWrap(true);
    if (!fileProblem.isEmpty())
        m_status->setText(tr("Fabric file: %1").arg(fileProblem));
    sideLayout->addWidget(m_status);
    sideLayout->addWidget(new FabricLegend(side));
    sideLayout->addWidget(new QLabel(tr("Findings"), side));
    m_findings = new QListWidget(side);
    m_findings->setWordWrap(true);
    sideLayout->addWidget(m_findings, 2);
    m_details = new QLabel(tr("Click a link, a switch or a host."), side);
    m_details->setTextFormat(Qt::RichText);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sideLayout->addWidget(m_details);
    m_alertsButton = new QPushButton(tr("Alerts for this link"), side);
    m_alertsButton->setEnabled(false);
    sideLayout->addWidget(m_alertsButton);
    connect(m_alertsButton, &QPushButton::clicked, this, [this] {
        const size_t space = m_selectedKey.find(' ');
        if (space != std::string::npos)
            Q_EMIT alertsRequested(text(m_selectedKey.substr(0, space)),
                                   text(m_selectedKey.substr(space + 1)));
    });
    m_loadChart = new HistoryChart(tr("Load"), QStringLiteral("%"), 100, side);
    m_pfcChart = new HistoryChart(tr("PFC pauses"), tr("per s"), 10, side);
    sideLayout->addWidget(m_loadChart, 1);
    sideLayout->addWidget(m_pfcChart, 1);
    return side;
}

void FabricWindow::selectFinding(int row)
{
    if (row < 0 || row >= static_cast<int>(fabric().findings.size()))
        return;
    const FabricFinding &f = fabric().findings[static_cast<size_t>(row)];
    std::set<size_t> lit;
    for (size_t i = 0; i < fabric().links.size(); ++i) {
        const FabricLink &l = fabric().links[i];
        if (keyOf(l) == f.where || l.leaf == f.where || l.leaf + " " + l.leafPort == f.where)
            lit.insert(i);
    }
    select(lit, findingWords(f).toHtmlEscaped());
}

FabricWindow::~FabricWindow() = default;

std::optional<uint32_t> FabricWindow::rail() const
{
    const int r = m_rail->currentData().toInt();
    return r < 0 ? std::nullopt : std::optional<uint32_t>(static_cast<uint32_t>(r));
}

QString FabricWindow::details() const
{
    return m_details->text();
}

void FabricWindow::refresh()
{
    m_source->refresh();
}

void FabricWindow::assembled()
{
    // Data centers in the fleet's own order (the first is the one shown first).
    // Shown by the name people use, kept by the one the agents report.
    for (const FabricLink &l : fabric().links) {
        if (m_dataCenter->findData(text(l.dataCenter)) < 0)
            m_dataCenter->addItem(dataCenterTitle(l.dataCenter), text(l.dataCenter));
    }
    showHistory();
    // Findings: rebuilt only when they change, so a selection in the list holds.
    QStringList lines;
    for (const FabricFinding &f : fabric().findings)
        lines << findingLine(f);
    QStringList shown;
    for (int i = 0; i < m_findings->count(); ++i)
        shown << m_findings->item(i)->text();
    if (shown != lines) {
        m_findings->clear();
        m_findings->addItems(lines);
    }
    // The selected host link follows its NIC across reassemblies.
    if (!m_selectedKey.empty()) {
        for (size_t i = 0; i < fabric().links.size(); ++i) {
            if (keyOf(fabric().links[i]) == m_selectedKey) {
                m_selected = {i};
                m_details->setText(describe(fabric().links[i]));
            }
        }
    }
    relayout();
    if (m_pendingFocus) {
        const auto [node, netdev] = *std::exchange(m_pendingFocus, std::nullopt);
        if (!focusNic(node, netdev))
            m_details->setText(tr("%1 %2 is not in the fabric: its agent reports no switch "
                                  "neighbour (LLDP) for it")
                                   .arg(html(node), html(netdev)));
    }
}

void FabricWindow::showHistory()
{
    // The selected NIC's last 15 minutes.
    std::vector<HistoryPoint> load, pfc;
    const size_t space = m_selectedKey.find(' ');
    if (space != std::string::npos) {
        double capacity = 0;
        for (const FabricLink &l : fabric().links) {
            if (keyOf(l) == m_selectedKey)
                capacity = l.capacityBitsPerSecond;
        }
        for (const NicPoint &p : m_source->nicHistory(m_selectedKey.substr(0, space),
                                                      m_selectedKey.substr(space + 1))) {
            const float busier = std::max(p.rxBitsPerSecond, p.txBitsPerSecond);
            load.push_back({p.timeUnixMs, capacity > 0 ? static_cast<float>(busier / capacity * 100)
                                                       : std::numeric_limits<float>::quiet_NaN()});
            pfc.push_back({p.timeUnixMs, p.pfcPausesPerSecond});
        }
    }
    m_loadChart->setPoints(load, m_source->assembledAtMs());
    m_pfcChart->setPoints(pfc, m_source->assembledAtMs());
}

void FabricWindow::relayout()
{
    FabricSceneOptions options;
    options.dataCenter = m_dataCenter->currentData().toString().toStdString();
    options.rail = rail();
    options.expandRacks = m_view->racksExpanded();
    options.aspect =
        m_view->width() > 0 ? static_cast<double>(m_view->height()) / m_view->width() : 0;
    options.openLeaf = m_openLeaf;
    FabricScene scene = layoutFabricScene(fabric(), m_source->rackOfNode(), options);
    setWindowTitle(tr("Meridian — RoCE fabric — %1: %2 hosts, %3 host links, %4 findings")
                       .arg(m_dataCenter->currentText())
                       .arg(scene.hosts)
                       .arg(scene.hostLinks)
                       .arg(fabric().findings.size()));
    m_view->setScene(std::move(scene));
    m_view->setHighlighted(m_selected);
}

void FabricWindow::select(std::set<size_t> links, const QString &details)
{
    m_selected = std::move(links);
    m_selectedKey.clear();
    if (m_selected.size() == 1 &&
        fabric().links[*m_selected.begin()].kind == FabricLink::Kind::HostToLeaf)
        m_selectedKey = keyOf(fabric().links[*m_selected.begin()]);
    m_details->setText(details);
    m_alertsButton->setEnabled(!m_selectedKey.empty());
    m_view->setHighlighted(m_selected);
    showHistory();
}

void FabricWindow::selectLine(size_t index)
{
    const FabricSceneLine &line = m_view->scene().lines.at(index);
    if (line.link != FabricSceneLine::kAggregate) {
        select({line.link}, describe(fabric().links[line.link]));
        return;
    }
    std::set<size_t> lit(line.bundled.begin(), line.bundled.end());
    const FabricLink &first = fabric().links[line.bundled.front()];
    select(lit, tr("<b>%1 links to %2</b><br/>highest load %3%, PFC %4/s, ECN + CNP %5/s. "
                   "Click the box of hosts to open it, or zoom in to see each host.")
                    .arg(line.bundled.size())
                    .arg(html(first.leaf))
                    .arg(std::max(0.0, line.loadShare * 100), 0, 'f', 1)
                    .arg(line.pfcPausesPerSecond, 0, 'f', 0)
                    .arg(line.ecnPerSecond, 0, 'f', 0));
}

void FabricWindow::selectBox(size_t index)
{
    const FabricSceneBox box = m_view->scene().boxes.at(index);
    if (box.kind == FabricSceneBox::Kind::HostGroup) {
        // A leaf's gathered hosts open in place below it; a second click closes them.
        m_openLeaf = m_openLeaf == box.key ? std::string() : box.key;
        relayout();
    }
    const auto podOf = [this](const std::string &leaf) {
        const FabricSwitch *s = fabric().findSwitch(leaf);
        return s && s->pod ? std::to_string(*s->pod) : std::string();
    };
    const auto rackOf = [this](const std::string &node) {
        const auto it = m_source->rackOfNode().find(node);
        return it == m_source->rackOfNode().end() ? std::string() : it->second;
    };
    std::set<size_t> lit;
    for (size_t i = 0; i < fabric().links.size(); ++i) {
        const FabricLink &l = fabric().links[i];
        const bool mine =
            l.hostNode == box.key || l.leaf == box.key || l.spine == box.key ||
            (box.kind == FabricSceneBox::Kind::RackLabel && rackOf(l.hostNode) == box.key) ||
            (box.kind == FabricSceneBox::Kind::PodLabel && podOf(l.leaf) == box.key);
        if (mine)
            lit.insert(i);
    }
    select(lit, tr("<b>%1</b>: %2 links").arg(html(box.key)).arg(lit.size()));
}

bool FabricWindow::showPath(const std::string &from, const std::string &to, uint32_t rail)
{
    const FabricPath path = pathBetween(fabric(), from, to, rail);
    if (path.links.empty()) {
        select({}, tr("No path: %1").arg(html(path.why)));
        return false;
    }
    QStringList hops;
    for (const std::string &h : path.hops)
        hops << html(h);
    select({path.links.begin(), path.links.end()},
           tr("<b>Path on rail %1</b><br/>%2").arg(rail).arg(hops.join(QStringLiteral(" → "))));
    return true;
}

void FabricWindow::zoomToLink(size_t link)
{
    // Close enough that racks open into hosts, with the NIC's host a quarter of the view
    // below the middle: the link climbs from there toward its leaf. Opening the racks lays
    // the scene out anew, so the host is looked up again once the zoom is set.
    const auto hostEnd = [&]() -> std::optional<QPointF> {
        for (const FabricSceneLine &line : m_view->scene().lines) {
            if (line.link == link ||
                std::find(line.bundled.begin(), line.bundled.end(), link) != line.bundled.end())
                return line.from;
        }
        return std::nullopt;
    };
    const double zoom = std::max(m_view->zoom(), FabricView::kExpandAtZoom * 2);
    for (int pass = 0; pass < 2; ++pass) {
        const auto host = hostEnd();
        if (!host)
            return;
        m_view->centerOn(*host - QPointF(0, m_view->height() * 0.25 / zoom), zoom);
    }
}

bool FabricWindow::focusNic(const std::string &nodeId, const std::string &netdev)
{
    if (m_source->assembledAtMs() == 0) {
        // Opened from an alert a moment ago: the fabric is still being put together, and a
        // data center chosen now would be lost to the first one listed when it comes.
        m_pendingFocus.emplace(nodeId, netdev);
        return true;
    }
    for (size_t i = 0; i < fabric().links.size(); ++i) {
        const FabricLink &l = fabric().links[i];
        if (l.hostNode != nodeId || (!netdev.empty() && l.netdev != netdev))
            continue;
        m_dataCenter->setCurrentIndex(m_dataCenter->findData(text(l.dataCenter)));
        select({i}, describe(l));
        zoomToLink(i);
        return true;
    }
    return false;
}

}  // namespace meridian

#include "nodepage.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "models/fleet/nodepagemodels.h"
#include "models/metricscale.h"
#include "widgets/screenfit.h"

namespace meridian {

namespace {

constexpr size_t kNodeEventsShown = 100;

QTableView *newTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    return view;
}

}  // namespace

NodePage::NodePage(const FleetSnapshotSource &source, NodeHandle node, QWidget *parent)
    : QDialog(parent)
    , m_source(source)
    , m_node(node)
    , m_cards(new NodeCardsModel(this))
    , m_links(new NodeLinksModel(this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(this);
    m_heading = new QLabel(this);
    m_heading->setTextFormat(Qt::RichText);
    m_heading->setWordWrap(true);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_heading);
    layout->addWidget(new QLabel(tr("Cards (double-click one to open it)"), this));
    m_cardsView = newTable(m_cards, this);
    layout->addWidget(m_cardsView, 3);
    connect(m_cardsView, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        Q_EMIT cardRequested(index.data(NodeCardsModel::CardRole).toUInt());
    });
    layout->addWidget(new QLabel(tr("RDMA links"), this));
    layout->addWidget(newTable(m_links, this), 2);
    layout->addWidget(new QLabel(tr("Recent events"), this));
    m_events = new QListWidget(this);
    layout->addWidget(m_events, 2);
    connect(&m_source, &FleetSnapshotSource::snapshotChanged, this,
            [this](const std::shared_ptr<const FleetSnapshot> &s) {
                if (s->takenUnixMs - m_lastRefreshMs >= 1000)
                    refresh(*s);
            });
    fitToScreen(this, QSize(900, 640));
    showNode(node);
}

void NodePage::showNode(NodeHandle node)
{
    m_node = node;
    if (const auto snapshot = m_source.current())
        refresh(*snapshot);
}

void NodePage::refresh(const FleetSnapshot &s)
{
    m_lastRefreshMs = s.takenUnixMs;
    const FleetLayout &l = *s.layout;
    if (m_node >= l.nodeCount())
        return;
    const NodeHandle n = m_node;
    const QString name =
        QString::fromStdString(l.nodeId[n].empty() ? l.nodeAddress[n] : l.nodeId[n]);
    setWindowTitle(tr("Node %1").arg(name));
    QString status;
    switch (s.nodeStatus(n)) {
    case NodeStatus::Live: status = tr("live"); break;
    case NodeStatus::Connecting: status = tr("connecting"); break;
    case NodeStatus::Stale: status = tr("stale"); break;
    case NodeStatus::Unreachable:
        status = tr("unreachable: %1").arg(QString::fromStdString(s.nodeError[n]));
        break;
    }
    QString heading = QStringLiteral("<b>%1</b> · %2 · %3 · %4<br>%5 · %6")
                          .arg(name.toHtmlEscaped(), dataCenterTitle(l.nodeDataCenter[n]),
                               tr("rack %1").arg(QString::fromStdString(l.nodeRack[n])),
                               QString::fromStdString(l.nodeHostname[n]).toHtmlEscaped(),
                               tr("agent %1").arg(QString::fromStdString(l.nodeAddress[n])),
                               status.toHtmlEscaped());
    if (s.nodeLinkFault[n])
        heading += QStringLiteral(" · <b>%1</b>").arg(tr("a link is down or flapping"));
    m_heading->setText(heading);
    m_cards->setNode(s, n);
    m_links->setLinks(m_source.state().hostNics(s.takenUnixMs), l.nodeId[n]);
    m_events->clear();
    for (const Event &e : m_source.recentEvents(n, kNodeEventsShown)) {
        m_events->addItem(QStringLiteral("%1  %2  %3")
                              .arg(QDateTime::fromMSecsSinceEpoch(e.timeUnixMs)
                                       .toString(QStringLiteral("MM-dd HH:mm:ss")),
                                   QString::fromLatin1(eventKindName(e.kind)),
                                   QString::fromStdString(e.message)));
    }
    m_events->scrollToBottom();
}

QString NodePage::heading() const
{
    return m_heading->text();
}

int NodePage::eventCount() const
{
    return m_events->count();
}

}  // namespace meridian

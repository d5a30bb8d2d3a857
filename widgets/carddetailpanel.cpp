#include "carddetailpanel.h"

#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>
#include <cmath>

#include "historychart.h"
#include "models/metricscale.h"
#include "models/storehistoryloader.h"

namespace meridian {

namespace {

constexpr size_t kEventsShown = 50;
constexpr int64_t kStoreHistoryEveryMs = 15'000;  // a store scrapes every 15 s or so

QString eventLine(const Event &e)
{
    const QString when =
        QDateTime::fromMSecsSinceEpoch(e.timeUnixMs).toString(QStringLiteral("MM-dd HH:mm:ss"));
    return QStringLiteral("%1  #%2  %3")
        .arg(when)
        .arg(e.sequence)
        .arg(QString::fromStdString(e.message));
}

}  // namespace

CardDetailPanel::CardDetailPanel(const FleetSnapshotSource &source, QWidget *parent)
    : QWidget(parent), m_source(source)
{
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(tr("Select a card in the fleet to see its history."), this);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    layout->addWidget(m_title);
    // Until a card is chosen only the hint shows: empty charts look like a dead card.
    m_body = new QWidget(this);
    m_body->hide();
    layout->addWidget(m_body, 1);
    auto *body = new QVBoxLayout(m_body);
    body->setContentsMargins(0, 0, 0, 0);
    m_fault = new QLabel(m_body);
    m_fault->setWordWrap(true);
    m_fault->setObjectName(QStringLiteral("cardFault"));
    // Dark red on pale red reads in both themes: the panel sets its own colours.
    m_fault->setStyleSheet(
        QStringLiteral("QLabel { background: #fde7e7; color: #8b0000; border: 1px solid #c62828; "
                       "border-radius: 3px; padding: 4px; font-weight: bold; }"));
    m_fault->hide();
    body->addWidget(m_fault);
    m_inventory = new QLabel(m_body);
    m_inventory->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_inventory->setWordWrap(true);
    body->addWidget(m_inventory);
    // A store keeps days of history; this console's own memory of a card, 15 minutes.
    m_period = new QComboBox(m_body);
    const std::pair<QString, int> periods[] = {{tr("Last 15 minutes"), 15 * 60},
                                               {tr("Last hour"), 3600},
                                               {tr("Last 6 hours"), 6 * 3600},
                                               {tr("Last 24 hours"), 24 * 3600},
                                               {tr("Last 7 days"), 7 * 24 * 3600}};
    for (const auto &[name, seconds] : periods)
        m_period->addItem(name, seconds);
    m_period->setToolTip(
        tr("Longer periods come from the Prometheus-compatible store that "
           "holds the card; agents' cards show the last 15 minutes"));
    m_period->setEnabled(false);
    connect(m_period, &QComboBox::currentIndexChanged, this,
            [this] { setHistoryWindow(m_period->currentData().toInt()); });
    body->addWidget(m_period);
    m_charts[0] =
        new HistoryChart(metricName(FleetMetric::Utilization), QStringLiteral("%"), 100, m_body);
    m_charts[1] =
        new HistoryChart(metricName(FleetMetric::Memory), QStringLiteral("%"), 100, m_body);
    m_charts[2] =
        new HistoryChart(metricName(FleetMetric::Temperature), QStringLiteral("°C"), 100, m_body);
    m_charts[3] =
        new HistoryChart(metricName(FleetMetric::Power), QStringLiteral("W"), 500, m_body);
    for (HistoryChart *chart : m_charts)
        body->addWidget(chart, 1);
    body->addWidget(new QLabel(tr("Recent events on this node"), m_body));
    m_events = new QListWidget(m_body);
    m_events->setMinimumHeight(80);
    m_events->setMaximumHeight(140);
    body->addWidget(m_events);
}

void CardDetailPanel::showCard(CardHandle card, const FleetSnapshot &snapshot)
{
    m_card = card;
    m_lastRefreshMs = 0;
    m_body->show();
    update(snapshot);
}

void CardDetailPanel::refresh(const FleetSnapshot &snapshot)
{
    if (!m_card || !isVisible() || snapshot.takenUnixMs - m_lastRefreshMs < 1000)
        return;
    update(snapshot);
}

void CardDetailPanel::showFault(const FleetSnapshot &s, CardHandle c)
{
    // The node may be live while this card is not: an Xid 79 card falls off the bus and
    // reports nothing more, and "live" alone would say all is well.
    QStringList faults;
    if (s.errors[c] > 0)
        faults << tr(
            "Faulty: %n uncorrectable error(s) (Xid or ECC) since this console started; "
            "see the alert list (Ctrl+L) for what to do.",
            nullptr, static_cast<int>(s.errors[c]));
    const NodeHandle n = s.layout->cardNode[c];
    const bool nodeReports = !s.nodeStale(n) && s.nodeConnection[n] != ConnectionState::Unreachable;
    // Three of the node's intervals without this card, as a node is stale after three.
    const bool cardSilent =
        std::isnan(s.utilization[c]) ||
        s.nodeLastSeenMs[n] - s.cardLastSeenMs[c] > 3 * std::max<int64_t>(s.nodeIntervalMs[n], 1);
    if (nodeReports && cardSilent)
        faults << tr("No reading: its node reports, this card does not.");
    m_fault->setText(faults.join(QLatin1Char(' ')));
    m_fault->setVisible(!faults.isEmpty());
}

void CardDetailPanel::update(const FleetSnapshot &s)
{
    m_lastRefreshMs = s.takenUnixMs;
    const FleetLayout &l = *s.layout;
    const CardHandle c = *m_card;
    if (c >= l.cardCount())
        return;
    const NodeHandle n = l.cardNode[c];
    m_title->setText(tr("%1 · card %2 · %3")
                         .arg(QString::fromStdString(l.nodeId[n]))
                         .arg(l.cardIndex[c])
                         .arg(QString::fromStdString(l.cardModel[c])));
    showFault(s, c);
    QString status = s.nodeStale(n) ? tr("stale") : tr("live");
    if (s.nodeConnection[n] == ConnectionState::Unreachable)
        status = tr("unreachable: %1").arg(QString::fromStdString(s.nodeError[n]));
    // Every reading is as old as the scrape or sample that produced it, not as the screen.
    if (s.cardLastSeenMs[c] > 0)
        status += tr(", reading %1 s old").arg((s.takenUnixMs - s.cardLastSeenMs[c]) / 1000);
    if (m_store && m_store->latest().cardUuid == l.cardUuid[c] &&
        !m_store->latest().problem.empty())
        status += tr("; store history: %1").arg(QString::fromStdString(m_store->latest().problem));
    m_inventory->setText(
        tr("UUID %1<br>%2 · rack %3 · %4 · agent %5 (%6)")
            .arg(QString::fromStdString(l.cardUuid[c]), dataCenterTitle(l.nodeDataCenter[n]),
                 QString::fromStdString(l.nodeRack[n]), QString::fromStdString(l.nodeHostname[n]),
                 QString::fromStdString(l.nodeAddress[n]), status.toHtmlEscaped()));
    const CardMetric metrics[] = {CardMetric::Utilization, CardMetric::Memory,
                                  CardMetric::Temperature, CardMetric::Power};
    const bool fromStore = m_store && isStoreNodeAddress(l.nodeAddress[n]);
    m_shownUuid = l.cardUuid[c];
    m_period->setEnabled(fromStore);
    if (!fromStore && m_period->currentIndex() != 0)
        m_period->setCurrentIndex(0);  // an agent's card: what this console kept
    if (fromStore &&
        (m_storeCard != l.cardUuid[c] || s.takenUnixMs - m_storeAskedMs >= kStoreHistoryEveryMs)) {
        m_storeAskedMs = s.takenUnixMs;
        m_store->request(l.cardUuid[c], s.takenUnixMs, m_period->currentData().toInt());
    }
    if (!fromStore || m_storeCard != l.cardUuid[c]) {
        // Until the store answers, what this console has seen itself.
        for (int i = 0; i < 4; ++i)
            m_charts[i]->setPoints(m_source.history(c, metrics[i]), s.takenUnixMs);
    }
    m_events->clear();
    for (const Event &e : m_source.recentEvents(n, kEventsShown))
        m_events->addItem(eventLine(e));
    m_events->scrollToBottom();
}

void CardDetailPanel::setStoreHistory(StoreHistoryLoader *loader)
{
    m_store = loader;
    connect(loader, &StoreHistoryLoader::loaded, this, &CardDetailPanel::showStoreHistory);
}

void CardDetailPanel::showStoreHistory(const QString &cardUuid)
{
    const StoreHistory &history = m_store->latest();
    if (history.problem.empty()) {
        m_storeCard = cardUuid.toStdString();
        for (size_t i = 0; i < history.series.size(); ++i)
            m_charts[i]->setPoints(history.series[i], m_storeAskedMs);
    }
}

void CardDetailPanel::setHistoryWindow(int seconds)
{
    for (HistoryChart *chart : m_charts)
        chart->setWindowSeconds(seconds);
    if (m_store && !m_shownUuid.empty() && m_period->isEnabled()) {
        m_storeAskedMs = m_lastRefreshMs;  // the time of the snapshot shown
        m_store->request(m_shownUuid, m_storeAskedMs, seconds);
    }
}

QString CardDetailPanel::title() const
{
    return m_title->text();
}

int CardDetailPanel::eventCount() const
{
    return m_events->count();
}

}  // namespace meridian

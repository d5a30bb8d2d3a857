#include "carddetailpanel.h"

#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "models/fleet/cardconditions.h"
#include "models/fleet/storehistoryloader.h"
#include "models/metricscale.h"
#include "widgets/historychart.h"

namespace meridian {

namespace {

constexpr size_t kCardEventsShown = 50;
constexpr int64_t kStoreHistoryEveryMs = 15'000;  // a store scrapes every 15 s or so
constexpr int64_t kUsageHistoryEveryMs = 60'000;  // the history file holds minutes
constexpr int kKeptInMemoryS = 15 * 60;
constexpr CardMetric kChartMetrics[] = {CardMetric::Utilization, CardMetric::Memory,
                                        CardMetric::Temperature, CardMetric::Power};

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
                       "border-radius: 3px; padding: 4px; }"));
    m_fault->setTextFormat(Qt::RichText);
    m_fault->hide();
    body->addWidget(m_fault);
    m_inventory = new QLabel(m_body);
    m_inventory->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_inventory->setWordWrap(true);
    body->addWidget(m_inventory);
    m_openNode = new QPushButton(tr("Node…"), m_body);
    m_openNode->setToolTip(tr("The node's cards, RDMA links and events"));
    connect(m_openNode, &QPushButton::clicked, this, [this] {
        const auto snapshot = m_source.current();
        if (m_card && snapshot && *m_card < snapshot->cardCount())
            Q_EMIT nodeRequested(snapshot->layout->cardNode[*m_card]);
    });
    body->addWidget(m_openNode, 0, Qt::AlignLeft);
    buildPeriodChoice(body);
    m_rangeNote = new QLabel(
        tr("Utilisation and power from the history file; memory and temperature are kept "
           "for the last 15 minutes."),
        m_body);
    m_rangeNote->setWordWrap(true);
    m_rangeNote->hide();
    body->addWidget(m_rangeNote);
    buildCharts(body);
}

void CardDetailPanel::buildCharts(QVBoxLayout *body)
{
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
    m_events->setWordWrap(true);  // an event's detail is read whole, not cut at the edge
    m_events->setMinimumHeight(80);
    m_events->setMaximumHeight(140);
    body->addWidget(m_events);
}

void CardDetailPanel::buildPeriodChoice(QVBoxLayout *body)
{
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
    // Each condition of the card and its node as its alert tells it: what, what it means,
    // what to do; an Xid by its code.
    QStringList lines;
    for (const CardConditionNote &note :
         cardConditionNotes(s, c, m_alerts ? m_alerts() : nullptr)) {
        QString line = QStringLiteral("<b>%1</b>").arg(note.title.toHtmlEscaped());
        if (!note.handling.isEmpty())
            line += QStringLiteral(" (%1)").arg(note.handling.toHtmlEscaped());
        // An Xid's title is its meaning already ("GPU fell off the bus (Xid 79)").
        if (!note.title.startsWith(note.meaning))
            line += QStringLiteral("<br>%1.").arg(note.meaning.toHtmlEscaped());
        // A link's two ends, as the fabric names them: where the cable is to be looked at.
        if (!note.netdev.empty())
            line += QStringLiteral("<br>") +
                    linkEndsText(m_source.state().nicsOf(s.layout->cardNode[c]), note.netdev)
                        .toHtmlEscaped();
        line += QStringLiteral("<br>") + tr("<i>Next:</i> %1.").arg(note.nextStep.toHtmlEscaped());
        lines << line;
    }
    if (s.errors[c] > 0)
        lines << tr("%n uncorrectable error(s) (Xid or ECC) since this console started.", nullptr,
                    static_cast<int>(s.errors[c]));
    // The node may be live while this card is not: an Xid 79 card falls off the bus and
    // reports nothing more, and "live" alone would say all is well.
    const NodeHandle n = s.layout->cardNode[c];
    const bool nodeReports = !s.nodeStale(n) && s.nodeConnection[n] != ConnectionState::Unreachable;
    // Three of the node's intervals without this card, as a node is stale after three.
    const bool cardSilent =
        std::isnan(s.utilization[c]) ||
        s.nodeLastSeenMs[n] - s.cardLastSeenMs[c] > 3 * std::max<int64_t>(s.nodeIntervalMs[n], 1);
    if (nodeReports && cardSilent)
        lines << tr("No reading: its node reports, this card does not.");
    m_fault->setText(lines.join(QStringLiteral("<br><br>")));
    m_fault->setVisible(!lines.isEmpty());
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
    for (const StoreHistoryLoader *loader : {m_store, m_usage}) {
        if (loader && loader->latest().cardUuid == l.cardUuid[c] &&
            !loader->latest().problem.empty())
            status += tr("; history: %1").arg(QString::fromStdString(loader->latest().problem));
    }
    m_inventory->setText(
        tr("UUID %1<br>%2 · rack %3 · %4 · agent %5 (%6)")
            .arg(QString::fromStdString(l.cardUuid[c]), dataCenterTitle(l.nodeDataCenter[n]),
                 QString::fromStdString(l.nodeRack[n]), QString::fromStdString(l.nodeHostname[n]),
                 QString::fromStdString(l.nodeAddress[n]), status.toHtmlEscaped()));
    m_shownUuid = l.cardUuid[c];
    const bool fromStore = m_store && isStoreNodeAddress(l.nodeAddress[n]);
    m_period->setEnabled(fromStore || m_usage);
    if (!m_period->isEnabled() && m_period->currentIndex() != 0)
        m_period->setCurrentIndex(0);  // what this console kept is all there is
    StoreHistoryLoader *loader = loaderFor(fromStore);
    const int64_t askEveryMs = loader == m_store ? kStoreHistoryEveryMs : kUsageHistoryEveryMs;
    if (loader && (m_loadedCard != m_shownUuid || m_loadedFrom != loader ||
                   s.takenUnixMs - m_askedMs >= askEveryMs)) {
        m_askedMs = s.takenUnixMs;
        loader->request(m_shownUuid, s.takenUnixMs, m_period->currentData().toInt());
    }
    const bool loaded = loader && m_loadedCard == m_shownUuid && m_loadedFrom == loader;
    const QString empty = emptyNote(loader, loaded);
    for (int i = 0; i < 4; ++i) {
        m_charts[i]->setEmptyNote(empty);
        // Until a loader answers, what this console has seen itself.
        if (!loaded || !loaderKeeps(loader, i))
            m_charts[i]->setPoints(m_source.history(c, kChartMetrics[i]), s.takenUnixMs);
        // What is kept for 15 minutes only is not drawn as a dot on a week's axis: the
        // range note says where it went.
        m_charts[i]->setVisible(!loader || loaderKeeps(loader, i));
    }
    m_rangeNote->setVisible(loader && loader == m_usage);
    m_events->clear();
    for (const Event &e : m_source.recentEvents(n, kCardEventsShown))
        m_events->addItem(eventLine(e));
    m_events->scrollToBottom();
}

void CardDetailPanel::setStoreHistory(StoreHistoryLoader *loader)
{
    m_store = loader;
    connect(loader, &StoreHistoryLoader::loaded, this, [this] { showLoaded(m_store); });
}

void CardDetailPanel::setUsageHistory(StoreHistoryLoader *loader)
{
    m_usage = loader;
    connect(loader, &StoreHistoryLoader::loaded, this, [this] { showLoaded(m_usage); });
    m_period->setToolTip(
        tr("Longer periods come from the Prometheus-compatible store that holds the card, "
           "or from this console's history file: utilisation and power (memory and "
           "temperature are kept for 15 minutes)"));
}

StoreHistoryLoader *CardDetailPanel::loaderFor(bool fromStore) const
{
    if (fromStore)
        return m_store;
    // An agent's card: its last 15 minutes are in memory; longer, the history file.
    return m_period->currentData().toInt() > kKeptInMemoryS ? m_usage : nullptr;
}

bool CardDetailPanel::loaderKeeps(const StoreHistoryLoader *loader, int chart) const
{
    // The history file keeps utilisation and power, not memory or temperature.
    return loader != m_usage || kChartMetrics[chart] == CardMetric::Utilization ||
           kChartMetrics[chart] == CardMetric::Power;
}

void CardDetailPanel::showLoaded(StoreHistoryLoader *loader)
{
    const StoreHistory &history = loader->latest();
    if (history.cardUuid != m_shownUuid)
        return;
    if (!history.problem.empty()) {
        for (HistoryChart *chart : m_charts)
            chart->setEmptyNote(emptyNote(loader, false));
        return;
    }
    m_loadedCard = history.cardUuid;
    m_loadedFrom = loader;
    const QString empty = emptyNote(loader, true);
    for (size_t i = 0; i < history.series.size(); ++i) {
        m_charts[i]->setEmptyNote(empty);
        if (loaderKeeps(loader, static_cast<int>(i)))
            m_charts[i]->setPoints(history.series[i], m_askedMs);
    }
}

QString CardDetailPanel::emptyNote(const StoreHistoryLoader *loader, bool loaded) const
{
    if (!loader)
        return tr("No reading of this card in the last 15 minutes.");
    const StoreHistory &history = loader->latest();
    if (history.cardUuid == m_shownUuid && !history.problem.empty())
        return tr("History not read: %1").arg(QString::fromStdString(history.problem));
    if (!loaded)
        return tr("Reading the history…");
    if (loader != m_usage)
        return tr("The store holds no reading of this card over this period.");
    if (history.historyBeginsUnixMs <= 0)
        return tr(
            "The history file holds no readings yet: it keeps each minute of the "
            "fleet from when this console began recording.");
    const QString begins = QDateTime::fromMSecsSinceEpoch(history.historyBeginsUnixMs)
                               .toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    return tr("Nothing recorded for this card over this period. The history file begins %1.")
        .arg(begins);
}

void CardDetailPanel::setHistoryWindow(int seconds)
{
    for (HistoryChart *chart : m_charts)
        chart->setWindowSeconds(seconds);
    m_loadedCard.clear();  // what was loaded was for the other window
    if (m_card && m_lastRefreshMs > 0) {
        if (const auto snapshot = m_source.current())
            update(*snapshot);
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

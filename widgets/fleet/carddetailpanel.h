// Drill-down for one card: its inventory, utilisation, memory, temperature and power
// over 15 minutes to 7 days, and its node's recent events. Refreshed from FleetState at most
// once a second while visible. Lives on the UI thread.
#pragma once

#include <QWidget>
#include <functional>
#include <optional>
#include <string>

#include "models/fleetsnapshotsource.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QListWidget;
class QVBoxLayout;
class QPushButton;

namespace meridian {

struct AlertsView;
class HistoryChart;
class StoreHistoryLoader;

class CardDetailPanel final : public QWidget {
    Q_OBJECT
public:
    explicit CardDetailPanel(const FleetSnapshotSource &source, QWidget *parent = nullptr);

    void showCard(CardHandle card, const FleetSnapshot &snapshot);
    // Called on every snapshot; does the work at most once a second.
    void refresh(const FleetSnapshot &snapshot);
    std::optional<CardHandle> card() const { return m_card; }
    QString title() const;
    int eventCount() const;
    const HistoryChart *chart(int index) const { return m_charts[index]; }
    // Cards read from a Prometheus-compatible store chart the store's own history.
    void setStoreHistory(StoreHistoryLoader *loader);
    // Agents' cards chart the history file's utilisation and power past 15 minutes.
    void setUsageHistory(StoreHistoryLoader *loader);
    // Where the alerts are read from, so the card's conditions are told in their words
    // (with who handled them); without it, what the fleet shows, in the same words.
    void setAlertsView(std::function<const AlertsView *()> alerts) { m_alerts = std::move(alerts); }
    // The range the charts show, in seconds (15 min, 1 h, 6 h, 24 h, 7 d).
    QComboBox *rangeBox() const { return m_period; }

Q_SIGNALS:
    // "Node…": the card's node page.
    void nodeRequested(NodeHandle node);

private:
    // How far back the charts reach: 15 minutes to 7 days.
    void buildPeriodChoice(QVBoxLayout *body);
    // Utilisation, memory, temperature and power, then the node's recent events.
    void buildCharts(QVBoxLayout *body);
    void update(const FleetSnapshot &snapshot);
    StoreHistoryLoader *loaderFor(bool fromStore) const;
    bool loaderKeeps(const StoreHistoryLoader *loader, int chart) const;
    void showLoaded(StoreHistoryLoader *loader);
    // What an empty chart says: why there is nothing, and since when history exists.
    QString emptyNote(const StoreHistoryLoader *loader, bool loaded) const;
    void setHistoryWindow(int seconds);
    void showFault(const FleetSnapshot &snapshot, CardHandle card);

    const FleetSnapshotSource &m_source;
    std::function<const AlertsView *()> m_alerts;
    std::optional<CardHandle> m_card;
    int64_t m_lastRefreshMs = 0;
    StoreHistoryLoader *m_store = nullptr;  // store-read cards
    StoreHistoryLoader *m_usage = nullptr;  // agents' cards, from the history file
    std::string m_loadedCard;               // the card whose loaded history the charts show
    const StoreHistoryLoader *m_loadedFrom = nullptr;
    int64_t m_askedMs = 0;
    std::string m_shownUuid;  // the card on show
    QComboBox *m_period;      // how far back the charts reach
    QLabel *m_rangeNote;      // what a longer range of an agent's card shows
    QLabel *m_title;
    QWidget *m_body;  // all but the title: shown once a card is chosen
    QLabel *m_inventory;
    QPushButton *m_openNode;
    QLabel *m_fault;  // a faulty or silent card says so before anything else
    HistoryChart *m_charts[4];
    QListWidget *m_events;
};

}  // namespace meridian

// Drill-down for one card: its inventory, 15 minutes of utilisation, memory,
// temperature and power, and its node's recent events. Refreshed from FleetState at most
// once a second while visible. Lives on the UI thread.
#pragma once

#include <QWidget>
#include <optional>
#include <string>

#include "models/fleetsnapshotsource.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QListWidget;

namespace meridian {

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

private:
    void update(const FleetSnapshot &snapshot);
    void showStoreHistory(const QString &cardUuid);
    void setHistoryWindow(int seconds);
    void showFault(const FleetSnapshot &snapshot, CardHandle card);

    const FleetSnapshotSource &m_source;
    std::optional<CardHandle> m_card;
    int64_t m_lastRefreshMs = 0;
    StoreHistoryLoader *m_store = nullptr;
    std::string m_storeCard;  // the card whose store history the charts show
    int64_t m_storeAskedMs = 0;
    std::string m_shownUuid;  // the card on show
    QComboBox *m_period;      // how far back the charts reach (store-read cards)
    QLabel *m_title;
    QWidget *m_body;  // all but the title: shown once a card is chosen
    QLabel *m_inventory;
    QLabel *m_fault;  // a faulty or silent card says so before anything else
    HistoryChart *m_charts[4];
    QListWidget *m_events;
};

}  // namespace meridian

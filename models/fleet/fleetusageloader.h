// Reads the fleet's hourly utilisation from the history file off the UI thread (a week
// of 6,000 cards is a million rows) and hands it back on the UI thread. A request made
// while one runs follows it, with the newest window only. Owned by the UI thread.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <optional>
#include <utility>

#include "history/fleetusageseries.h"

namespace meridian {

struct FleetUsageLoad {
    Result<FleetUsageSeries> series = Error{"not read yet"};
};

class FleetUsageLoader final : public QObject {
    Q_OBJECT
public:
    explicit FleetUsageLoader(QString historyFile, QObject *parent = nullptr);
    ~FleetUsageLoader() override;

    void request(int64_t fromUnixS, int64_t toUnixS);
    const FleetUsageLoad &latest() const { return m_latest; }
    bool loading() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void loaded();

private:
    void start(int64_t fromUnixS, int64_t toUnixS);

    QString m_historyFile;
    QFutureWatcher<FleetUsageLoad> m_watcher;
    FleetUsageLoad m_latest;
    std::optional<std::pair<int64_t, int64_t>> m_next;
};

}  // namespace meridian

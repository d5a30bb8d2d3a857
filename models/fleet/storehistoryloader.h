// A card's recent history from a Prometheus-compatible store, fetched off the UI thread
// (range queries take a network round trip), so the card panel shows the last fifteen
// minutes the store kept even for a card the console has just started to watch. One
// fetch runs at a time; a newer request replaces one still waiting, and an answer for a
// card no longer asked for is dropped. Lives on the UI thread.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "fleet/cardhistory.h"

namespace meridian {

struct StoreHistory {
    std::string cardUuid;
    std::array<std::vector<HistoryPoint>, 4> series;  // utilisation, memory, temperature, power
    std::string problem;                              // set: the store did not answer
    // Where the source's history begins (0: unknown, or it holds none yet), so an empty
    // range can say since when there is anything to show.
    int64_t historyBeginsUnixMs = 0;
};

class StoreHistoryLoader final : public QObject {
    Q_OBJECT
public:
    using Fetch = std::function<Result<std::vector<HistoryPoint>>(
        const std::string &cardUuid, CardMetric metric, int64_t fromUnixS, int64_t toUnixS,
        int64_t stepS)>;

    // Where the source's history begins, in ms (0: unknown or none); asked on the worker.
    using Begins = std::function<int64_t()>;

    StoreHistoryLoader(Fetch fetch, int stepS, QObject *parent = nullptr);
    void setBegins(Begins begins) { m_begins = std::move(begins); }
    ~StoreHistoryLoader() override;

    // The card's last `windowS` seconds, about 360 points of it (never finer than the
    // store's scrape interval).
    void request(const std::string &cardUuid, int64_t nowUnixMs, int64_t windowS = 15 * 60);
    const StoreHistory &latest() const { return m_latest; }

Q_SIGNALS:
    void loaded(const QString &cardUuid);

private:
    void launch(const std::string &cardUuid, int64_t nowUnixMs, int64_t windowS);
    void finished();

    Fetch m_fetch;
    Begins m_begins;
    int m_stepS;
    QFutureWatcher<StoreHistory> m_watcher;
    std::string m_wanted;
    int64_t m_pendingNowMs = 0;
    int64_t m_pendingWindowS = 0;
    bool m_pending = false;
    StoreHistory m_latest;
};

// A loader over the console's history file: utilisation and power of agents' cards
// past the 15 minutes kept in memory (memory and temperature come back empty: the file
// does not keep them). One read of the file per request, off the UI thread.
std::unique_ptr<StoreHistoryLoader> usageHistoryLoader(const std::string &historyFile);

}  // namespace meridian

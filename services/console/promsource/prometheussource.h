// A fleet read from a Prometheus-compatible store instead of from every agent: the cards
// that dcgm-exporter, npu-exporter, mlu-exporter or meridian-agent's /metrics put there,
// written into the same FleetState the gRPC client feeds, so the heatmap, card panel,
// alerts and reports work unchanged.
//
// Each round asks for one compressed snapshot per reading (`max by (host, card) (…)`, a
// few bytes a card) plus the sample times and `up`; the cards themselves (UUID, model,
// data center) are asked for only every few rounds. A card's age is the time of the scrape
// that produced it, so every number on screen shows how old the store's copy is.
// Owned by the console; its own thread polls, and pollOnce() lets tests step it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/clock.h"
#include "core/periodicthread.h"
#include "exporterdialects.h"
#include "fleet/fleetstate.h"
#include "promclient.h"
#include "storeusage.h"

namespace meridian {

class HistoryStore;

struct PrometheusSourceOptions {
    PromEndpoint endpoint;
    std::string dataCenter;         // for series without a `dc` label; empty: "unknown"
    int scrapeIntervalMs = 15'000;  // the store's: a node is stale after three of them
    int pollIntervalMs = 0;         // 0: the scrape interval
    int discoverEveryRounds = 12;   // new and changed cards are found this often
};

class PrometheusSource {
public:
    PrometheusSource(FleetState &state, const Clock &clock, PrometheusSourceOptions options);
    ~PrometheusSource();

    // Connects (checks the URL) and starts polling on the source's thread.
    Status start();
    // Ends a request under way and stops polling. Final: a stopped source's requests are
    // aborted as they start, so it is not started again.
    void stop();

    // One round, on the caller's thread: finds cards when due, then reads every card.
    // An error names the store and the query; the nodes it serves then show it.
    Status pollOnce();

    // One reading of a card over [from, to] from the store (a range query), oldest first;
    // `step` in seconds. For the card panel's history of any period the store keeps.
    // Thread-safe; blocking, so never on the UI thread.
    Result<std::vector<HistoryPoint>> history(const std::string &cardUuid, CardMetric metric,
                                              int64_t fromUnixS, int64_t toUnixS, int64_t stepS);

    // Usage minutes for the cost history, from the store's samples (these nodes have no
    // agent ledger): each round after the readings, an hour at a time from where the
    // history left off, at most a day back. Thread-safe; null stops it.
    void setUsageHistory(HistoryStore *history);
    // One such step now, on the poller's thread (or a test's, with no poller running);
    // true when the history is up to the last whole minute.
    Result<bool> backfillUsage(HistoryStore &history, int64_t nowUnixS, int maxHours = 24);

    size_t nodeCount() const;
    // Why the last round on the source's thread failed; empty when it did not. Never
    // waits on a round: safe on the UI thread.
    std::string lastProblem() const;
    const PrometheusSourceOptions &options() const { return m_options; }

private:
    struct Node;
    struct Reading;
    Status makeClient(std::unique_ptr<PromClient> &client) const;
    Status discover();
    Status discoverDialect(const ExporterDialect &dialect);
    // A round of readings: each dialect's queries, then the scrape targets' health, then
    // into FleetState.
    Status readSnapshots();
    Status readDialect(const ExporterDialect &dialect, std::map<std::string, Reading> &readings);
    Result<std::map<std::string, double>> scrapeHealth();
    void recordReading(Node &node, Reading &reading);
    void recordNewXids(Node &node, const std::vector<CardSample> &cards, int64_t timeMs);
    void markUnreachable(const std::string &why);
    void pollRound();

    FleetState &m_state;
    const Clock &m_clock;
    PrometheusSourceOptions m_options;
    // Both clients' requests: stop() ends one under way instead of waiting out its timeout.
    std::shared_ptr<CallWatch> m_calls;
    std::unique_ptr<PromClient> m_client;  // the poller's
    std::mutex m_historyMutex;
    std::unique_ptr<PromClient> m_historyClient;  // history()'s, from any thread
    mutable std::mutex m_mutex;                   // m_nodes: the poller writes, history() reads
    std::map<std::string, std::unique_ptr<Node>> m_nodes;  // by dialect and host
    int m_round = 0;
    // Its own lock: the UI thread asks every second, and m_mutex is held for the whole
    // of a round's bookkeeping (seconds at 100,000 cards), which stalled the window.
    mutable std::mutex m_problemMutex;
    std::string m_lastProblem;
    std::atomic<HistoryStore *> m_usageHistory{nullptr};
    int64_t m_usageFromS = 0;  // the next usage minute to read

    PeriodicThread m_polls;
};

}  // namespace meridian

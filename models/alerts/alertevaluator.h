// The alert engine on a thread of its own, so that a slow pass (hundreds of alerts
// against five days of an Alertmanager's silences) never stalls the window. What is
// asked of the engine (an evaluation, an acknowledgement, new silences) runs there one at
// a time, in the order it was asked; after each, what the engine holds is published back
// to the owner's thread as an AlertsView, and published() says so. A snapshot that
// arrives while the previous one still waits its turn joins that pass (its events kept),
// so a machine that falls behind evaluates less often, never later and later.
// Made to run on the owner's thread instead (tests, and anyone who needs each change seen
// at once), the same jobs run inline.
#pragma once

#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "alerts/alertengine.h"

namespace meridian {

// What the engine held after one job: its alerts (AlertEngine::alerts), by key too.
struct AlertsView {
    uint64_t sequence = 0;  // the job that made it; later ones are newer
    std::vector<Alert> alerts;
    std::map<std::string, size_t> indexByKey;
    int pending = 0;  // conditions not yet held for their pending duration
    std::set<std::string> pendingKeys;
    bool holdingStaleness = false;
    bool fleetJudged = false;  // AlertEngine::fleetJudged

    // A firing alert (AlertEngine::find), or none.
    const Alert *find(const std::string &key) const;
    int openCount(const std::string &dataCenter, int64_t nowMs) const;
};

class AlertEvaluator final : public QObject {
    Q_OBJECT
public:
    explicit AlertEvaluator(QObject *parent = nullptr);
    ~AlertEvaluator() override;  // waits for the job running, drops those not begun

    // From now on, jobs run on the evaluator's own thread.
    void runOnItsOwnThread();
    bool runsOnItsOwnThread() const { return m_thread != nullptr; }

    // `then`, if any, runs in the same job after the pass, before anything is published
    // (a snapshot that joins a waiting pass brings its own `then` instead).
    void evaluate(std::shared_ptr<const FleetSnapshot> snapshot, std::vector<FleetEvent> events,
                  std::function<void(AlertEngine &)> then = {});
    void change(std::function<void(AlertEngine &)> job);
    // Runs what was asked and publishes the result now.
    void waitForDone();

    // The newest published.
    const AlertsView &view() const { return *m_view; }

Q_SIGNALS:
    void published();

private:
    struct Evaluation {
        std::shared_ptr<const FleetSnapshot> snapshot;
        std::vector<FleetEvent> events;
        std::function<void(AlertEngine &)> then;
    };
    void submit(std::function<void(AlertEngine &)> job);
    // On the engine's thread, after each job.
    void makeView();
    void takeNewest();

    AlertEngine m_engine;  // touched by jobs only
    std::unique_ptr<QThreadPool> m_thread;
    uint64_t m_jobsAsked = 0;  // owner's thread
    // An evaluation queued and not yet begun, and the job number that asked it: a later
    // snapshot joins it only while nothing was asked after it.
    std::mutex m_waitingMutex;
    std::shared_ptr<Evaluation> m_waiting;
    uint64_t m_waitingJob = 0;
    uint64_t m_jobsRun = 0;  // engine's thread
    std::mutex m_newestMutex;
    std::shared_ptr<const AlertsView> m_newest;
    std::shared_ptr<const AlertsView> m_view;
};

}  // namespace meridian

// A console following the team's watcher: its alert list is read over HTTP (under a
// deadline and a size cap, checked as a stranger's answer) to be shown in place of the
// console's own evaluation, with the cards it names found in this console's fleet; what the
// on-call does is sent to the watcher, which records it under the name of the caller's token.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "alertevaluator.h"

class QThreadPool;

namespace meridian {

class CallWatch;

struct AlertRoute;
struct TeamAlerts;
struct TriageRequest;

class TeamWatcherLink final : public QObject {
    Q_OBJECT
public:
    // A watcher answers from memory: a call that takes longer than this is in trouble, and
    // is said so.
    static constexpr int kCallMs = 5000;
    // Reads run on `thread`, in turn with the console's other triage work; each call to the
    // watcher has `callMs`.
    TeamWatcherLink(const AlertRoute &watcher, QThreadPool &thread, int callMs = kCallMs,
                    QObject *parent = nullptr);
    ~TeamWatcherLink() override;

    // The fleet the watcher's alerts are matched to, and this console's time.
    void seeFleet(std::shared_ptr<const FleetLayout> layout, int64_t nowMs);
    // Reads the watcher's list, unless a read is still on its way.
    void poll();
    // The list as last read (empty before the first answer) and the silences with it.
    const AlertsView &view() const { return *m_view; }
    const std::vector<SilenceRule> &silences() const { return m_silences; }
    // "from xm-watch-1", or that it has not been heard from yet.
    QString sourceText() const;
    // Ends the watcher's read under way, and any started later, at once (closing).
    void abortCalls();
    // A job that sends `request` to the watcher, for the console's triage thread: the
    // problem in words, or "" when the watcher took it.
    std::function<std::string()> sendJob(const TriageRequest &request) const;

Q_SIGNALS:
    // A newer list was read: view() and silences() hold it.
    void changed();
    // The watcher cannot be read, or is behind, in words; empty when that ended. Said when
    // it changes only.
    void problem(const QString &text);

private:
    struct Read {
        std::shared_ptr<TeamAlerts> team;  // none: not read
        std::string problem;
    };
    static Read read(const AlertRoute &watcher, int callMs, CallWatch &calls);
    void take(const Read &read);
    void sayProblem(const QString &text);
    // The watcher's alerts carry its node and card names: the handles here are found.
    void findCards(std::vector<Alert> &alerts) const;

    std::shared_ptr<const AlertRoute> m_watcher;
    QThreadPool &m_thread;
    int m_callMs;
    std::shared_ptr<const AlertsView> m_view;
    std::vector<SilenceRule> m_silences;
    std::string m_name;
    int64_t m_heardMs = 0;  // this console's clock, when the watcher last answered
    QString m_problem;      // as last said
    std::shared_ptr<const FleetLayout> m_layout;
    int64_t m_nowMs = 0;
    // The read under way, ended when the link goes (a console closing, another watcher
    // chosen) rather than waited out to its deadline.
    std::shared_ptr<CallWatch> m_calls;
    QFutureWatcher<Read> m_reading;
};

}  // namespace meridian

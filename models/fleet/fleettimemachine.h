// The fleet as it was at a past minute, from the history file: each card's utilisation
// then (the minute within the last day, the hour before that), the alerts open then and
// the scaling steps of the hour before, drawn on today's layout. Read off the UI thread,
// one read at a time; while a slider drags, a newer moment replaces one still waiting, so
// the UI thread only ever hands over a time and takes back a finished snapshot.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "alerts/alertincident.h"
#include "autoscaler/scalingjournal.h"
#include "fleet/fleetstate.h"

namespace meridian {

struct FleetMoment {
    int64_t atUnixMs = 0;  // the minute's or hour's start
    int64_t grainS = 60;
    // The fleet then on today's layout: utilisation as recorded (NaN where nothing was),
    // the other readings unknown, a card or node with an alert open then marked faulty.
    std::shared_ptr<const FleetSnapshot> snapshot;
    int cardsRecorded = 0;
    std::vector<AlertIncident> openAlerts;
    std::vector<JournalStep> steps;   // created in the hour before, newest first
    int64_t historyBeginsUnixMs = 0;  // 0: the file holds no minutes yet
    std::string problem;              // set: the file could not be read
};

// An alert open then as the bar names it: the kind's title and its subject.
QString openAlertLine(const AlertIncident &incident);

// How far back minutes are shown before hours (the "minute, hour beyond a day").
constexpr int64_t kTimeMachineMinutesForS = 24 * 3600;

// The moment `atUnixMs` on `live`'s layout from what the file holds; pure, for tests and
// the worker alike.
FleetMoment readFleetMoment(const std::string &historyFile, const FleetSnapshot &live,
                            int64_t atUnixMs, int64_t nowUnixMs);

class FleetTimeMachine final : public QObject {
    Q_OBJECT
public:
    explicit FleetTimeMachine(std::string historyFile, QObject *parent = nullptr);
    ~FleetTimeMachine() override;

    // The fleet at `atUnixMs`, drawn on `live`'s layout; momentReady() when read.
    void request(int64_t atUnixMs, std::shared_ptr<const FleetSnapshot> live, int64_t nowUnixMs);
    const FleetMoment &latest() const { return m_latest; }
    bool busy() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void momentReady();

private:
    struct Ask {
        int64_t atUnixMs = 0;
        int64_t nowUnixMs = 0;
        std::shared_ptr<const FleetSnapshot> live;
    };
    void launch(Ask ask);
    void finished();

    std::string m_historyFile;
    QFutureWatcher<FleetMoment> m_watcher;
    std::optional<Ask> m_pending;
    FleetMoment m_latest;
};

}  // namespace meridian

// The Plan view's work, off the UI thread: the demand file read, scaled to the service's
// peak, and planned (or backtested) with the card costs asked. The newest request wins;
// what comes back is the plan or the backtest, or the problem with a file named.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "plan/capacityplanner.h"

namespace meridian {

struct PlanAsked {
    QString demandFile;
    // Set: the demand its controller recorded for this service in `recordedIn` (a history
    // file or a controller's journal) instead of a demand file.
    QString service;
    QString recordedIn;
    QString costsFile;  // empty: the provider's figures
    double peakCards = 64;
    bool backtest = false;
};

struct PlanLoaded {
    PlanAsked asked;
    std::optional<CapacityPlan> plan;
    std::optional<Backtest> backtest;
    std::vector<CardCost> cards;
    PlanOptions options;
    QString problem;
    size_t gapHours = 0;  // of recorded demand: not recorded, filled from the other weeks
};

PlanLoaded loadPlan(const PlanAsked &asked);

// The services `historyFile` keeps demand by the hour for; none, and `problem` said, where
// it cannot be read.
QStringList recordedPlanServices(const QString &historyFile, QString &problem);

class PlanLoader final : public QObject {
    Q_OBJECT
public:
    explicit PlanLoader(QObject *parent = nullptr);
    ~PlanLoader() override;

    void request(const PlanAsked &asked);
    bool busy() const { return m_watcher.isRunning(); }
    const PlanLoaded &latest() const { return m_latest; }

Q_SIGNALS:
    void loaded();

private:
    QFutureWatcher<PlanLoaded> m_watcher;
    std::optional<PlanAsked> m_next;
    PlanLoaded m_latest;
};

}  // namespace meridian

// The Plan view's work, off the UI thread: the demand file read, scaled to the service's
// peak, and planned (or backtested) with the card costs asked. The newest request wins;
// what comes back is the plan or the backtest, or the problem with a file named.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "plan/capacityplanner.h"

namespace meridian {

struct PlanAsked {
    QString demandFile;
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
};

PlanLoaded loadPlan(const PlanAsked &asked);

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

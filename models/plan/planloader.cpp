#include "planloader.h"

#include <QtConcurrent>

#include "plan/demandseries.h"
#include "plan/recordeddemand.h"

namespace meridian {

namespace {

// What the demand came from, for a problem's words: the file, or the recorded service.
QString sourceName(const PlanAsked &asked)
{
    return asked.service.isEmpty() ? asked.demandFile
                                   : QObject::tr("%1's recorded demand").arg(asked.service);
}

}  // namespace

PlanLoaded loadPlan(const PlanAsked &asked)
{
    PlanLoaded out;
    out.asked = asked;
    auto series = readPlanDemand(asked.demandFile.toStdString(), asked.recordedIn.toStdString(),
                                 asked.service.toStdString());
    if (!series) {
        out.problem = QString::fromStdString(series.error().message);
        return out;
    }
    out.gapHours = series->gapMinutes / 60;
    auto cards = asked.costsFile.isEmpty() ? Result<std::vector<CardCost>>(defaultCardCosts())
                                           : loadCardCosts(asked.costsFile.toStdString());
    if (!cards) {
        out.problem = QString::fromStdString(cards.error().message);
        return out;
    }
    out.cards = cards.value();
    const std::vector<double> need =
        replicasAtPeak(series->series.rps, asked.peakCards, out.options.model.cardsPerReplica);
    if (need.empty()) {
        out.problem = QObject::tr("%1: no demand in it").arg(sourceName(asked));
        return out;
    }
    if (asked.backtest) {
        Backtest b = backtestPlan(need, 1, out.cards, out.options);
        if (b.rows.empty())
            out.problem = QObject::tr("%1: a backtest needs two whole weeks of demand")
                              .arg(sourceName(asked));
        else
            out.backtest = std::move(b);
        return out;
    }
    CapacityPlan plan = planCapacity(need, series->series.name, out.cards, out.options);
    if (plan.forecast.week.empty())
        out.problem = QObject::tr("%1: a plan needs a whole week of demand").arg(sourceName(asked));
    else
        out.plan = std::move(plan);
    return out;
}

QStringList recordedPlanServices(const QString &historyFile, QString &problem)
{
    QStringList names;
    const auto services = recordedServices(historyFile.toStdString());
    if (!services) {
        problem = QString::fromStdString(services.error().message);
        return names;
    }
    for (const std::string &service : services.value())
        names << QString::fromStdString(service);
    return names;
}

PlanLoader::PlanLoader(QObject *parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<PlanLoaded>::finished, this, [this] {
        m_latest = m_watcher.result();
        if (m_next) {
            const PlanAsked next = *std::exchange(m_next, std::nullopt);
            request(next);  // a newer question was asked meanwhile: its answer is the one
            return;
        }
        Q_EMIT loaded();
    });
}

PlanLoader::~PlanLoader()
{
    m_watcher.waitForFinished();
}

void PlanLoader::request(const PlanAsked &asked)
{
    if (m_watcher.isRunning()) {
        m_next = asked;
        return;
    }
    m_watcher.setFuture(QtConcurrent::run([asked] { return loadPlan(asked); }));
}

}  // namespace meridian

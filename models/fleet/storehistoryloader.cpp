#include "storehistoryloader.h"

#include <QtConcurrent/QtConcurrentRun>

#include "history/cardusageseries.h"

namespace meridian {

StoreHistoryLoader::StoreHistoryLoader(Fetch fetch, int stepS, QObject *parent)
    : QObject(parent), m_fetch(std::move(fetch)), m_stepS(std::max(1, stepS))
{
    connect(&m_watcher, &QFutureWatcher<StoreHistory>::finished, this,
            &StoreHistoryLoader::finished);
}

StoreHistoryLoader::~StoreHistoryLoader()
{
    m_watcher.waitForFinished();  // the fetch holds m_fetch; at most one timeout long
}

void StoreHistoryLoader::request(const std::string &cardUuid, int64_t nowUnixMs, int64_t windowS)
{
    m_wanted = cardUuid;
    if (m_watcher.isRunning()) {
        m_pending = true;
        m_pendingNowMs = nowUnixMs;
        m_pendingWindowS = windowS;
        return;
    }
    launch(cardUuid, nowUnixMs, windowS);
}

void StoreHistoryLoader::launch(const std::string &cardUuid, int64_t nowUnixMs, int64_t windowS)
{
    m_pending = false;
    const Fetch fetch = m_fetch;
    const Begins begins = m_begins;
    const int64_t step = std::max<int64_t>(m_stepS, windowS / 360);
    m_watcher.setFuture(QtConcurrent::run([fetch, begins, cardUuid, nowUnixMs, step, windowS] {
        StoreHistory out;
        out.cardUuid = cardUuid;
        const CardMetric metrics[] = {CardMetric::Utilization, CardMetric::Memory,
                                      CardMetric::Temperature, CardMetric::Power};
        const int64_t to = nowUnixMs / 1000;
        for (size_t i = 0; i < out.series.size(); ++i) {
            auto points = fetch(cardUuid, metrics[i], to - windowS, to, step);
            if (!points) {
                out.problem = points.error().message;
                break;
            }
            out.series[i] = std::move(points).value();
        }
        if (begins && out.problem.empty())
            out.historyBeginsUnixMs = begins();
        return out;
    }));
}

void StoreHistoryLoader::finished()
{
    StoreHistory result = m_watcher.result();
    if (m_pending) {
        launch(m_wanted, m_pendingNowMs, m_pendingWindowS);
    }
    if (result.cardUuid != m_wanted)
        return;  // the operator has moved on to another card
    m_latest = std::move(result);
    Q_EMIT loaded(QString::fromStdString(m_latest.cardUuid));
}

std::unique_ptr<StoreHistoryLoader> usageHistoryLoader(const std::string &historyFile)
{
    // One read of the file gives both utilisation and power: the loader asks for them one
    // after the other (one fetch at a time, on its worker), so the second takes the first's.
    struct LastRead {
        std::string uuid;
        int64_t from = 0, to = 0, step = 0;
        Result<std::vector<UsageSeriesPoint>> series = Error{"not read"};
    };
    auto last = std::make_shared<LastRead>();
    auto fetch = [historyFile, last](const std::string &uuid, CardMetric metric, int64_t from,
                                     int64_t to,
                                     int64_t step) -> Result<std::vector<HistoryPoint>> {
        if (metric != CardMetric::Utilization && metric != CardMetric::Power)
            return std::vector<HistoryPoint>{};
        if (last->uuid != uuid || last->from != from || last->to != to || last->step != step ||
            metric == CardMetric::Utilization)
            *last = {uuid, from, to, step, readCardUsageSeries(historyFile, uuid, from, to, step)};
        if (!last->series)
            return last->series.error();
        std::vector<HistoryPoint> points;
        points.reserve(last->series->size());
        for (const UsageSeriesPoint &p : last->series.value())
            points.push_back(
                {p.timeUnixS * 1000,
                 static_cast<float>(metric == CardMetric::Utilization ? p.utilizationPercent
                                                                      : p.powerWatts)});
        return points;
    };
    auto loader = std::make_unique<StoreHistoryLoader>(std::move(fetch), 60);
    loader->setBegins([historyFile]() -> int64_t {
        const auto begins = readHistoryBeginsUnixS(historyFile);
        return begins.ok() && begins->has_value() ? begins->value() * 1000 : 0;
    });
    return loader;
}

}  // namespace meridian

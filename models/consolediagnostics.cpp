#include "consolediagnostics.h"

#include <QJsonArray>

#include <sys/resource.h>

#include <QFile>
#include <algorithm>

namespace meridian {

namespace {

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    const size_t k =
        std::min(values.size() - 1, static_cast<size_t>(p * static_cast<double>(values.size())));
    std::nth_element(values.begin(), values.begin() + static_cast<long>(k), values.end());
    return values[k];
}

double residentMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return 0;
}

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval &t) {
        return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

ConsoleDiagnostics collectDiagnostics(const FleetSnapshot &s, const std::vector<double> &lag,
                                      uint64_t batches, double uptimeSeconds)
{
    ConsoleDiagnostics d;
    d.agents = static_cast<int>(s.nodeCount());
    for (NodeHandle n = 0; n < s.nodeCount(); ++n) {
        if (s.nodeConnection[n] == ConnectionState::Unreachable)
            ++d.agentsUnreachable;
        else if (s.nodeStale(n))
            ++d.agentsStale;
        else
            ++d.agentsLive;
    }
    d.cards = static_cast<int>(s.cardCount());
    int64_t newest = 0;
    int64_t oldest = 0;
    for (int64_t seen : s.cardLastSeenMs) {
        if (seen <= 0)
            continue;
        newest = std::max(newest, seen);
        oldest = oldest == 0 ? seen : std::min(oldest, seen);
    }
    if (newest > 0) {
        d.newestReadingAgeSeconds = static_cast<double>(s.takenUnixMs - newest) / 1000.0;
        d.oldestReadingAgeSeconds = static_cast<double>(s.takenUnixMs - oldest) / 1000.0;
    }
    d.uptimeSeconds = uptimeSeconds;
    d.telemetryBatchesPerSecond =
        uptimeSeconds > 0 ? static_cast<double>(batches) / uptimeSeconds : 0;
    d.uiLagP50Ms = percentile(lag, 0.50);
    d.uiLagP99Ms = percentile(lag, 0.99);
    d.uiLagMaxMs = lag.empty() ? 0 : *std::max_element(lag.begin(), lag.end());
    d.residentMemoryMiB = residentMiB();
    d.cpuPercentOfOneCore = uptimeSeconds > 0 ? 100.0 * cpuSeconds() / uptimeSeconds : 0;
    return d;
}

QJsonObject ConsoleDiagnostics::toJson() const
{
    return QJsonObject{
        {QStringLiteral("agents"), agents},
        {QStringLiteral("agents_live"), agentsLive},
        {QStringLiteral("agents_stale"), agentsStale},
        {QStringLiteral("agents_unreachable"), agentsUnreachable},
        {QStringLiteral("cards"), cards},
        {QStringLiteral("telemetry_batches_per_second"), telemetryBatchesPerSecond},
        {QStringLiteral("ui_lag_p50_ms"), uiLagP50Ms},
        {QStringLiteral("ui_lag_p99_ms"), uiLagP99Ms},
        {QStringLiteral("ui_lag_max_ms"), uiLagMaxMs},
        {QStringLiteral("resident_memory_mib"), residentMemoryMiB},
        {QStringLiteral("cpu_percent_of_one_core"), cpuPercentOfOneCore},
        {QStringLiteral("uptime_seconds"), uptimeSeconds},
        {QStringLiteral("newest_reading_age_seconds"), newestReadingAgeSeconds},
        {QStringLiteral("oldest_reading_age_seconds"), oldestReadingAgeSeconds},
        {QStringLiteral("problems"), QJsonArray::fromStringList(problems)},
    };
}

}  // namespace meridian

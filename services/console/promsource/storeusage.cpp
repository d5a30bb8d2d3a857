#include "storeusage.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/usageledger.h"

namespace meridian {

namespace {

struct MinuteFigures {
    double samples = 0;
    double busySamples = 0;
    double meanUtilization = NAN;
    double meanPower = NAN;
};

// One card's minute from the store's figures for it; none for a card the inventory does
// not hold or a minute without samples.
std::optional<UsageMinute> usageMinute(const StoreNode &node, const std::string &index,
                                       int64_t minuteEnd, const MinuteFigures &f,
                                       int scrapeIntervalS)
{
    const auto position = node.positionOf.find(index);
    if (position == node.positionOf.end() || f.samples <= 0)
        return std::nullopt;
    const CardInfo &card = node.inventory.cards[position->second];
    UsageMinute minute;
    minute.minuteStartUnixS = minuteEnd - 60;
    minute.cardIndex = card.index;
    minute.cardUuid = card.uuid;
    minute.observedSeconds = std::min(60.0, f.samples * scrapeIntervalS);
    minute.busySeconds = std::min(minute.observedSeconds, f.busySamples * scrapeIntervalS);
    if (std::isfinite(f.meanUtilization))
        minute.meanUtilizationPercent = std::clamp(f.meanUtilization, 0.0, 100.0);
    if (std::isfinite(f.meanPower) && f.meanPower >= 0)
        minute.energyJoules = f.meanPower * minute.observedSeconds;
    return minute;
}

enum class Figure { Samples, Busy, Utilization, Power };

// What is asked of the store for each card-minute: its samples, the busy ones, its mean
// utilisation and (where the exporter has it) its mean power.
std::vector<std::pair<Figure, std::string>> figureQueries(const ExporterDialect &d,
                                                          int scrapeIntervalS)
{
    // Each point at t covers the minute (t − 60 s, t].
    const std::string by = fmt::format("max by ({},{})", d.hostLabel, d.indexLabel);
    std::vector<std::pair<Figure, std::string>> queries = {
        {Figure::Samples, fmt::format("{} (count_over_time({}[60s]))", by, d.utilization)},
        {Figure::Busy,
         fmt::format("{} (count_over_time(({} >= {})[60s:{}s]))", by, d.utilization,
                     UsageAccumulator::kDefaultBusyThresholdPercent, scrapeIntervalS)},
        {Figure::Utilization, fmt::format("{} (avg_over_time({}[60s]))", by, d.utilization)},
    };
    if (!d.power.empty())
        queries.push_back({Figure::Power, fmt::format("{} (avg_over_time({}[60s]))", by, d.power)});
    return queries;
}

}  // namespace

Result<std::map<std::string, std::vector<UsageMinute>>> readStoreUsage(
    PromClient &client, const ExporterDialect &d, const std::vector<const StoreNode *> &nodes,
    int64_t fromUnixS, int64_t toUnixS, int scrapeIntervalS)
{
    std::map<std::string, std::vector<UsageMinute>> out;
    if (toUnixS <= fromUnixS || nodes.empty())
        return out;
    std::map<std::string, const StoreNode *> byHost;
    for (const StoreNode *node : nodes)
        byHost[node->host] = node;

    const std::vector<std::pair<Figure, std::string>> queries = figureQueries(d, scrapeIntervalS);

    // (host, exporter index, minute end) → figures
    std::map<std::tuple<std::string, std::string, int64_t>, MinuteFigures> figures;
    for (const auto &[figure, promql] : queries) {
        auto series = client.range(promql, fromUnixS + 60, toUnixS, 60);
        if (!series)
            return series.error();
        for (const PromSeries &s : series.value()) {
            std::string host;
            std::string index;
            for (const auto &[key, value] : s.labels) {
                if (key == d.hostLabel)
                    host = value;
                else if (key == d.indexLabel)
                    index = value;
            }
            if (!byHost.count(host))
                continue;
            for (const auto &[time, value] : s.points) {
                if (!std::isfinite(value))
                    continue;
                MinuteFigures &f = figures[{host, index, std::llround(time)}];
                switch (figure) {
                case Figure::Samples: f.samples = value; break;
                case Figure::Busy: f.busySamples = value; break;
                case Figure::Utilization: f.meanUtilization = value; break;
                case Figure::Power: f.meanPower = value; break;
                }
            }
        }
    }
    for (const auto &[key, f] : figures) {
        const auto &[host, index, minuteEnd] = key;
        const StoreNode &node = *byHost.at(host);
        if (auto minute = usageMinute(node, index, minuteEnd, f, scrapeIntervalS))
            out[node.inventory.nodeId].push_back(*minute);
    }
    return out;
}

}  // namespace meridian

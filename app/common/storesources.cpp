#include "storesources.h"

#include "core/clock.h"
#include "promsource/prometheussource.h"

namespace meridian {

Result<std::vector<std::unique_ptr<PrometheusSource>>> startStoreSources(
    FleetState &state, const std::vector<StoreSource> &stores)
{
    std::vector<std::unique_ptr<PrometheusSource>> sources;
    for (const StoreSource &store : stores) {
        PrometheusSourceOptions options;
        options.endpoint = {store.url, store.bearerToken, store.basicUser, store.basicPassword,
                            store.caFile};
        options.dataCenter = store.dataCenter;
        options.scrapeIntervalMs = store.scrapeIntervalS * 1000;
        auto source = std::make_unique<PrometheusSource>(state, SystemClock::instance(), options);
        if (Status started = source->start(); !started)
            return started.error();
        sources.push_back(std::move(source));
    }
    return sources;
}

}  // namespace meridian

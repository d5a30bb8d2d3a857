// Usage minutes for the cost history from a store's own samples, for nodes watched only
// through it (there is no agent ledger to backfill from): per card and minute the
// seconds observed, the seconds busy (utilisation at or above the agents' 5%), the mean
// utilisation and the energy, so reports by data center, vendor, model and node cover
// these cards too. Each minute comes from the samples inside it, so a minute the store
// did not scrape is left out rather than guessed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/nodetypes.h"
#include "exporterdialects.h"
#include "promclient.h"

namespace meridian {

// One node as the store's series name it: its cards' exporter index → position in
// `inventory.cards`.
struct StoreNode {
    const ExporterDialect *dialect = nullptr;
    std::string host;
    NodeInventory inventory;
    std::map<std::string, uint32_t> positionOf;
};

// The minutes that end in (fromUnixS, toUnixS], both on minute boundaries, for every
// node of one dialect; keyed by node id.
Result<std::map<std::string, std::vector<UsageMinute>>> readStoreUsage(
    PromClient &client, const ExporterDialect &dialect, const std::vector<const StoreNode *> &nodes,
    int64_t fromUnixS, int64_t toUnixS, int scrapeIntervalS);

}  // namespace meridian

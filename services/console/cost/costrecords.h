// What the cost views and reports read beside the usage, kept in the history file: the
// cloud leases as the capacity pool reported them (the newest state wins) and the price
// book in force (mirrored for the analysts' SQL views, docs/history.md). Written through
// the file's one writer (the history store's thread), in turn with the usage.
#pragma once

#include <vector>

#include "core/cloudlease.h"
#include "core/result.h"
#include "pricebook.h"

namespace meridian {

class SqliteWriter;

Status recordCloudLeases(SqliteWriter &history, const std::vector<CloudLease> &leases);
Status recordPrices(SqliteWriter &history, const PriceBook &prices);

}  // namespace meridian

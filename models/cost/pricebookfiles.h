// The price book as the console's windows use it: the file in force read (no file: no
// prices, said so), and an edited book saved as the user's own copy.
#pragma once

#include <QString>

#include "core/result.h"
#include "cost/pricebook.h"

namespace meridian {

Result<PriceBook> loadPriceBookFile(const QString &file);
// Written whole beside the old file, renamed over it only once it loads back cleanly.
Status savePriceBookFile(const QString &file, const PriceBook &book);

}  // namespace meridian

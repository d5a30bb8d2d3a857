// Writing a price book back to YAML (the console's price book editor), and where the
// user's own copy lives. A file is written whole beside the old one and renamed over it
// only after it loads back cleanly, so a failed save never leaves a broken book.
#pragma once

#include <string>

#include "core/result.h"
#include "pricebook.h"

namespace meridian {

std::string priceBookToYaml(const PriceBook &book);
Status savePriceBook(const std::string &path, const PriceBook &book);

// $XDG_CONFIG_HOME/meridian/pricebook.yaml (~/.config/meridian/...): the edited book.
std::string userPriceBookPath();

}  // namespace meridian

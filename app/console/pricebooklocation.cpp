#include "pricebooklocation.h"

#include <filesystem>

#include "cost/pricebookfile.h"

namespace meridian {

std::string priceBookInForce(const std::string &named)
{
    if (!named.empty())
        return named;
    for (const std::string &candidate :
         {userPriceBookPath(), std::string(MERIDIAN_DEFAULT_PRICEBOOK),
          std::string(MERIDIAN_SOURCE_PRICEBOOK)}) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(candidate, ec))
            return candidate;
    }
    return MERIDIAN_DEFAULT_PRICEBOOK;  // missing: loading it says so, with the path
}

}  // namespace meridian

#include "configlocations.h"

#include <filesystem>

#include "cost/pricebookfile.h"

namespace meridian {

namespace {

std::string firstThatExists(const std::string &named, const std::string &user,
                            const std::string &installed, const std::string &source)
{
    if (!named.empty())
        return named;
    for (const std::string &candidate : {user, installed, source}) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(candidate, ec))
            return candidate;
    }
    return installed;  // missing: loading it says so, with the path
}

}  // namespace

std::string priceBookInForce(const std::string &named)
{
    return firstThatExists(named, userPriceBookPath(), MERIDIAN_DEFAULT_PRICEBOOK,
                           MERIDIAN_SOURCE_PRICEBOOK);
}

std::string userServicesPath()
{
    return (std::filesystem::path(userPriceBookPath()).parent_path() / "services.yaml").string();
}

std::string alertRoutingInForce(const std::string &named)
{
    if (!named.empty())
        return named;
    return (std::filesystem::path(userPriceBookPath()).parent_path() / "alert-routes.yaml")
        .string();
}

std::string servicesInForce(const std::string &named)
{
    return firstThatExists(named, userServicesPath(), MERIDIAN_DEFAULT_SERVICES,
                           MERIDIAN_SOURCE_SERVICES);
}

}  // namespace meridian

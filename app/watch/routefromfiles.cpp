#include "routefromfiles.h"

#include "wire/security.h"

namespace meridian {

Result<AlertRoute> routeFromFiles(const std::string &name, const std::string &url,
                                  const std::string &caFile, const std::string &tokenFile)
{
    auto security = clientSecurityFromFiles(caFile, tokenFile);
    if (!security)
        return security.error();
    AlertRoute route;
    route.name = name;
    route.url = url;
    while (!route.url.empty() && route.url.back() == '/')
        route.url.pop_back();
    route.caFile = security->caFile;
    route.bearerToken = security->token;
    return route;
}

}  // namespace meridian

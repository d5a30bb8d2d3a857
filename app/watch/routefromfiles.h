// An HTTP peer of the watcher's (itself, for the triage commands; meridian-scaled's
// /metrics) as a command line names it: a URL, a CA file and a file holding the token,
// read as every client of ours reads them (wire/security.h).
#pragma once

#include <string>

#include "alerts/alertrouting.h"
#include "core/result.h"

namespace meridian {

Result<AlertRoute> routeFromFiles(const std::string &name, const std::string &url,
                                  const std::string &caFile, const std::string &tokenFile);

}  // namespace meridian

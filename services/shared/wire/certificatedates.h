// A server certificate's validity, checked when a server starts: an expired one would
// start an agent no client can reach, and only the clients would say why.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"

namespace meridian {

// Refuses a PEM certificate that is not valid at `nowUnixS` (expired, or not yet valid),
// naming the file and the date.
Status checkCertificateDates(const std::string &path, const std::string &pem, int64_t nowUnixS);

}  // namespace meridian

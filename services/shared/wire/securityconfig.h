// The server side's TLS and tokens as the agent's and the pool's configuration files
// write them:
//   tls: {cert_file: F, key_file: F, client_ca_file: F}
//   tokens:
//     - {name: console, role: operator, token_file: /etc/meridian/console.token}
// Relative paths are relative to the file. Errors name the file and line; a token
// shorter than 16 characters is refused.
#pragma once

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>

#include "core/result.h"
#include "security.h"

namespace meridian {

// Reads `tls:` and `tokens:` of `root` (other keys are the caller's) into `security`.
Status readServerSecurity(const std::string &path, const YAML::Node &root,
                          ServerSecurity &security);

}  // namespace meridian

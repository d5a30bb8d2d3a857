// meridian-scaled's configuration file (YAML): where it listens and with what TLS and
// tokens (as the agent's and the pool's), its own journal file, the inventory it reads
// local agents, the capacity pool and client credentials from, and the services it
// scales. Relative paths are relative to this file.
//   listen: 0.0.0.0:50081
//   tls: {cert_file: /etc/meridian/scaled.crt, key_file: /etc/meridian/scaled.key}
//   tokens: [{name: xm-ops-console, role: operator, token_file: /etc/meridian/ops.token}]
//   controller_id: meridian-scaled@xiamen   # the owner its leases carry in the pool
//   journal: /var/lib/meridian-scaled/journal.sqlite
//   inventory: /etc/meridian/inventory.yaml
//   services: /etc/meridian/services.yaml
//   mode: assisted            # the first start's; an operator's later choice is kept
//   policy: /etc/meridian/policy.yaml   # optional: the scaling policy's settings
//   interval_seconds: 5
//   warm_up_seconds: 15
// Errors name the file and line.
#pragma once

#include <string>

#include "core/result.h"
#include "scaling/scalingpolicy.h"
#include "scalingcontrol.h"
#include "wire/security.h"

namespace meridian {

struct ScaledConfig {
    std::string listen = "127.0.0.1:50081";
    ServerSecurity security;
    // Where Prometheus scrapes it (/metrics), with the same TLS and tokens; empty: off.
    std::string metricsListen;
    std::string controllerId = "meridian-scaled";
    std::string journalFile = "/var/lib/meridian-scaled/journal.sqlite";
    std::string inventoryFile = "/etc/meridian/inventory.yaml";
    std::string servicesFile = "/etc/meridian/services.yaml";
    ApprovalMode mode = ApprovalMode::Assisted;
    // As `meridian-sim evaluate --policy` reads it, so what was judged on traces is
    // what runs (forecast_days: 0 turns the daily shape off).
    ScalingPolicyConfig policy;
    double intervalSeconds = 5;
    double warmUpSeconds = 15;
};

Status loadScaledConfig(const std::string &path, ScaledConfig &config);

}  // namespace meridian

// The agent's configuration: command line over YAML file over defaults. Errors name
// the file, the line and the key.
#pragma once

#include <string>

#include "core/result.h"
#include "wire/security.h"

namespace meridian {

struct AgentConfig {
    std::string listen = "127.0.0.1:50051";
    // Where Prometheus-compatible stores scrape /metrics; empty: not served. The same
    // rules as `listen`: plaintext and token-less only on loopback.
    std::string metricsListen;
    std::string collector = "auto";  // sim | nvml | smi | auto
    std::string dataDir = "/var/lib/meridian-agent";
    std::string nodeId;  // default: the host name
    std::string dataCenter = "unknown";
    std::string rack;
    std::string nvmlLibrary;  // default: libnvidia-ml.so.1 from the loader path
    int sampleIntervalMs = 1000;
    uint64_t simSeed = 1;
    std::string simKind = "hybrid";  // which simulated node this agent plays
    // Inference services (the console's format); their serving: sections are what this
    // agent may start as replicas. Empty: it starts none (except simulated ones).
    std::string servicesFile;
    ServerSecurity security;
};

// Reads FILE into `config`, keeping what the file does not set.
Status loadAgentConfig(const std::string &path, AgentConfig &config);

}  // namespace meridian

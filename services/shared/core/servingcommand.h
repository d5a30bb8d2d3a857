// How a replica of an inference service runs on a real node: the server it is (each
// names its metrics differently, replicas/replicametrics.h) and the command that
// starts it. Services declare it (scaling/inferenceservice.h); a node's agent runs it
// (replicas/replicarunner.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace meridian {

enum class ServingEngine { Vllm, MindIe, Tgi, LlamaCpp };

// "vllm", "mindie", "tgi", "llamacpp" (or "llama.cpp"); anything else: no engine.
std::optional<ServingEngine> servingEngineNamed(std::string_view name);
std::string_view servingEngineName(ServingEngine engine);

// How a replica of the service is started on a real node. The agent runs only what its
// own copy of the services file declares; the network names a service, never a command.
struct ServingCommand {
    // argv; "{model}", "{port}", "{cards}" (how many) and "{replica}" are filled in.
    std::vector<std::string> command;
    std::map<std::string, std::string> environment;
    ServingEngine engine = ServingEngine::Vllm;
    int port = 8000;
    std::string healthPath = "/health";
    std::string metricsPath = "/metrics";
    double startupTimeoutSeconds = 900;  // loading weights included
    double drainGraceSeconds = 30;       // SIGTERM, then this long, then SIGKILL
    int restartLimit = 3;                // crashes restarted before it is reported failed
};

}  // namespace meridian

// An inference service as operators declare it (YAML): the model, the card types it may
// run on with what one card of each serves, its latency objective, how far it may scale,
// and what it may rent from the cloud.
//   services:
//     - name: customer-service-chat
//       model: qwen2-72b-instruct
//       cards_per_replica: 4
//       slo: {ttft_p95_seconds: 5}
//       replicas: {min: 2, max: 64}
//       cold_start_seconds: 90
//       runs_on:
//         - {card_model: A100-SXM4-80GB, requests_per_second_per_card: 0.9,
//         max_concurrency_per_card: 16}
//         - {card_model: Ascend 910B, requests_per_second_per_card: 0.7, max_concurrency_per_card:
//         12}
//       local_pool: [xm-r01-n3, xm-r01-n4]   # our nodes it may start replicas on
//       policy: chat-policy.yaml           # its own scaling policy; default: the controller's
//       rent: {card_models: [A100-SXM4-80GB], max_cards: 64, max_cny_per_card_hour: 3.0,
//              budget_cny_per_hour: 150}
//       serving:                           # how a node's agent starts a replica
//         command: [vllm, serve, /models/qwen2-72b, --port, "{port}",
//                   --tensor-parallel-size, "{cards}"]
//         engine: vllm                     # vllm | mindie | tgi | llamacpp: its metric names
//         port: 8000                       # the first replica's; the next takes 8001 ...
//         health_path: /health
//         metrics_path: /metrics
//         environment: {VLLM_LOGGING_LEVEL: WARNING}
//         startup_timeout_seconds: 900
//         drain_grace_seconds: 30
//         restart_limit: 3
// Errors name the file and line.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/servingcommand.h"

namespace meridian {

struct CardCapability {
    std::string cardModel;
    double requestsPerSecondPerCard = 0;  // sustained, with TTFT inside the objective
    int maxConcurrencyPerCard = 1;        // requests in flight one card batches at once
};

struct RentLimits {
    std::vector<std::string> cardModels;  // cloud card types it may rent; empty: none
    int maxCards = 0;
    double maxCnyPerCardHour = 0;
    double budgetCnyPerHour = 0;
};

// Where a service's requests come in: a load balancer the controller keeps equal to the
// ready replicas. Only HAProxy for now, through its runtime API.
//   load_balancer: {kind: haproxy, runtime_api: 127.0.0.1:9999, backend: chat}
struct LoadBalancerTarget {
    std::string runtimeApi;  // host:port of HAProxy's "stats socket ipv4@… level admin"
    std::string backend;
    // Settings each replica's server is added with ("maxconn 16 inter 2s fall 2 rise 1"):
    // HAProxy 2.6 does not apply the backend's default-server line to servers added at
    // run time. maxconn keeps the queue at the balancer, where a new replica takes from it.
    std::string serverOptions;
};

// The latency a service's objective is on: the queueing delay where its replicas report
// it, and where they do not, the time to first token, which includes it (and the
// replica's own prefill of the prompt, which no scaling shortens).
inline std::optional<double> objectiveLatency(std::optional<double> queueDelaySeconds,
                                              std::optional<double> ttftSeconds)
{
    return queueDelaySeconds ? queueDelaySeconds : ttftSeconds;
}

struct InferenceService {
    std::string name;
    std::string model;
    int cardsPerReplica = 1;
    // The objective: the p95 queueing delay (services.yaml: slo: ttft_p95_seconds), held
    // to the time to first token where the replicas do not report the delay.
    double objectiveP95Seconds = 5.0;
    int minReplicas = 1;
    int maxReplicas = 16;
    double coldStartSeconds = 90;  // a new replica loads its weights before it serves
    std::vector<CardCapability> runsOn;
    // Local nodes set aside for inference: their cards that hold no replica are used
    // before anything is rented (they are paid for either way).
    std::vector<std::string> localPool;
    RentLimits rent;
    std::optional<ServingCommand> serving;
    std::optional<LoadBalancerTarget> loadBalancer;
    // Its own scaling policy file (as --scaling-policy reads it), beside the services
    // file; empty: the controller's.
    std::string policyFile;

    // What one replica on this card model serves per second; 0 when it cannot run there.
    double replicaRequestsPerSecond(const std::string &cardModel) const;
};

Result<std::vector<InferenceService>> loadInferenceServices(const std::string &path);

}  // namespace meridian

// `meridian-sim serve-replica`: a stand-in inference server for tests and rehearsals,
// on real HTTP like vLLM: POST /v1/completions (OpenAI-compatible, streamed or not)
// answered with simulated timing (continuous batching: a prefill token budget shared in
// arrival order, then decode at a per-sequence rate, at most max_concurrency at once),
// GET /health (503 while "loading weights"), GET /metrics in vLLM's names
// (vllm:num_requests_waiting, vllm:num_requests_running, vllm:kv_cache_usage_perc,
// vllm:time_to_first_token_seconds, ...). SIGTERM drains: new requests get 503, those
// in flight finish, then it exits. With a weights directory the start is a load from
// local disk where the weights are already there, a cold start (a fetch) where not.
#pragma once

#include <string>

namespace meridian {

struct ReplicaServerOptions {
    std::string host = "127.0.0.1";
    int port = 8000;
    std::string model = "stand-in";
    double prefillTokensPerSecond = 8000;
    double decodeTokensPerSecond = 35;
    int maxConcurrency = 32;
    double coldStartSeconds = 0;
    // Weights on the node's local disk: with a directory, a replica that finds
    // DIR/<model>.weights there starts in loadSeconds; one that does not takes the cold
    // start (fetching them) and leaves the file for the next.
    std::string weightsDir;
    double loadSeconds = 0;
    int crashAfterRequests = 0;  // > 0: exits with status 3 after this many (crash tests)
};

int serveReplica(const ReplicaServerOptions &options);

}  // namespace meridian

// `meridian-sim drive`: a load generator for OpenAI-compatible servers over real HTTP.
// Open loop: requests leave on a Poisson schedule whatever the server does, and each
// latency is measured from when its request was due (a slow server cannot hide its
// queue by slowing the generator). Streams by default, so TTFT is the first chunk's
// arrival.
#pragma once

#include <string>

namespace meridian {

struct DriveOptions {
    std::string url;  // http://host:port
    double rps = 1;
    double seconds = 10;
    int promptTokens = 512;
    int maxTokens = 64;
    int connections = 64;  // requests in flight at most
    // Streamed answers (TTFT is the first chunk's arrival); false: each answer whole, as
    // batch jobs and tool calls ask for it (TTFT is then the whole answer's time).
    bool stream = true;
    uint64_t seed = 1;
    // Non-empty: every request as a CSV row (due_unix_ms, ttft_s, e2e_s, ok), for
    // measuring how latency moves over a run, e.g. around a load step.
    std::string samplesFile;
};

// Prints sent, answered, failed, TTFT p50/p95 and end-to-end p95; 0 when every request
// was answered.
int drive(const DriveOptions &options);

}  // namespace meridian

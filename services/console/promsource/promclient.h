// A client of the Prometheus HTTP query API, as Prometheus, VictoriaMetrics, Thanos
// Query and Mimir serve it: instant and range PromQL queries, bearer or basic auth, TLS,
// gzip on the wire. Answers are parsed as they stream (SAX), so a 100,000-series answer
// never becomes a JSON tree. Blocking: call it from a worker thread, never the UI.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace httplib {
class Client;
}

namespace meridian {

class CallWatch;

struct PromEndpoint {
    std::string url;  // http(s)://host:port[/prefix], e.g. …/select/0/prometheus
    std::string bearerToken;
    std::string basicUser;
    std::string basicPassword;
    std::string caFile;  // https: verify the server against this CA
    int timeoutMs = 10'000;
    // An answer larger than this (after gzip) is refused as it arrives, not held: a
    // 100,000-card snapshot is about 8 MiB, so this is a broken or hostile server.
    size_t maxAnswerBytes = 256u << 20;
};

using PromLabels = std::vector<std::pair<std::string, std::string>>;

// One series of an instant vector.
struct PromSample {
    PromLabels labels;
    double timeSeconds = 0;
    double value = 0;  // may be NaN
    const std::string *label(std::string_view name) const;
};

// One series of a range query.
struct PromSeries {
    PromLabels labels;
    std::vector<std::pair<double, double>> points;  // (Unix seconds, value)
};

// Parses an API answer body; errors carry the server's errorType and message.
Result<std::vector<PromSample>> parsePromVector(std::string_view body);
Result<std::vector<PromSeries>> parsePromMatrix(std::string_view body);

class PromClient {
public:
    // Each request has endpoint.timeoutMs as a whole, watched by `calls` (its own when
    // null); the owner's calls->abortAll() ends a request under way at once.
    static Result<std::unique_ptr<PromClient>> create(PromEndpoint endpoint,
                                                      std::shared_ptr<CallWatch> calls = {});
    ~PromClient();

    Result<std::vector<PromSample>> instant(const std::string &promql);
    Result<std::vector<PromSeries>> range(const std::string &promql, int64_t startUnixS,
                                          int64_t endUnixS, int64_t stepS);

    const std::string &url() const { return m_endpoint.url; }

private:
    explicit PromClient(PromEndpoint endpoint);
    Result<std::string> get(const std::string &api,
                            const std::vector<std::pair<std::string, std::string>> &params);

    PromEndpoint m_endpoint;
    std::shared_ptr<CallWatch> m_calls;
    std::string m_pathPrefix;
    std::unique_ptr<httplib::Client> m_http;
};

}  // namespace meridian

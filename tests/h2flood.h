// A raw HTTP/2 client that misbehaves the way attackers do, for tests that prove a
// gRPC server stays bounded: HEADERS + RST_STREAM floods (the "rapid reset") and many
// streams opened and never finished. It speaks just enough HTTP/2 for that, with no
// token, and only ever to a loopback port.
#pragma once

#include <cstdint>
#include <string>

namespace meridian::test {

struct FloodPlan {
    int port = 0;  // on 127.0.0.1
    std::string path = "/meridian.v1.NodeAgent/GetInventory";
    int connections = 4;
    int64_t streamsPerConnection = 50'000;
    bool resetEachStream = true;  // false: open streams and leave them open
    double maxSeconds = 10;
};

struct FloodOutcome {
    int64_t streamsSent = 0;
    int connectionsClosedByServer = 0;  // the server hung up (GOAWAY, reset, EOF)
};

FloodOutcome floodHttp2(const FloodPlan &plan);

}  // namespace meridian::test

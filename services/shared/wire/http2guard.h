// Watches the HTTP/2 frames a client sends, before gRPC sees them, for the abuse gRPC
// 1.51 does not bound itself: streams opened and reset faster than any real client
// does (the "rapid reset", CVE-2023-44487), or opened by the thousand. Only frame
// headers are read; payloads are skipped. A connection over its budget is closed.
// Single-threaded: owned by one connection's relay.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace meridian {

struct Http2Budget {
    // New streams a connection may open: a sustained rate and a burst. The console opens
    // three long-lived streams per agent and a few calls a minute.
    double streamsPerSecond = 100;
    double streamBurst = 400;
    // Streams the client may reset: a cancelled call now and then, never thousands.
    double resetsPerSecond = 20;
    double resetBurst = 100;
};

class Http2Guard {
public:
    explicit Http2Guard(Http2Budget budget = {});

    // Accounts bytes the client sent at `nowMs` (steady clock). False once the client
    // broke its budget or the protocol; why() says which.
    bool feed(const char *data, size_t size, int64_t nowMs);
    const std::string &why() const { return m_why; }

private:
    struct Bucket {
        double tokens = 0;
        int64_t lastMs = -1;
        bool take(double perSecond, double burst, int64_t nowMs);
    };
    void onFrame(uint8_t type, uint32_t streamId, int64_t nowMs);

    Http2Budget m_budget;
    size_t m_prefaceLeft;
    uint8_t m_header[9] = {};
    size_t m_headerHave = 0;
    uint64_t m_payloadLeft = 0;
    uint32_t m_lastStreamId = 0;
    Bucket m_streams;
    Bucket m_resets;
    std::string m_why;
};

}  // namespace meridian

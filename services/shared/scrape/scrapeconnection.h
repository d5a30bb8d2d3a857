// One scraper's connection to the /metrics endpoint, served with deadlines cpp-httplib
// 0.11 lacks. Its own timeouts bound each read, so a client dripping a header line every
// few seconds held a worker for ever; here a whole request has a deadline, so do the TLS
// handshake and the wait for the next request, and every wait shrinks while other
// connections queue for a worker. A request's bytes are capped too.
#pragma once

#include <openssl/types.h>

#include <cstddef>
#include <functional>

namespace httplib {
class Stream;
}

namespace meridian {

struct ScrapeLimits {
    int handshakeMs = 5'000;
    int firstRequestMs = 5'000;  // from connecting to a request's first byte
    int keepAliveMs = 30'000;    // between requests: a store scrapes every 15 s or so
    int requestMs = 2'000;       // from a request's first byte to its last
    int writeMs = 10'000;        // for each write of the answer
    // The most any of those waits lasts while other connections wait for a worker.
    int underPressureMs = 500;
    size_t maxRequestBytes = 64 * 1024;  // a scrape is a short GET
    int maxRequestsPerConnection = 1000;
};

struct ScrapeConnection {
    int fd = -1;             // accepted; closed by the caller
    SSL_CTX *tls = nullptr;  // null: plaintext
    ScrapeLimits limits;
    std::function<bool()> underPressure;  // other connections wait for a worker
    std::function<bool()> running;        // false once the server stops
    // cpp-httplib's reading, routing and answering of one request on the stream.
    std::function<bool(httplib::Stream &, bool closeAfter, bool &closed)> serveRequest;
};

// Serves requests on the connection until the client closes, a deadline passes or the
// server stops. Returns whether the last request was served.
bool serveScrapeConnection(const ScrapeConnection &connection);

}  // namespace meridian

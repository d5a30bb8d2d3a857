// TLS for the agent's guarded listener, so the frames inside can be checked before gRPC
// sees them: the server certificate, client certificates when a CA is configured, and
// ALPN "h2", which gRPC clients require.
#pragma once

#include <memory>

#include "core/result.h"
#include "security.h"

struct ssl_ctx_st;
struct ssl_st;

namespace meridian {

class TlsServerContext {
public:
    // From material readServerTlsFiles() has read and checked; `names` says which files
    // it came from, for messages.
    static Result<std::shared_ptr<TlsServerContext>> create(const ServerTlsFiles &files,
                                                            const ServerSecurity &names);
    ~TlsServerContext();
    TlsServerContext(const TlsServerContext &) = delete;
    TlsServerContext &operator=(const TlsServerContext &) = delete;

    // A new server-side session on `fd` (non-blocking), or nullptr.
    ssl_st *newSession(int fd) const;

private:
    explicit TlsServerContext(ssl_ctx_st *context) : m_context(context) {}
    ssl_ctx_st *m_context;
};

}  // namespace meridian

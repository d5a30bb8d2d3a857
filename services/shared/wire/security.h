// Who may talk to an agent: TLS (server certificate; client certificates when a CA is
// configured) and bearer tokens with a role. Plaintext is accepted only on loopback.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "tokengrant.h"

namespace grpc {
class ServerCredentials;
class ChannelCredentials;
class Channel;
class ServerContextBase;
class Status;
}  // namespace grpc

namespace meridian {

struct ServerSecurity {
    std::string certFile;
    std::string keyFile;
    std::string clientCaFile;  // set: clients must present a certificate signed by it
    std::vector<TokenGrant> tokens;
    // A new connection's time, its TLS handshake included, to make a call that passes the
    // token check (`authenticate_within_seconds`); the front door closes it after that.
    int authenticateWithinMs = 10'000;
    bool tlsEnabled() const { return !certFile.empty(); }
};

struct ClientSecurity {
    std::string caFile;    // set: TLS, verifying the agent against this CA
    std::string certFile;  // mutual TLS
    std::string keyFile;
    std::string token;
    std::string serverNameOverride;  // when certificates name the host differently
};

// A client's security as a command line gives it: TLS against `caFile` where one is
// given, and the token read from `tokenFile` (trimmed; at most 4 KiB) where one is.
Result<ClientSecurity> clientSecurityFromFiles(const std::string &caFile,
                                               const std::string &tokenFile);

// Refuses plaintext or token-less serving on anything but loopback, decided by the
// addresses the host resolves to (and so the address gRPC will bind).
Status checkListenPolicy(const std::string &address, const ServerSecurity &security);

// A server's TLS material, read once and checked: every file readable, the certificate
// within its validity dates. Both gRPC's credentials and the agent's own TLS front door
// are made from these bytes.
struct ServerTlsFiles {
    std::string certificatePem;
    std::string keyPem;
    std::string clientCaPem;  // empty: no client certificates asked for
};
Result<ServerTlsFiles> readServerTlsFiles(const ServerSecurity &security);

Result<std::shared_ptr<grpc::ServerCredentials>> serverCredentials(const ServerSecurity &security);

std::shared_ptr<grpc::Channel> makeChannel(const std::string &address,
                                           const ClientSecurity &security);

// Checks the caller's bearer token. With no tokens configured (loopback only) everyone
// is an operator.
class Authorizer {
public:
    explicit Authorizer(std::vector<TokenGrant> tokens) : m_tokens(std::move(tokens)) {}
    // OK, or why the call is refused: no or an unknown token, a role too weak, or (on a
    // guarded listener) no room left for the token's or the address's connections.
    // `who`, when given, is set to the caller's grant (null without tokens).
    grpc::Status check(const grpc::ServerContextBase &context, Role needed,
                       const TokenGrant **who = nullptr) const;
    // For readers outside gRPC (the /metrics endpoint): does this Authorization header
    // value carry a known token? Always true when no tokens are configured.
    bool acceptsBearer(std::string_view authorizationHeader) const;
    // The grant that header's token carries; none without tokens or for an unknown one.
    std::optional<TokenGrant> bearerGrant(std::string_view authorizationHeader) const;
    bool hasTokens() const { return !m_tokens.empty(); }
    // The name of the caller's token, for the audit trail; empty without tokens.
    std::string callerName(const grpc::ServerContextBase &context) const;

private:
    const TokenGrant *grantFor(std::string_view token) const;
    std::vector<TokenGrant> m_tokens;
};

}  // namespace meridian

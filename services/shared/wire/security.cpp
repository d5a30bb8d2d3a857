#include "security.h"

#include <fmt/format.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_context.h>
#include <grpcpp/support/status.h>

#include "certificatedates.h"
#include "core/clock.h"
#include "core/textfile.h"
#include "core/textutil.h"
#include "guardedpeer.h"
#include "hostport.h"

namespace meridian {

namespace {

// Compares without an early exit, so response time says nothing about the token.
bool constantTimeEquals(std::string_view a, std::string_view b)
{
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    const size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

class BearerToken final : public grpc::MetadataCredentialsPlugin {
public:
    explicit BearerToken(std::string token) : m_token(std::move(token)) {}
    grpc::Status GetMetadata(grpc::string_ref, grpc::string_ref, const grpc::AuthContext &,
                             std::multimap<grpc::string, grpc::string> *metadata) override
    {
        metadata->insert({"authorization", "Bearer " + m_token});
        return grpc::Status::OK;
    }
    bool IsBlocking() const override { return false; }

private:
    std::string m_token;
};

}  // namespace

Result<ClientSecurity> clientSecurityFromFiles(const std::string &caFile,
                                               const std::string &tokenFile)
{
    ClientSecurity security;
    security.caFile = caFile;
    if (!tokenFile.empty()) {
        auto token = readTextFile(tokenFile, 4096);
        if (!token)
            return token.error();
        security.token = std::string(trim(token.value()));
    }
    return security;
}

Status checkListenPolicy(const std::string &address, const ServerSecurity &security)
{
    if (!security.tlsEnabled() && !security.tokens.empty()) {
        return Error{
            "tokens are configured but TLS is not: bearer tokens are never accepted over "
            "plaintext; configure tls.cert_file and tls.key_file"};
    }
    auto loopback = isLoopbackHost(address);
    if (!loopback)
        return Error{fmt::format("cannot listen on {}: {}", address, loopback.error().message)};
    if (loopback.value())
        return {};
    if (!security.tlsEnabled()) {
        return Error{
            fmt::format("refusing to serve plaintext on {}: configure tls.cert_file and "
                        "tls.key_file, or listen on 127.0.0.1",
                        address)};
    }
    if (security.tokens.empty()) {
        return Error{
            fmt::format("refusing to serve {} without tokens: configure at least one "
                        "entry under tokens:",
                        address)};
    }
    return {};
}

Result<ServerTlsFiles> readServerTlsFiles(const ServerSecurity &security)
{
    ServerTlsFiles files;
    auto cert = readTextFile(security.certFile, 1 << 20);
    if (!cert)
        return Error{"tls.cert_file " + cert.error().message};
    if (Status dates = checkCertificateDates(security.certFile, cert.value(),
                                             SystemClock::instance().nowUnixMs() / 1000);
        !dates)
        return Error{"tls.cert_file " + dates.message()};
    files.certificatePem = std::move(cert).value();
    auto key = readTextFile(security.keyFile, 1 << 20);
    if (!key)
        return Error{"tls.key_file " + key.error().message};
    files.keyPem = std::move(key).value();
    if (!security.clientCaFile.empty()) {
        auto ca = readTextFile(security.clientCaFile, 1 << 20);
        if (!ca)
            return Error{"tls.client_ca_file " + ca.error().message};
        files.clientCaPem = std::move(ca).value();
    }
    return files;
}

Result<std::shared_ptr<grpc::ServerCredentials>> serverCredentials(const ServerSecurity &security)
{
    if (!security.tlsEnabled())
        return grpc::InsecureServerCredentials();
    auto files = readServerTlsFiles(security);
    if (!files)
        return files.error();
    grpc::SslServerCredentialsOptions options(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
    options.pem_key_cert_pairs.push_back({files->keyPem, files->certificatePem});
    if (!files->clientCaPem.empty()) {
        options.pem_root_certs = files->clientCaPem;
        options.client_certificate_request =
            GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    }
    return grpc::SslServerCredentials(options);
}

std::shared_ptr<grpc::Channel> makeChannel(const std::string &address,
                                           const ClientSecurity &security)
{
    grpc::ChannelArguments args;
    // Streams idle between batches are normal; keepalives find dead peers behind NAT.
    args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 30'000);
    args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10'000);
    if (!security.serverNameOverride.empty())
        args.SetSslTargetNameOverride(security.serverNameOverride);
    std::shared_ptr<grpc::ChannelCredentials> credentials;
    if (!security.caFile.empty()) {
        grpc::SslCredentialsOptions options;
        if (auto ca = readTextFile(security.caFile, 1 << 20))
            options.pem_root_certs = ca.value();
        if (!security.certFile.empty()) {
            if (auto cert = readTextFile(security.certFile, 1 << 20))
                options.pem_cert_chain = cert.value();
            if (auto key = readTextFile(security.keyFile, 1 << 20))
                options.pem_private_key = key.value();
        }
        credentials = grpc::SslCredentials(options);
        if (!security.token.empty()) {
            credentials = grpc::CompositeChannelCredentials(
                credentials,
                grpc::MetadataCredentialsFromPlugin(std::make_unique<BearerToken>(security.token)));
        }
    } else {
        credentials = grpc::InsecureChannelCredentials();
    }
    auto channel = grpc::CreateCustomChannel(address, credentials, args);
    return channel;
}

grpc::Status Authorizer::check(const grpc::ServerContextBase &context, Role needed,
                               const TokenGrant **who) const
{
    if (who)
        *who = nullptr;
    if (m_tokens.empty()) {
        (void)admitGuardedPeer(context.peer(), nullptr);  // no tokens: no caps to meet
        return grpc::Status::OK;
    }
    const auto &metadata = context.client_metadata();
    const auto it = metadata.find("authorization");
    if (it == metadata.end())
        return {grpc::StatusCode::UNAUTHENTICATED, "missing bearer token"};
    const std::string_view value(it->second.data(), it->second.size());
    if (!startsWith(value, "Bearer "))
        return {grpc::StatusCode::UNAUTHENTICATED, "authorization must be 'Bearer <token>'"};
    const TokenGrant *grant = grantFor(value.substr(7));
    if (!grant)
        return {grpc::StatusCode::UNAUTHENTICATED, "unknown token"};
    // A known token, even one too weak for this call: its connection keeps its slot, if
    // the token and the address have room for one more.
    if (Status room = admitGuardedPeer(context.peer(), grant); !room)
        return {grpc::StatusCode::RESOURCE_EXHAUSTED, room.message()};
    if (who)
        *who = grant;
    if (needed == Role::Operator && grant->role != Role::Operator) {
        return {
            grpc::StatusCode::PERMISSION_DENIED,
            fmt::format("token '{}' is read-only; this call needs the operator role", grant->name)};
    }
    return grpc::Status::OK;
}

bool Authorizer::acceptsBearer(std::string_view authorizationHeader) const
{
    if (m_tokens.empty())
        return true;
    return startsWith(authorizationHeader, "Bearer ") &&
           grantFor(authorizationHeader.substr(7)) != nullptr;
}

std::optional<TokenGrant> Authorizer::bearerGrant(std::string_view authorizationHeader) const
{
    const TokenGrant *grant = startsWith(authorizationHeader, "Bearer ")
                                  ? grantFor(authorizationHeader.substr(7))
                                  : nullptr;
    return grant ? std::optional<TokenGrant>(*grant) : std::nullopt;
}

std::string Authorizer::callerName(const grpc::ServerContextBase &context) const
{
    const auto &metadata = context.client_metadata();
    const auto it = metadata.find("authorization");
    if (it == metadata.end())
        return {};
    const std::string_view value(it->second.data(), it->second.size());
    const TokenGrant *grant = startsWith(value, "Bearer ") ? grantFor(value.substr(7)) : nullptr;
    return grant ? grant->name : std::string();
}

const TokenGrant *Authorizer::grantFor(std::string_view token) const
{
    const TokenGrant *found = nullptr;
    for (const TokenGrant &grant : m_tokens) {
        // Every grant is compared, so the time taken does not tell which one matched.
        if (constantTimeEquals(token, grant.token) && !found)
            found = &grant;
    }
    return found;
}

}  // namespace meridian

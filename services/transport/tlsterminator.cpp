#include "tlsterminator.h"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

namespace meridian {

namespace {

std::string openSslError()
{
    const unsigned long code = ERR_get_error();
    if (code == 0)
        return "unknown TLS error";
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    return text;
}

// gRPC speaks HTTP/2 only, and its clients refuse a server that does not say so.
int selectH2(SSL *, const unsigned char **out, unsigned char *outLength, const unsigned char *in,
             unsigned int inLength, void *)
{
    static const unsigned char h2[] = {2, 'h', '2'};
    unsigned char *selected = nullptr;
    if (SSL_select_next_proto(&selected, outLength, h2, sizeof h2, in, inLength) !=
        OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

}  // namespace

Result<std::shared_ptr<TlsServerContext>> TlsServerContext::create(const ServerSecurity &security)
{
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (!context)
        return Error{"cannot create a TLS context: " + openSslError()};
    std::shared_ptr<TlsServerContext> owner(new TlsServerContext(context));
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (SSL_CTX_use_certificate_chain_file(context, security.certFile.c_str()) != 1)
        return Error{fmt::format("tls.cert_file {}: {}", security.certFile, openSslError())};
    if (SSL_CTX_use_PrivateKey_file(context, security.keyFile.c_str(), SSL_FILETYPE_PEM) != 1)
        return Error{fmt::format("tls.key_file {}: {}", security.keyFile, openSslError())};
    if (SSL_CTX_check_private_key(context) != 1)
        return Error{fmt::format("tls.key_file {} does not match tls.cert_file {}",
                                 security.keyFile, security.certFile)};
    if (!security.clientCaFile.empty()) {
        if (SSL_CTX_load_verify_locations(context, security.clientCaFile.c_str(), nullptr) != 1)
            return Error{
                fmt::format("tls.client_ca_file {}: {}", security.clientCaFile, openSslError())};
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
    SSL_CTX_set_alpn_select_cb(context, selectH2, nullptr);
    return owner;
}

TlsServerContext::~TlsServerContext()
{
    SSL_CTX_free(m_context);
}

ssl_st *TlsServerContext::newSession(int fd) const
{
    SSL *session = SSL_new(m_context);
    if (session && SSL_set_fd(session, fd) != 1) {
        SSL_free(session);
        return nullptr;
    }
    if (session)
        SSL_set_accept_state(session);
    return session;
}

}  // namespace meridian

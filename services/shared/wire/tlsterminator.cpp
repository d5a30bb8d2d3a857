#include "tlsterminator.h"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/pem.h>
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

// PEM text as an OpenSSL stream, freed with its owner.
class Bio {
public:
    explicit Bio(const std::string &text)
        : m_bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())))
    {}
    ~Bio() { BIO_free(m_bio); }
    Bio(const Bio &) = delete;
    Bio &operator=(const Bio &) = delete;
    BIO *get() const { return m_bio; }

private:
    BIO *m_bio;
};

}  // namespace

Result<std::shared_ptr<TlsServerContext>> TlsServerContext::create(const ServerTlsFiles &files,
                                                                   const ServerSecurity &names)
{
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (!context)
        return Error{"cannot create a TLS context: " + openSslError()};
    std::shared_ptr<TlsServerContext> owner(new TlsServerContext(context));
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);

    // The certificate, then the rest of its chain, as the file lists them.
    Bio certificates(files.certificatePem);
    X509 *leaf = PEM_read_bio_X509(certificates.get(), nullptr, nullptr, nullptr);
    if (!leaf || SSL_CTX_use_certificate(context, leaf) != 1) {
        X509_free(leaf);
        return Error{fmt::format("tls.cert_file {}: {}", names.certFile, openSslError())};
    }
    X509_free(leaf);
    while (X509 *link = PEM_read_bio_X509(certificates.get(), nullptr, nullptr, nullptr)) {
        if (SSL_CTX_add0_chain_cert(context, link) != 1) {
            X509_free(link);
            return Error{fmt::format("tls.cert_file {}: {}", names.certFile, openSslError())};
        }
    }
    ERR_clear_error();  // the end of the chain reads as "no start line"

    Bio keyText(files.keyPem);
    EVP_PKEY *key = PEM_read_bio_PrivateKey(keyText.get(), nullptr, nullptr, nullptr);
    if (!key)
        return Error{fmt::format("tls.key_file {}: not a PEM private key", names.keyFile)};
    const bool keyUsed = SSL_CTX_use_PrivateKey(context, key) == 1;
    EVP_PKEY_free(key);
    if (!keyUsed || SSL_CTX_check_private_key(context) != 1)
        return Error{fmt::format("tls.key_file {} is not the key of tls.cert_file {}",
                                 names.keyFile, names.certFile)};

    if (!files.clientCaPem.empty()) {
        Bio authorities(files.clientCaPem);
        X509_STORE *store = SSL_CTX_get_cert_store(context);
        int loaded = 0;
        while (X509 *ca = PEM_read_bio_X509(authorities.get(), nullptr, nullptr, nullptr)) {
            loaded += X509_STORE_add_cert(store, ca) == 1 ? 1 : 0;
            X509_free(ca);
        }
        ERR_clear_error();
        if (loaded == 0)
            return Error{
                fmt::format("tls.client_ca_file {}: no certificate in it", names.clientCaFile)};
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

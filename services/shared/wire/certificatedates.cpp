#include "certificatedates.h"

#include <fmt/format.h>
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <ctime>
#include <memory>

namespace meridian {

namespace {

std::string utcDate(int64_t unixS)
{
    const std::time_t t = static_cast<std::time_t>(unixS);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
    return text;
}

std::optional<int64_t> unixTime(const ASN1_TIME *time)
{
    std::tm tm{};
    if (!time || ASN1_TIME_to_tm(time, &tm) != 1)
        return std::nullopt;
    return static_cast<int64_t>(timegm(&tm));
}

}  // namespace

Status checkCertificateDates(const std::string &path, const std::string &pem, int64_t nowUnixS)
{
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
    std::unique_ptr<X509, decltype(&X509_free)> certificate(
        bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr, X509_free);
    if (!certificate)
        return Error{fmt::format("{}: not a PEM certificate", path)};
    const auto notBefore = unixTime(X509_get0_notBefore(certificate.get()));
    const auto notAfter = unixTime(X509_get0_notAfter(certificate.get()));
    if (!notBefore || !notAfter)
        return Error{fmt::format("{}: the certificate's validity dates cannot be read", path)};
    if (nowUnixS > *notAfter)
        return Error{
            fmt::format("{}: the certificate expired on {}; renew it (clients refuse "
                        "an expired certificate)",
                        path, utcDate(*notAfter))};
    if (nowUnixS < *notBefore)
        return Error{
            fmt::format("{}: the certificate is not valid before {}; is this machine's "
                        "clock right?",
                        path, utcDate(*notBefore))};
    return {};
}

}  // namespace meridian

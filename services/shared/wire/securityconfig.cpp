#include "securityconfig.h"

#include <fmt/format.h>

#include "core/textfile.h"
#include "core/yamlfile.h"

namespace meridian {

Status readServerSecurity(const std::string &path, const YAML::Node &root, ServerSecurity &security)
{
    if (const YAML::Node within = root["authenticate_within_seconds"]) {
        double seconds = security.authenticateWithinMs / 1000.0;
        yamlRead(root, "authenticate_within_seconds", seconds);
        if (!(seconds >= 1 && seconds <= 300))
            return yamlError(path, within, "authenticate_within_seconds: 1..300");
        security.authenticateWithinMs = static_cast<int>(seconds * 1000);
    }
    if (const YAML::Node tls = root["tls"]) {
        if (Status s = checkKeys(path, tls, {"cert_file", "key_file", "client_ca_file"}); !s)
            return s;
        yamlRead(tls, "cert_file", security.certFile);
        yamlRead(tls, "key_file", security.keyFile);
        yamlRead(tls, "client_ca_file", security.clientCaFile);
        security.certFile = besideFile(path, security.certFile);
        security.keyFile = besideFile(path, security.keyFile);
        security.clientCaFile = besideFile(path, security.clientCaFile);
        if (security.certFile.empty() != security.keyFile.empty())
            return yamlError(path, tls, "tls needs both cert_file and key_file");
    }
    if (const YAML::Node tokens = root["tokens"]) {
        if (!tokens.IsSequence())
            return yamlError(path, tokens,
                             "tokens must be a list of {name, role, token | token_file}");
        for (const YAML::Node &entry : tokens) {
            if (Status s = checkKeys(path, entry, {"name", "role", "token", "token_file"}); !s)
                return s;
            TokenGrant grant;
            std::string role = "read-only";
            std::string tokenFile;
            yamlRead(entry, "name", grant.name);
            yamlRead(entry, "role", role);
            yamlRead(entry, "token", grant.token);
            yamlRead(entry, "token_file", tokenFile);
            if (role != "read-only" && role != "operator")
                return yamlError(path, entry,
                                 fmt::format("role '{}': use read-only or operator", role));
            grant.role = role == "operator" ? Role::Operator : Role::ReadOnly;
            if (!tokenFile.empty()) {
                auto secret = readTextFile(besideFile(path, tokenFile), 4096);
                if (!secret)
                    return yamlError(path, entry, secret.error().message);
                grant.token = secret.value();
                while (!grant.token.empty() &&
                       (grant.token.back() == '\n' || grant.token.back() == '\r'))
                    grant.token.pop_back();
            }
            if (grant.token.size() < 16)
                return yamlError(path, entry, "a token must be at least 16 characters");
            security.tokens.push_back(std::move(grant));
        }
    }
    return {};
}

}  // namespace meridian

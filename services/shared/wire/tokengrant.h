// A bearer token and the role it grants: what the authorizer checks a call against, and
// what a guarded connection's room counts its slots by.
#pragma once

#include <string>

namespace meridian {

enum class Role { ReadOnly, Operator };

struct TokenGrant {
    std::string name;  // who, for the audit trail
    std::string token;
    Role role = Role::ReadOnly;
};

}  // namespace meridian

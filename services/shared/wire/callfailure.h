// A failed gRPC call in the words an on-call engineer acts on: what went wrong and what
// to check, never a bare status number ("agent is not running (14)").
#pragma once

#include <string>

namespace grpc {
class Status;
}

namespace meridian {

// `code` is a grpc::StatusCode; `message` the status's own text (often the library's).
std::string describeCallFailure(int code, const std::string &message);
std::string describeCallFailure(const grpc::Status &status);

// For a server that is not an agent (the capacity pool, the controller): the status's own
// text, or, where it has none, what its code means.
std::string statusInWords(const grpc::Status &status);

}  // namespace meridian

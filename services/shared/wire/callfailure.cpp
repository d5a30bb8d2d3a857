#include "callfailure.h"

#include <fmt/format.h>
#include <grpcpp/support/status.h>

namespace meridian {

namespace {

bool mentions(const std::string &text, const char *what)
{
    return text.find(what) != std::string::npos;
}

// What gRPC's own transport errors mean, by the phrases its messages carry.
std::string transportProblem(const std::string &message)
{
    if (mentions(message, "Connection refused"))
        return "connection refused: nothing listens on the agent's port (is meridian-agent "
               "running?)";
    if (mentions(message, "No route to host") || mentions(message, "Network is unreachable"))
        return "no route to the node: check its network and the data center's uplink";
    if (mentions(message, "DNS resolution failed") || mentions(message, "Name or service not"))
        return "the node's name does not resolve: check the inventory's address and DNS";
    if (mentions(message, "Handshake failed") || mentions(message, "handshake") ||
        mentions(message, "SSL") || mentions(message, "certificate"))
        return "TLS handshake failed: check the CA file and the agent's certificate";
    if (mentions(message, "Connection reset") || mentions(message, "Socket closed") ||
        mentions(message, "Broken pipe"))
        return "the connection was cut: the agent restarted or the network dropped it";
    if (mentions(message, "timed out") || mentions(message, "Timeout"))
        return "no answer in time: the node is down or a firewall drops the traffic";
    return {};
}

}  // namespace

std::string describeCallFailure(int code, const std::string &message)
{
    const std::string detail = message.empty() ? std::string() : ": " + message;
    switch (static_cast<grpc::StatusCode>(code)) {
    case grpc::StatusCode::OK: return "the agent ended the stream";
    case grpc::StatusCode::UNAVAILABLE: {
        const std::string plain = transportProblem(message);
        if (!plain.empty())
            return plain;
        return message.empty() ? "the agent is not reachable" : message;
    }
    case grpc::StatusCode::DEADLINE_EXCEEDED:
        return "no answer in time: the agent is overloaded, hung, or the network drops it";
    case grpc::StatusCode::UNAUTHENTICATED:
        return "the agent refused this console's token: check token_file on both sides" + detail;
    case grpc::StatusCode::PERMISSION_DENIED:
        return "the agent refused this console (not allowed)" + detail;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
        return "the agent is at its limit (too many consoles or too large a request)" + detail;
    case grpc::StatusCode::UNIMPLEMENTED:
        return "this address does not serve the agent's calls: it is not a meridian-agent, or "
               "one older than this console" +
               detail;
    case grpc::StatusCode::CANCELLED: return "the call was cancelled" + detail;
    case grpc::StatusCode::INVALID_ARGUMENT: return "the agent refused the request" + detail;
    case grpc::StatusCode::INTERNAL:
    case grpc::StatusCode::UNKNOWN:
    case grpc::StatusCode::DATA_LOSS: {
        const std::string plain = transportProblem(message);
        return plain.empty() ? "the agent failed" + detail : plain;
    }
    default: return message.empty() ? "the call failed" : message;
    }
}

std::string describeCallFailure(const grpc::Status &status)
{
    return describeCallFailure(static_cast<int>(status.error_code()), status.error_message());
}

std::string statusInWords(const grpc::Status &status)
{
    if (!status.error_message().empty())
        return status.error_message();
    switch (status.error_code()) {
    case grpc::StatusCode::UNIMPLEMENTED:
        return "this address does not serve that call (is it the right program and port?)";
    case grpc::StatusCode::UNAVAILABLE: return "not reachable";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "no answer in time";
    default: return fmt::format("the call failed (gRPC status {})", int(status.error_code()));
    }
}

}  // namespace meridian

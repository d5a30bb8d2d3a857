// Failed agent calls described in plain words, from the messages gRPC really gives.
#include <gtest/gtest.h>

#include <grpcpp/support/status.h>

#include "wire/callfailure.h"

using namespace meridian;

namespace {

std::string described(grpc::StatusCode code, const std::string &message)
{
    return describeCallFailure(grpc::Status(code, message));
}

bool has(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST(CallFailure, TransportErrorsSayWhatToCheck)
{
    const std::string refused =
        described(grpc::StatusCode::UNAVAILABLE,
                  "failed to connect to all addresses; last error: UNKNOWN: "
                  "ipv4:10.1.2.3:50051: Failed to connect to remote host: Connection refused");
    EXPECT_TRUE(has(refused, "connection refused")) << refused;
    EXPECT_TRUE(has(refused, "meridian-agent")) << refused;
    const std::string tls = described(grpc::StatusCode::UNAVAILABLE,
                                      "failed to connect to all addresses; last error: "
                                      "UNKNOWN: ipv4:10.1.2.3:50051: Ssl handshake failed");
    EXPECT_TRUE(has(tls, "TLS")) << tls;
    EXPECT_TRUE(has(described(grpc::StatusCode::DEADLINE_EXCEEDED, "Deadline Exceeded"),
                    "no answer in time"));
    EXPECT_TRUE(has(described(grpc::StatusCode::UNAUTHENTICATED, "missing token"), "token"));
    EXPECT_TRUE(has(described(grpc::StatusCode::UNIMPLEMENTED, ""), "older"));
}

TEST(CallFailure, NeverABareStatusNumber)
{
    for (int code = 0; code <= 16; ++code) {
        const std::string text = describeCallFailure(code, "agent is not running");
        EXPECT_FALSE(text.empty()) << code;
        EXPECT_FALSE(has(text, "(" + std::to_string(code) + ")")) << text;
    }
    EXPECT_EQ(describeCallFailure(static_cast<int>(grpc::StatusCode::UNAVAILABLE),
                                  "agent is not running"),
              "agent is not running");
}

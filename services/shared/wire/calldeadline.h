// A gRPC call's deadline, `timeoutMs` from now. gRPC measures deadlines on the system's
// real clock, whatever clock the caller otherwise runs on: a call on a test's ManualClock
// still gives up after real time.
#pragma once

#include <cstdint>

namespace grpc {
class ClientContext;
}

namespace meridian {

void setCallDeadline(grpc::ClientContext &context, int64_t timeoutMs);

}  // namespace meridian

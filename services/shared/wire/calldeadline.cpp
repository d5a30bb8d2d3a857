#include "calldeadline.h"

#include <grpcpp/client_context.h>

#include <chrono>

namespace meridian {

void setCallDeadline(grpc::ClientContext &context, int64_t timeoutMs)
{
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(timeoutMs));
}

}  // namespace meridian

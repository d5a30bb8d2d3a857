// Every lease a capacity pool lists, over its gRPC API: what pool, controller and bench
// tests read back to see what was leased, taken or released.
#pragma once

#include <grpcpp/grpcpp.h>

#include <vector>

#include "agentprocess.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"

namespace meridian::test {

// Released leases too; none when the pool does not answer within the deadline. With
// `waitForReady`, a pool still starting is waited for (within it) rather than failed.
inline std::vector<v1::Lease> allPoolLeases(v1::CapacityPool::Stub &stub, bool waitForReady = false)
{
    grpc::ClientContext context;
    withDeadline(context);
    context.set_wait_for_ready(waitForReady);
    v1::ListLeasesRequest request;
    request.set_include_released(true);
    v1::ListLeasesResponse response;
    if (!stub.ListLeases(&context, request, &response).ok())
        return {};
    return {response.leases().begin(), response.leases().end()};
}

}  // namespace meridian::test

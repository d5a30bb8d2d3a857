// A rented block of cloud capacity as the books see it: who charged what per card-hour,
// from when, in which billing increments, and which nodes it became.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace meridian {

struct CloudLease {
    std::string leaseId;
    std::string region;
    std::string cardModel;
    std::string requestedBy;
    uint32_t nodes = 0;
    uint32_t cardsPerNode = 0;
    double cnyPerCardHour = 0;
    int64_t billingIncrementSeconds = 3600;  // each started increment is billed in full
    int64_t createdUnixS = 0;                // billing starts here, provisioning included
    std::optional<int64_t> releasedUnixS;
    std::vector<std::string> nodeIds;

    uint32_t cards() const { return nodes * cardsPerNode; }
};

// What a lease costs for the billing increments that start in [fromUnixS, toUnixS),
// counting only increments that started before it was released (or before nowUnixS).
double leaseSpendCny(const CloudLease &lease, int64_t fromUnixS, int64_t toUnixS, int64_t nowUnixS);
double leaseBilledHours(const CloudLease &lease, int64_t fromUnixS, int64_t toUnixS,
                        int64_t nowUnixS);

}  // namespace meridian

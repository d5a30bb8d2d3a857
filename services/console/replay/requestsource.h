// Requests in arrival order, one at a time, so a replay never holds a trace whole: a
// fourteen-day trace has hundreds of millions of requests. Every source can start over
// and yields the same requests each pass (random draws are seeded), so each autoscaler
// of an evaluation sees exactly the same load.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "core/result.h"
#include "loadshape.h"

namespace meridian {

struct TraceRequest {
    double arrivalS = 0;  // from the start of the trace
    int inputTokens = 0;
    int outputTokens = 0;
    // Hashes of the prompt's blocks of kPrefixBlockTokens, each covering everything
    // before it too, where the trace gives them (Mooncake); empty otherwise.
    std::vector<uint64_t> prefixBlocks;
};

// The prompt tokens one prefix block covers, as Mooncake's traces count them.
inline constexpr int kPrefixBlockTokens = 512;

class RequestSource {
public:
    virtual ~RequestSource() = default;

    // The next request, not earlier than the one before; false at the end or when the
    // source broke (then error() says where).
    virtual bool next(TraceRequest &out) = 0;
    // Back to the first request.
    virtual void rewind() = 0;
    virtual std::optional<Error> error() const { return std::nullopt; }

    // The same load with its arrival rate multiplied by `factor` (> 0), keeping its shape
    // over time. The result reads from this source, which must outlive it.
    virtual std::unique_ptr<RequestSource> scaled(double factor, uint64_t seed);
};

// Over requests already in memory (crafted loads in tests, short traces).
class MemorySource final : public RequestSource {
public:
    explicit MemorySource(const std::vector<TraceRequest> &requests) : m_requests(requests) {}
    bool next(TraceRequest &out) override;
    void rewind() override { m_next = 0; }

private:
    const std::vector<TraceRequest> &m_requests;
    size_t m_next = 0;
};

// Requests repeated or dropped at random: each is kept floor(factor) times, plus once
// more with the fraction's probability, the factor the shape's at its arrival (the same
// all along for a plain scaling); copies spread within a second, as distinct users
// would, and are put back in arrival order.
class ScaledSource final : public RequestSource {
public:
    ScaledSource(RequestSource &base, double factor, uint64_t seed);
    ScaledSource(RequestSource &base, LoadShape shape, uint64_t seed);
    bool next(TraceRequest &out) override;
    void rewind() override;
    std::optional<Error> error() const override { return m_base.error(); }

private:
    // A copy waiting for its turn: the heap moves these small keys, not the requests
    // (a tenth of a replay's time went into moving whole requests about the heap).
    struct Pending {
        double arrivalS;
        uint64_t order;
        uint32_t slot;  // its request in m_slots
        bool operator>(const Pending &other) const
        {
            return arrivalS != other.arrivalS ? arrivalS > other.arrivalS : order > other.order;
        }
    };
    bool pull();

    RequestSource &m_base;
    LoadShape m_shape;
    uint64_t m_seed;
    std::mt19937_64 m_rng;
    std::vector<Pending> m_pending;  // a heap, the earliest on top
    std::vector<TraceRequest> m_slots;
    std::vector<uint32_t> m_freeSlots;
    uint64_t m_order = 0;
    double m_lastBaseArrivalS = 0;
    bool m_baseDone = false;
};

}  // namespace meridian

#include "requestsource.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace meridian {

std::unique_ptr<RequestSource> RequestSource::scaled(double factor, uint64_t seed)
{
    return std::make_unique<ScaledSource>(*this, factor, seed);
}

bool MemorySource::next(TraceRequest &out)
{
    if (m_next >= m_requests.size())
        return false;
    out = m_requests[m_next++];
    return true;
}

ScaledSource::ScaledSource(RequestSource &base, double factor, uint64_t seed)
    : ScaledSource(base, LoadShape::flat(factor), seed)
{}

ScaledSource::ScaledSource(RequestSource &base, LoadShape shape, uint64_t seed)
    : m_base(base), m_shape(std::move(shape)), m_seed(seed), m_rng(seed)
{}

void ScaledSource::rewind()
{
    m_base.rewind();
    m_rng.seed(m_seed);
    m_pending.clear();
    m_slots.clear();
    m_freeSlots.clear();
    m_order = 0;
    m_lastBaseArrivalS = 0;
    m_baseDone = false;
}

bool ScaledSource::pull()
{
    TraceRequest request;
    if (!m_base.next(request)) {
        m_baseDone = true;
        return false;
    }
    m_lastBaseArrivalS = request.arrivalS;
    std::uniform_real_distribution<double> unit(0, 1);
    const double factor = m_shape.factorAt(request.arrivalS);
    const double whole = std::floor(factor);
    const int copies = static_cast<int>(whole) + (unit(m_rng) < factor - whole ? 1 : 0);
    for (int c = 0; c < copies; ++c) {
        TraceRequest copy = request;
        if (c > 0) {
            copy.arrivalS += unit(m_rng);
            // Another user's prompt: its blocks are its own, never a cache hit on the
            // original's (which understates what a shared system prompt would save).
            for (uint64_t &block : copy.prefixBlocks)
                block ^= static_cast<uint64_t>(c) * 0x9E3779B97F4A7C15ULL;
        }
        uint32_t slot = 0;
        if (m_freeSlots.empty()) {
            slot = static_cast<uint32_t>(m_slots.size());
            m_slots.push_back(std::move(copy));
        } else {
            slot = m_freeSlots.back();
            m_freeSlots.pop_back();
            m_slots[slot] = std::move(copy);
        }
        m_pending.push_back({m_slots[slot].arrivalS, m_order++, slot});
        std::push_heap(m_pending.begin(), m_pending.end(), std::greater<>());
    }
    return true;
}

bool ScaledSource::next(TraceRequest &out)
{
    // A pending copy may go once the base has moved past it: every later base request,
    // and so every later copy, arrives no earlier than the last one pulled.
    while (!m_baseDone && (m_pending.empty() || m_pending.front().arrivalS > m_lastBaseArrivalS))
        pull();
    if (m_pending.empty())
        return false;
    std::pop_heap(m_pending.begin(), m_pending.end(), std::greater<>());
    const uint32_t slot = m_pending.back().slot;
    m_pending.pop_back();
    out = std::move(m_slots[slot]);  // its prefix blocks and all
    m_freeSlots.push_back(slot);
    return true;
}

}  // namespace meridian

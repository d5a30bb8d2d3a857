#include "servingsim.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>
#include <utility>

namespace meridian {

namespace {

int64_t minuteOf(double seconds)
{
    return static_cast<int64_t>(std::floor(seconds / 60));
}

// Signals look back at most this far.
constexpr double kRecentS = 300;

}  // namespace

ServingSim::ServingSim(RequestSource &requests, ReplicaPerformance performance,
                       StartupTimes startup, int localReplicas, int initialReplicas, double sloS,
                       uint64_t seed)
    : m_source(requests)
    , m_perf(performance)
    , m_startup(startup)
    , m_localReplicas(localReplicas)
    , m_sloS(sloS)
    , m_rng(seed)
{
    m_source.rewind();
    TraceRequest first;
    if (m_source.next(first))
        m_nextArrival = first;
    for (int i = 0; i < initialReplicas; ++i)
        m_replicas.push_back(newReplica(i >= localReplicas));  // warm from the start
    for (int i = 0; i < m_startup.standbyNodes; ++i)
        m_standby.emplace_back(0.0, 0.0);  // provisioned before the replay
}

bool ServingSim::finished() const
{
    return !m_nextArrival && m_queue.empty() &&
           std::all_of(m_replicas.begin(), m_replicas.end(),
                       [](const Replica &r) { return r.inFlight() == 0; });
}

void ServingSim::arrive(double untilS)
{
    while (m_nextArrival && m_nextArrival->arrivalS < untilS) {
        TraceRequest &r = *m_nextArrival;  // replaced below: its blocks move, not copy
        m_queue.push_back({r.arrivalS, static_cast<double>(r.inputTokens),
                           static_cast<double>(r.outputTokens), std::move(r.prefixBlocks)});
        m_recentArrivals.push_back(r.arrivalS);
        if (counted(r.arrivalS)) {
            m_minutes.arrived(minuteOf(r.arrivalS));
            ++m_totals.requests;
        }
        TraceRequest next;
        if (m_source.next(next))
            m_nextArrival = std::move(next);
        else
            m_nextArrival.reset();
    }
    while (!m_recentArrivals.empty() && m_recentArrivals.front() < untilS - kRecentS)
        m_recentArrivals.pop_front();
}

void ServingSim::firstToken(const Request &request, double atS)
{
    const double ttft = atS - request.arrivalS;
    // The step the prefill ends in may round it up by a step: no delay below nothing.
    const double delay = std::max(0.0, ttft - request.ownPrefillS);
    m_recentDelay.emplace_back(atS, delay);
    if (!counted(request.arrivalS))
        return;
    m_totals.ttft.add(ttft);
    m_totals.queueDelay.add(delay);
    m_totals.withinSlo += delay <= m_sloS;
    m_totals.withinTtft += ttft <= m_sloS;
    m_minutes.answered(minuteOf(request.arrivalS), delay);
}

void ServingSim::neverAnswered(double arrivalS)
{
    constexpr double kNever = 1e9;  // outside any objective
    if (!counted(arrivalS))
        return;
    m_totals.ttft.add(kNever);
    m_totals.queueDelay.add(kNever);
    m_minutes.answered(minuteOf(arrivalS), kNever);
}

int64_t ServingSim::lastDecodeStep(const Request &request) const
{
    // Counted as the decode is stepped, a step's tokens taken at a time, so a rate that
    // does not divide the tokens rounds as stepping would.
    const double perStep = m_perf.decodeTokensPerSecond * kStepS;
    if (!(perStep > 0))
        return request.decodeLeft > 0 ? std::numeric_limits<int64_t>::max() : m_step;
    double left = request.decodeLeft;
    int64_t steps = 0;
    while (left > 0) {
        left -= perStep;
        ++steps;
    }
    return m_step + steps;
}

void ServingSim::runUntil(double untilS)
{
    while (m_now < untilS) {
        const double end = m_now + kStepS;
        ++m_step;
        arrive(end);
        admit();
        for (Replica &r : m_replicas) {
            if (r.releaseAtS >= 0 && end >= r.releaseAtS)
                r.draining = true;  // its paid hour is over
            if (!r.rented)
                m_totals.localReplicaSeconds += kStepS;  // its cards are taken, starting or not
            if (r.readyAtS > m_now)
                continue;
            m_totals.readyReplicaSeconds += kStepS;
            // Prefill in arrival order from a shared budget; decode for the rest.
            double budget = m_perf.prefillTokensPerSecond * kStepS;
            bool anyPrefilled = false;
            for (Request &q : r.prefilling) {
                const double take = std::min(budget, q.prefillLeft);
                q.prefillLeft -= take;
                budget -= take;
                if (q.prefillLeft <= 0) {
                    firstToken(q, end);
                    r.decoding.push_back({lastDecodeStep(q), q.arrivalS});
                    std::push_heap(r.decoding.begin(), r.decoding.end(), std::greater<>());
                    anyPrefilled = true;
                }
            }
            if (anyPrefilled)
                std::erase_if(r.prefilling, [](const Request &q) { return q.prefillLeft <= 0; });
            m_totals.busyRequestSeconds += static_cast<double>(r.inFlight()) * kStepS;
            while (!r.decoding.empty() && r.decoding.front().lastStep <= m_step) {
                m_totals.e2e.add(end - r.decoding.front().arrivalS);
                std::pop_heap(r.decoding.begin(), r.decoding.end(), std::greater<>());
                r.decoding.pop_back();
            }
        }
        for (auto it = m_replicas.begin(); it != m_replicas.end();) {
            if (it->draining && it->inFlight() == 0) {
                if (it->rented)
                    m_totals.rentedBilledSeconds += billedSeconds(*it, end);
                it = m_replicas.erase(it);
            } else {
                ++it;
            }
        }
        while (!m_recentDelay.empty() && m_recentDelay.front().first < end - kRecentS)
            m_recentDelay.pop_front();
        if (minuteOf(end) != minuteOf(m_now))
            m_minutes.closeBefore(minuteOf(end));
        m_now = end;
    }
}

ServingSim::Replica ServingSim::newReplica(bool rented) const
{
    Replica r;
    r.rented = rented;
    r.prefixes = PrefixCache(m_perf.prefixCacheBlocks);
    return r;
}

namespace {

// The prompt tokens of `blocks` a replica's cache holds, leaving at least the last one to
// compute (its logits give the first token).
double cachedTokens(const PrefixCache &cache, const std::vector<uint64_t> &blocks,
                    double promptTokens)
{
    if (blocks.empty())
        return 0;
    const auto hits = static_cast<double>(cache.cachedPrefix(blocks));
    return std::min(hits * kPrefixBlockTokens, promptTokens - 1);
}

}  // namespace

size_t ServingSim::route(const Request &request, const std::vector<Replica *> &open,
                         const std::vector<double> &load) const
{
    // No replica can save more than the request's whole prompt but its last token.
    const double mostCached =
        std::min(static_cast<double>(request.prefixBlocks.size()) * kPrefixBlockTokens,
                 std::max(0.0, request.prefillLeft - 1));
    size_t best = open.size();
    double bestWork = 0;
    for (size_t i = 0; i < open.size(); ++i) {
        if (static_cast<int>(open[i]->inFlight()) >= m_perf.maxConcurrency)
            continue;
        if (best != open.size() && load[i] + request.prefillLeft - mostCached > bestWork)
            continue;  // worse even if its cache held the whole prefix: no lookup needed
        const double work =
            load[i] + request.prefillLeft -
            cachedTokens(open[i]->prefixes, request.prefixBlocks, request.prefillLeft);
        if (best == open.size() || work < bestWork ||
            (work == bestWork && open[i]->inFlight() < open[best]->inFlight())) {
            best = i;
            bestWork = work;
        }
    }
    return best;
}

void ServingSim::place(Request request, Replica &replica)
{
    const double prompt = request.prefillLeft;
    const double cached = cachedTokens(replica.prefixes, request.prefixBlocks, prompt);
    // Cached from admission, a little early: a request admitted while an earlier one with
    // the same prefix is still in prefill finds those blocks, where vLLM would compute
    // them again. Prefill is seconds; a conversation's next turn comes minutes later.
    replica.prefixes.insert(request.prefixBlocks);
    request.prefillLeft = prompt - cached;
    request.ownPrefillS = request.prefillLeft / m_perf.prefillTokensPerSecond;
    if (counted(request.arrivalS)) {
        m_totals.promptTokens += static_cast<int64_t>(prompt);
        m_totals.cachedPromptTokens += static_cast<int64_t>(cached);
    }
    replica.prefilling.push_back(std::move(request));
}

namespace {

// The replicas with room, least loaded first, then the fewest in flight, then the first.
// For a request that names no prefix blocks, and so finds nothing cached anywhere, that
// is the router's choice: the top of this heap, instead of a scan of every replica per
// request (a peak's thousands of requests a step).
class LeastLoadedRooms {
public:
    void clear() { m_rooms.clear(); }
    void add(double load, size_t inFlight, size_t index)
    {
        m_rooms.push_back({load, inFlight, index});
        std::push_heap(m_rooms.begin(), m_rooms.end(), std::greater<>());
    }
    // The best replica's index, taken off the heap (add it back with its new load);
    // none when every batch is full.
    std::optional<size_t> take()
    {
        if (m_rooms.empty())
            return std::nullopt;
        const size_t index = m_rooms.front().index;
        std::pop_heap(m_rooms.begin(), m_rooms.end(), std::greater<>());
        m_rooms.pop_back();
        return index;
    }

private:
    struct Room {
        double load;
        size_t inFlight;
        size_t index;
        bool operator>(const Room &other) const
        {
            return std::tie(load, inFlight, index) >
                   std::tie(other.load, other.inFlight, other.index);
        }
    };
    std::vector<Room> m_rooms;
};

}  // namespace

void ServingSim::admit()
{
    // The router sends each waiting request to the ready replica where its first token
    // comes soonest: the least prefill still to do there, its own cached prefix not
    // counted (then the fewest in flight), as a KV-aware gateway would.
    std::vector<Replica *> open;
    std::vector<double> load;
    for (Replica &r : m_replicas) {
        if (r.draining || r.readyAtS > m_now)
            continue;
        open.push_back(&r);
        double tokens = 0;
        for (const Request &q : r.prefilling)
            tokens += q.prefillLeft;
        load.push_back(tokens);
    }
    const auto hasRoom = [&](size_t i) {
        return static_cast<int>(open[i]->inFlight()) < m_perf.maxConcurrency;
    };
    // A request that names blocks is routed by the scan, after which the heap is built
    // again.
    LeastLoadedRooms rooms;
    bool roomsStale = true;
    while (!m_queue.empty()) {
        std::optional<size_t> best;
        if (m_queue.front().prefixBlocks.empty()) {
            if (roomsStale) {
                rooms.clear();
                for (size_t i = 0; i < open.size(); ++i) {
                    if (hasRoom(i))
                        rooms.add(load[i], open[i]->inFlight(), i);
                }
                roomsStale = false;
            }
            best = rooms.take();
        } else {
            if (const size_t routed = route(m_queue.front(), open, load); routed < open.size())
                best = routed;
            roomsStale = true;
        }
        if (!best)
            return;  // every batch is full: the request waits
        Replica &chosen = *open[*best];
        place(std::move(m_queue.front()), chosen);
        m_queue.pop_front();
        load[*best] += chosen.prefilling.back().prefillLeft;
        if (!roomsStale && hasRoom(*best))
            rooms.add(load[*best], chosen.inFlight(), *best);
    }
}

IntervalSignals ServingSim::signals(double windowS) const
{
    IntervalSignals s;
    const auto since = std::lower_bound(m_recentArrivals.begin(), m_recentArrivals.end(),
                                        m_now - std::min(windowS, kRecentS));
    s.arrivalRps = static_cast<double>(m_recentArrivals.end() - since) / windowS;
    s.waiting = static_cast<int>(m_queue.size());
    int servingReplicas = 0;
    for (const Replica &r : m_replicas) {
        s.running += static_cast<int>(r.inFlight());
        if (r.draining || r.releaseAtS >= 0)
            continue;  // going: serving out its paid hour is not capacity to plan with
        if (r.readyAtS <= m_now) {
            ++s.ready;
            ++servingReplicas;
            if (r.rented)
                s.paidHourEndsInS.push_back(paidHourEnd(r) - m_now);
        } else {
            ++s.starting;
            s.provisioning += r.bootedAtS > m_now;
        }
    }
    std::sort(s.paidHourEndsInS.begin(), s.paidHourEndsInS.end());
    s.occupancy = servingReplicas > 0
                      ? static_cast<double>(s.running) / (servingReplicas * m_perf.maxConcurrency)
                      : 1.0;
    // First tokens are recorded in time order: the window is the tail of the recent ones.
    const auto windowStart = std::lower_bound(
        m_recentDelay.begin(), m_recentDelay.end(), m_now - windowS,
        [](const std::pair<double, double> &delay, double t) { return delay.first < t; });
    std::vector<double> delays;
    delays.reserve(static_cast<size_t>(m_recentDelay.end() - windowStart));
    for (auto it = windowStart; it != m_recentDelay.end(); ++it)
        delays.push_back(it->second);
    if (!delays.empty()) {
        const size_t k = std::min(delays.size() - 1, static_cast<size_t>(0.95 * delays.size()));
        std::nth_element(delays.begin(), delays.begin() + static_cast<long>(k), delays.end());
        s.queueDelayP95S = delays[k];
    }
    return s;
}

double ServingSim::sampled(double minS, double maxS)
{
    return std::uniform_real_distribution<double>(minS, maxS)(m_rng);
}

std::optional<double> ServingSim::takeStandby()
{
    const auto ready = std::find_if(m_standby.begin(), m_standby.end(),
                                    [&](const auto &node) { return node.second <= m_now; });
    if (ready == m_standby.end())
        return std::nullopt;
    const double orderedS = ready->first;
    m_standby.erase(ready);
    m_standby.emplace_back(m_now,
                           m_now + sampled(m_startup.provisioningMinS, m_startup.provisioningMaxS));
    return orderedS;
}

void ServingSim::addReplica()
{
    const int local = static_cast<int>(std::count_if(m_replicas.begin(), m_replicas.end(),
                                                     [](const Replica &r) { return !r.rented; }));
    Replica r = newReplica(local >= m_localReplicas);
    r.createdS = m_now;
    const bool weightsOnDisk = m_startup.standbyNodes > 0;
    const std::optional<double> standby = r.rented ? takeStandby() : std::nullopt;
    if (standby)
        r.createdS = *standby;  // its paid hours run on from when the node was ordered
    r.bootedAtS = m_now;
    if (standby || (weightsOnDisk && !r.rented)) {
        r.readyAtS = m_now + sampled(m_startup.warmStartMinS, m_startup.warmStartMaxS);
    } else {
        const double coldStartS = sampled(m_startup.coldStartMinS, m_startup.coldStartMaxS);
        if (r.rented)
            r.bootedAtS += sampled(m_startup.provisioningMinS, m_startup.provisioningMaxS);
        r.readyAtS = r.bootedAtS + coldStartS;
    }
    m_totals.startupS.push_back(r.readyAtS - m_now);
    m_replicas.push_back(std::move(r));
}

void ServingSim::setDesired(int replicas, ReleaseOrder order)
{
    const auto serving = [](const Replica &r) { return !r.draining && r.releaseAtS < 0; };
    int current = static_cast<int>(std::count_if(m_replicas.begin(), m_replicas.end(), serving));
    // More: take back what is still paid for or still warm before starting anything new.
    for (Replica &r : m_replicas) {
        if (current >= replicas)
            break;
        if (!serving(r)) {
            r.releaseAtS = -1;
            r.draining = false;
            ++current;
        }
    }
    while (current < replicas) {
        addReplica();
        ++current;
    }
    if (current <= replicas)
        return;
    // Fewer: cancel what is still starting (rented first), then let ready ones go, rented
    // first; a rented one serves on to the end of the hour it is paid for. Local ones go
    // newest first: the oldest are proven.
    int drop = current - replicas;
    const auto pick = [&](bool rented, bool ready) {
        for (auto it = m_replicas.rbegin(); it != m_replicas.rend() && drop > 0; ++it) {
            if (!serving(*it) || it->rented != rented || (it->readyAtS <= m_now) != ready)
                continue;
            it->draining = true;  // admits nothing more; retired once its batch is done
            --drop;
        }
    };
    pick(true, false);
    pick(false, false);
    releasePaid(drop, order);
    pick(false, true);
}

void ServingSim::releasePaid(int &drop, ReleaseOrder order)
{
    std::vector<Replica *> paid;
    for (auto it = m_replicas.rbegin(); it != m_replicas.rend(); ++it) {
        if (it->rented && !it->draining && it->releaseAtS < 0 && it->readyAtS <= m_now)
            paid.push_back(&*it);
    }
    if (order == ReleaseOrder::SoonestPaidHourFirst) {
        std::stable_sort(paid.begin(), paid.end(), [&](const Replica *a, const Replica *b) {
            return paidHourEnd(*a) < paidHourEnd(*b);
        });
    }
    for (auto it = paid.begin(); it != paid.end() && drop > 0; ++it, --drop) {
        Replica &r = **it;
        r.releaseAtS = paidHourEnd(r);
        if (r.releaseAtS <= m_now)
            r.draining = true;
    }
}

int IntervalSignals::paidHoursEndingWithin(double seconds) const
{
    return static_cast<int>(
        std::upper_bound(paidHourEndsInS.begin(), paidHourEndsInS.end(), seconds) -
        paidHourEndsInS.begin());
}

double ServingSim::paidHourEnd(const Replica &replica) const
{
    // A minute before the hour turns, so the next hour is not started.
    constexpr double hour = 3600;
    return replica.createdS + std::ceil((m_now - replica.createdS + 1e-9) / hour) * hour - 60;
}

double ServingSim::billedSeconds(const Replica &replica, double endS) const
{
    const double lived = std::max(0.0, endS - replica.createdS);
    return std::max(1.0, std::ceil(lived / 3600 - 1e-9)) * 3600;
}

ServingSim::Totals ServingSim::finish()
{
    for (const Replica &r : m_replicas) {
        if (r.rented) {
            const double end = r.releaseAtS >= 0 && r.releaseAtS <= m_now ? r.releaseAtS : m_now;
            m_totals.rentedBilledSeconds += billedSeconds(r, end);
        }
        for (const Request &q : r.prefilling)
            neverAnswered(q.arrivalS);
    }
    m_replicas.clear();
    for (const auto &[orderedS, readyS] : m_standby) {
        const double lived = std::max(0.0, m_now - orderedS);
        m_totals.standbyBilledSeconds += std::max(1.0, std::ceil(lived / 3600 - 1e-9)) * 3600;
    }
    m_standby.clear();
    for (const Request &q : m_queue)
        neverAnswered(q.arrivalS);
    m_queue.clear();
    // What never arrived before the replay was stopped.
    while (m_nextArrival) {
        m_minutes.arrived(minuteOf(m_nextArrival->arrivalS));
        ++m_totals.requests;
        neverAnswered(m_nextArrival->arrivalS);
        TraceRequest next;
        if (m_source.next(next))
            m_nextArrival = std::move(next);
        else
            m_nextArrival.reset();
    }
    m_minutes.closeAll();
    m_totals.queueDelayP95ByMinute = m_minutes.p95ByMinute();
    return std::move(m_totals);
}

}  // namespace meridian

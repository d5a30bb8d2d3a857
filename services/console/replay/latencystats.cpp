#include "latencystats.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

namespace meridian {

namespace {

// Bucket 0 holds everything up to a millisecond; bucket i > 0 ends at 1 ms × 1.01^i.
constexpr double kFirstBucketS = 0.001;
const double kLogGrowth = std::log(1.01);

size_t computedBucketOf(double seconds)
{
    if (!(seconds > kFirstBucketS))
        return 0;
    return static_cast<size_t>(std::ceil(std::log(seconds / kFirstBucketS) / kLogGrowth));
}

// A replay adds three values a request, and the logarithm was a tenth of its time. So a
// value is first looked up by the top bits of its double, the exponent and 8 bits of
// mantissa: slices 0.27% wide, narrower than a bucket's 1%. A slice whose both ends fall
// in one bucket gives it at once (the bucket grows with the value, so everything between
// falls there too); the quarter of slices that hold a bucket's end, and values outside
// the table, compute it.
class BucketTable {
public:
    BucketTable()
    {
        for (uint32_t i = 0; i < kSlices; ++i) {
            const uint64_t first = (m_firstSlice + i) << kDroppedBits;
            const size_t low = computedBucketOf(std::bit_cast<double>(first));
            const size_t high = computedBucketOf(
                std::bit_cast<double>(first | ((uint64_t{1} << kDroppedBits) - 1)));
            m_buckets[i] = low == high ? static_cast<uint16_t>(low) : kStraddles;
        }
    }

    size_t bucketOf(double seconds) const
    {
        const uint64_t slice = std::bit_cast<uint64_t>(seconds) >> kDroppedBits;
        if (slice >= m_firstSlice && slice - m_firstSlice < kSlices) {
            const uint16_t bucket = m_buckets[slice - m_firstSlice];
            if (bucket != kStraddles)
                return bucket;
        }
        return computedBucketOf(seconds);
    }

private:
    static constexpr int kDroppedBits = 52 - 8;
    // From a millisecond, where the buckets begin, to 2^31 s (68 years): 41 binades.
    static constexpr uint32_t kSlices = 41 << 8;
    static constexpr uint16_t kStraddles = 0xffff;
    const uint64_t m_firstSlice = std::bit_cast<uint64_t>(std::ldexp(1.0, -10)) >> kDroppedBits;
    std::array<uint16_t, kSlices> m_buckets{};
};

size_t bucketOf(double seconds)
{
    static const BucketTable table;
    return table.bucketOf(seconds);
}

double bucketEnd(size_t bucket)
{
    return kFirstBucketS * std::exp(kLogGrowth * static_cast<double>(bucket));
}

}  // namespace

void LatencyHistogram::add(double seconds)
{
    const size_t bucket = bucketOf(seconds);
    if (bucket >= m_buckets.size())
        m_buckets.resize(bucket + 1, 0);
    ++m_buckets[bucket];
    ++m_count;
}

double LatencyHistogram::percentile(double p) const
{
    if (m_count == 0)
        return 0;
    // The same rank as sorting the values and taking the one at floor(p × count).
    const auto rank = std::min(m_count - 1, static_cast<int64_t>(p * static_cast<double>(m_count)));
    int64_t seen = 0;
    for (size_t b = 0; b < m_buckets.size(); ++b) {
        seen += m_buckets[b];
        if (seen > rank)
            return b == 0 ? 0.0 : bucketEnd(b);
    }
    return bucketEnd(m_buckets.size() - 1);
}

void MinuteLatency::arrived(int64_t minute)
{
    ++m_open[minute].waiting;
}

void MinuteLatency::answered(int64_t minute, double seconds)
{
    Open &open = m_open[minute];
    open.values.push_back(static_cast<float>(seconds));
    --open.waiting;
}

void MinuteLatency::close(int64_t minute, Open &open)
{
    if (minute < 0 || open.values.empty())
        return;
    const size_t k =
        std::min(open.values.size() - 1, static_cast<size_t>(0.95 * open.values.size()));
    std::nth_element(open.values.begin(), open.values.begin() + static_cast<long>(k),
                     open.values.end());
    if (static_cast<size_t>(minute) >= m_p95.size())
        m_p95.resize(static_cast<size_t>(minute) + 1, -1.0f);
    m_p95[static_cast<size_t>(minute)] = open.values[k];
}

void MinuteLatency::closeBefore(int64_t minute)
{
    for (auto it = m_open.begin(); it != m_open.end() && it->first < minute;) {
        if (it->second.waiting > 0) {
            ++it;
            continue;
        }
        close(it->first, it->second);
        it = m_open.erase(it);
    }
}

void MinuteLatency::closeAll()
{
    for (auto &[minute, open] : m_open)
        close(minute, open);
    m_open.clear();
}

}  // namespace meridian

#include "latencystats.h"

#include <algorithm>
#include <cmath>

namespace meridian {

namespace {

// Bucket 0 holds everything up to a millisecond; bucket i > 0 ends at 1 ms × 1.01^i.
constexpr double kFirstBucketS = 0.001;
const double kLogGrowth = std::log(1.01);

size_t bucketOf(double seconds)
{
    if (!(seconds > kFirstBucketS))
        return 0;
    return static_cast<size_t>(std::ceil(std::log(seconds / kFirstBucketS) / kLogGrowth));
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

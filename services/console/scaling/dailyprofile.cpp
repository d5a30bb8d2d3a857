#include "dailyprofile.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace meridian {

namespace {

constexpr int64_t kMinuteMs = 60'000;
constexpr int64_t kDayMinutes = 1440;

}  // namespace

std::optional<DemandMinute> DailyProfile::record(int64_t atMs, double arrivalRps)
{
    if (!std::isfinite(arrivalRps) || arrivalRps < 0)
        return std::nullopt;  // a rate that cannot be would poison every forecast after it
    const int64_t index = atMs / kMinuteMs;
    if (!m_minutes.empty() && index < m_minutes.back().index)
        return std::nullopt;  // time does not run backwards; a late sample is dropped
    std::optional<DemandMinute> closed;
    if (!m_minutes.empty() && m_minutes.back().index < index && m_minutes.back().samples > 0)
        closed = m_minutes.back();
    if (!m_minutes.empty() && index - m_minutes.back().index > (m_days + 1) * kDayMinutes)
        m_minutes.clear();  // away longer than the days it uses: nothing of them is left
    // Minutes without a sample are kept as gaps, so a day back is always a fixed offset.
    while (!m_minutes.empty() && m_minutes.back().index < index - 1)
        m_minutes.push_back({m_minutes.back().index + 1, 0, 0});
    if (m_minutes.empty() || m_minutes.back().index != index)
        m_minutes.push_back({index, 0, 0});
    m_minutes.back().sum += arrivalRps;
    ++m_minutes.back().samples;
    trim();
    return closed;
}

bool DailyProfile::restore(const std::vector<DemandMinute> &minutes)
{
    if (!m_minutes.empty())
        return false;
    for (size_t i = 1; i < minutes.size(); ++i) {
        if (minutes[i].index <= minutes[i - 1].index)
            return false;
    }
    for (const DemandMinute &m : minutes) {
        if (m.samples <= 0 || !std::isfinite(m.sum) || m.sum < 0)
            continue;  // not a minute record() could have handed out
        if (!m_minutes.empty() && m.index - m_minutes.back().index > (m_days + 1) * kDayMinutes)
            m_minutes.clear();  // the days before such a gap are not used: never fill it
        while (!m_minutes.empty() && m_minutes.back().index < m.index - 1)
            m_minutes.push_back({m_minutes.back().index + 1, 0, 0});
        m_minutes.push_back(m);
        trim();
    }
    return true;
}

int64_t DailyProfile::keptFromIndex(int64_t nowMs) const
{
    return nowMs / kMinuteMs - static_cast<int64_t>(m_days + 1) * kDayMinutes + 1;
}

void DailyProfile::trim()
{
    while (m_minutes.size() > static_cast<size_t>((m_days + 1) * kDayMinutes))
        m_minutes.pop_front();
}

const DemandMinute *DailyProfile::minuteAt(int64_t index) const
{
    if (m_minutes.empty() || index < m_minutes.front().index || index > m_minutes.back().index)
        return nullptr;
    const DemandMinute &m = m_minutes[static_cast<size_t>(index - m_minutes.front().index)];
    return m.samples > 0 ? &m : nullptr;
}

std::optional<double> DailyProfile::forecast(int64_t nowMs, int64_t horizonMs) const
{
    const int64_t now = nowMs / kMinuteMs;
    const int64_t span = std::max<int64_t>(0, horizonMs / kMinuteMs);
    std::vector<double> peaks;
    for (int day = 1; day <= m_days; ++day) {
        const int64_t from = now - day * kDayMinutes;
        // The busiest ten minutes of the span: single minutes are mostly noise.
        double peak = -1;
        for (int64_t start = from; start <= from + std::max<int64_t>(0, span - 9); ++start) {
            double sum = 0;
            int minutes = 0;
            for (int64_t m = start; m < start + std::min<int64_t>(10, span + 1); ++m) {
                if (const DemandMinute *minute = minuteAt(m)) {
                    sum += minute->sum / minute->samples;
                    ++minutes;
                }
            }
            if (minutes > 0)
                peak = std::max(peak, sum / minutes);
        }
        if (peak >= 0)
            peaks.push_back(peak);
    }
    if (peaks.empty())
        return std::nullopt;
    std::sort(peaks.begin(), peaks.end());
    const size_t n = peaks.size();
    return n % 2 ? peaks[n / 2] : (peaks[n / 2 - 1] + peaks[n / 2]) / 2;
}

std::optional<double> DailyProfile::usualRate(int64_t nowMs, int64_t windowMs) const
{
    const int64_t now = nowMs / kMinuteMs;
    std::vector<double> rates;
    for (int64_t m = now - std::max<int64_t>(1, windowMs / kMinuteMs); m <= now; ++m) {
        if (const DemandMinute *minute = minuteAt(m))
            rates.push_back(minute->sum / minute->samples);
    }
    if (rates.empty())
        return std::nullopt;
    const auto middle = rates.begin() + static_cast<long>(rates.size() / 2);
    std::nth_element(rates.begin(), middle, rates.end());
    return *middle;
}

}  // namespace meridian

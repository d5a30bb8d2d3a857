#include "readingcheck.h"

#include <fmt/format.h>

#include <cmath>

namespace meridian {

namespace {

// Generous bounds: a real card at its worst is well inside them.
constexpr double kMinCelsius = -40;
constexpr double kMaxCelsius = 150;
constexpr double kMaxWatts = 10'000;
constexpr uint32_t kMaxClockMhz = 10'000;
constexpr uint64_t kMaxMemoryBytes = uint64_t{16} << 40;  // 16 TiB

class Checker {
public:
    explicit Checker(uint32_t card) : m_card(card) {}

    template <typename T>
    void within(std::optional<T> &value, const char *field, T low, T high)
    {
        if (!value)
            return;
        const bool finite = !std::is_floating_point_v<T> || std::isfinite(double(*value));
        if (finite && *value >= low && *value <= high)
            return;
        m_problems.push_back(fmt::format("card {}: {} {} is impossible; shown as no reading",
                                         m_card, field, *value));
        value.reset();
    }

    std::vector<std::string> problems() && { return std::move(m_problems); }

private:
    uint32_t m_card;
    std::vector<std::string> m_problems;
};

}  // namespace

std::vector<std::string> dropImpossibleReadings(CardSample &s)
{
    Checker check(s.index);
    check.within(s.utilizationPercent, "utilisation %", 0.0, 100.0);
    check.within(s.temperatureCelsius, "temperature °C", kMinCelsius, kMaxCelsius);
    check.within(s.memoryTemperatureCelsius, "memory temperature °C", kMinCelsius, kMaxCelsius);
    check.within(s.powerWatts, "power W", 0.0, kMaxWatts);
    check.within(s.powerLimitWatts, "power limit W", 0.0, kMaxWatts);
    check.within(s.memoryTotalBytes, "memory total bytes", uint64_t{0}, kMaxMemoryBytes);
    // Used may exceed total by rounding in the tool's units, never by more.
    const uint64_t usedCeiling =
        s.memoryTotalBytes ? *s.memoryTotalBytes + *s.memoryTotalBytes / 100 : kMaxMemoryBytes;
    check.within(s.memoryUsedBytes, "memory used bytes", uint64_t{0}, usedCeiling);
    check.within(s.smClockMhz, "SM clock MHz", 0u, kMaxClockMhz);
    check.within(s.memoryClockMhz, "memory clock MHz", 0u, kMaxClockMhz);
    return std::move(check).problems();
}

}  // namespace meridian

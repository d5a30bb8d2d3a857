#include "demandseries.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/textutil.h"
#include "replay/tracelines.h"

namespace meridian {

namespace {

constexpr size_t kMostMinutes = 366 * 24 * 60;

}  // namespace

Result<DemandSeries> readDemandSeries(const std::string &path)
{
    auto lines = TraceLines::read(path);
    if (!lines)
        return lines.error();
    TraceLines::Cursor cursor = TraceLines::begin(lines.value());
    std::string line;
    if (!cursor.next(line))
        return Error{cursor.error() ? cursor.error()->message
                                    : fmt::format("{}: empty, not a demand series", path)};
    double stepS = 0;  // seconds each row holds
    if (startsWith(line, "window_start_s,total_rate_rps"))
        stepS = 600;
    else if (startsWith(line, "minute_start_s,rps"))
        stepS = 60;
    else
        return Error{
            fmt::format("{}:1: not a demand series (ServeGen's window_start_s,"
                        "total_rate_rps or minute_start_s,rps)",
                        path)};
    DemandSeries series;
    const size_t slash = path.find_last_of('/');
    series.name = slash == std::string::npos ? path : path.substr(slash + 1);
    double expectedStart = -1;
    while (cursor.next(line)) {
        if (trim(line).empty())
            continue;
        const auto fields = split(trim(line), ',');
        const auto start = fields.size() >= 2 ? parseNumber(trim(fields[0])) : std::nullopt;
        const auto rate = fields.size() >= 2 ? parseNumber(trim(fields[1])) : std::nullopt;
        const std::string where = fmt::format("{}:{}", path, cursor.lineNumber());
        if (!start || !rate || !std::isfinite(*rate) || *rate < 0)
            return Error{where + ": not a start and a rate of zero or more"};
        const double startS = start.value_or(0);
        if (expectedStart >= 0 && std::abs(startS - expectedStart) > 1e-6)
            return Error{fmt::format("{}: starts at {} s, where {} s was next", where, startS,
                                     expectedStart)};
        expectedStart = startS + stepS;
        for (int m = 0; m < stepS / 60; ++m)
            series.rps.push_back(*rate);
        if (series.rps.size() > kMostMinutes)
            return Error{where + ": more than a year of minutes"};
    }
    if (auto error = cursor.error())
        return *error;
    if (series.rps.empty())
        return Error{fmt::format("{}: no minutes in it", path)};
    return series;
}

std::vector<double> replicasAtPeak(const std::vector<double> &rps, double peakCards,
                                   int cardsPerReplica)
{
    const double peak = rps.empty() ? 0 : *std::max_element(rps.begin(), rps.end());
    if (peak <= 0 || cardsPerReplica <= 0)
        return {};
    std::vector<double> need(rps);
    for (double &v : need)
        v *= peakCards / cardsPerReplica / peak;
    return need;
}

std::vector<double> replicasAtRate(const std::vector<double> &rps, double replicaRps)
{
    if (replicaRps <= 0 || std::none_of(rps.begin(), rps.end(), [](double v) { return v > 0; }))
        return {};
    std::vector<double> need(rps);
    for (double &v : need)
        v /= replicaRps;
    return need;
}

std::vector<double> minutesOf(const std::vector<double> &series, size_t fromMinute, size_t minutes)
{
    if (fromMinute >= series.size())
        return {};
    const size_t end = std::min(series.size(), fromMinute + minutes);
    return {series.begin() + static_cast<long>(fromMinute),
            series.begin() + static_cast<long>(end)};
}

}  // namespace meridian

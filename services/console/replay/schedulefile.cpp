#include "schedulefile.h"

#include <fmt/format.h>

#include <filesystem>

#include "core/linereader.h"
#include "core/textutil.h"

namespace meridian {

namespace {

// A day of minutes a hundred times over: longer than any trace replayed.
constexpr size_t kMostMinutes = 144'000;
constexpr uint64_t kMostReplicas = 100'000;

// "FILE:COLUMN" when what follows the last ':' names no directory and FILE exists.
std::pair<std::string, std::string> fileAndColumn(const std::string &spec)
{
    const size_t colon = spec.rfind(':');
    if (colon == std::string::npos || spec.find('/', colon) != std::string::npos ||
        !std::filesystem::exists(spec.substr(0, colon)))
        return {spec, "replicas"};
    return {spec.substr(0, colon), spec.substr(colon + 1)};
}

}  // namespace

Result<ReplicaSchedule> loadReplicaSchedule(const std::string &spec)
{
    const auto [path, column] = fileAndColumn(spec);
    auto reader = LineReader::open(path);
    if (!reader)
        return reader.error();
    std::string line;
    if (!(*reader)->next(line))
        return (*reader)->error() ? *(*reader)->error() : Error{path + ": empty"};
    const std::vector<std::string_view> header = split(line, ',');
    size_t minuteAt = header.size(), replicasAt = header.size();
    for (size_t i = 0; i < header.size(); ++i) {
        minuteAt = trim(header[i]) == "minute" ? i : minuteAt;
        replicasAt = trim(header[i]) == column ? i : replicasAt;
    }
    if (minuteAt == header.size() || replicasAt == header.size())
        return Error{fmt::format("{}:1: needs a 'minute' and a '{}' column", path, column)};
    ReplicaSchedule schedule{spec, {}};
    bool ended = false;  // a --minutes file's rows go on, empty, past a row's last minute
    while ((*reader)->next(line)) {
        const std::vector<std::string_view> cells = split(line, ',');
        const size_t at = (*reader)->lineNumber();
        const bool empty = cells.size() <= replicasAt || trim(cells[replicasAt]).empty();
        if (empty || ended) {
            if (!empty)
                return Error{fmt::format("{}:{}: replicas after a minute with none", path, at)};
            ended = true;
            continue;
        }
        const auto minute =
            cells.size() > minuteAt ? parseUnsigned(trim(cells[minuteAt])) : std::nullopt;
        // Not a number reads as past the range (the cell is there: not empty above).
        const uint64_t replicas =
            parseUnsigned(trim(cells[replicasAt])).value_or(kMostReplicas + 1);
        if (!minute || *minute != schedule.replicas.size())
            return Error{
                fmt::format("{}:{}: minute must be {}", path, at, schedule.replicas.size())};
        if (replicas > kMostReplicas)
            return Error{fmt::format("{}:{}: {} must be a whole number of replicas, 0..{}", path,
                                     at, column, kMostReplicas)};
        if (schedule.replicas.size() >= kMostMinutes)
            return Error{fmt::format("{}:{}: more than {} minutes", path, at, kMostMinutes)};
        schedule.replicas.push_back(static_cast<int>(replicas));
    }
    if ((*reader)->error())
        return *(*reader)->error();
    if (schedule.replicas.empty())
        return Error{path + ": no minutes"};
    return schedule;
}

}  // namespace meridian

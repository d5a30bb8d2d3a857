#include "scaledfigures.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

namespace meridian {

namespace {

struct Sample {
    std::string name;
    std::string service;  // the `service` label; empty where there is none
    double value = 0;
};

// `name{a="x",service="y"} 1.5` (labels optional); nullopt: not a sample line.
std::optional<Sample> sampleOf(std::string_view line)
{
    Sample s;
    const size_t nameEnd = line.find_first_of("{ ");
    if (nameEnd == std::string_view::npos || nameEnd == 0)
        return std::nullopt;
    s.name = std::string(line.substr(0, nameEnd));
    size_t at = nameEnd;
    if (line[at] == '{') {
        const size_t close = line.find('}', at);
        if (close == std::string_view::npos)
            return std::nullopt;
        const std::string_view labels = line.substr(at + 1, close - at - 1);
        if (const size_t service = labels.find("service=\""); service != std::string_view::npos) {
            const size_t from = service + 9;
            const size_t to = labels.find('"', from);
            if (to == std::string_view::npos)
                return std::nullopt;
            s.service = std::string(labels.substr(from, to - from));
        }
        at = close + 1;
    }
    const std::string value(line.substr(at));
    char *end = nullptr;
    s.value = std::strtod(value.c_str(), &end);  // "NaN" reads as NaN
    if (end == value.c_str())
        return std::nullopt;
    return s;
}

std::optional<double> reading(double value)
{
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

}  // namespace

Result<ScaledFigures> parseScaledMetrics(std::string_view text)
{
    ScaledFigures figures;
    std::map<std::string, ServiceObservation> byService;
    size_t lineNumber = 0;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        ++lineNumber;
        if (line.empty() || line.front() == '#')
            continue;
        const auto s = sampleOf(line);
        if (!s)
            return Error{fmt::format("line {} is not a metric sample: {}", lineNumber,
                                     std::string(line.substr(0, 120)))};
        if (s->name == "meridian_scaled_last_pass_timestamp_seconds") {
            figures.lastPassMs =
                std::isfinite(s->value) && s->value > 0 ? static_cast<int64_t>(s->value * 1000) : 0;
            continue;
        }
        if (s->service.empty())
            continue;
        ServiceObservation &o = byService[s->service];
        o.service = s->service;
        if (s->name == "meridian_scaled_ttft_p95_seconds")
            o.ttftP95Seconds = reading(s->value);
        else if (s->name == "meridian_scaled_queue_delay_p95_seconds")
            o.queueDelayP95Seconds = reading(s->value);
        else if (s->name == "meridian_scaled_objective_p95_seconds")
            o.objectiveSeconds = reading(s->value).value_or(0);
        else if (s->name == "meridian_scaled_plan_steps_pending" && s->value >= 1)
            o.planWaiting = fmt::format("{:.0f} step(s) of a plan wait for approval", s->value);
    }
    for (auto &[name, observation] : byService)
        figures.services.push_back(std::move(observation));
    return figures;
}

}  // namespace meridian

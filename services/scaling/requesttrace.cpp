#include "requesttrace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "core/textutil.h"

namespace meridian {

namespace {

Error lineError(const std::string &path, size_t line, const std::string &what)
{
    return Error{fmt::format("{}:{}: {}", path, line, what)};
}

// What a trace may hold, so a typo or a hostile file is refused instead of turning into
// an endless replay or more requests than memory holds.
constexpr double kMaxTraceSeconds = 366 * 24 * 3600.0;
constexpr size_t kMaxRequests = 50'000'000;
constexpr uint64_t kMaxTokens = 10'000'000;
// Azure traces are stamped with wall-clock times; anything outside this is a broken row.
constexpr int64_t kEarliestUnixS = 946'684'800;  // 2000-01-01
constexpr int64_t kLatestUnixS = 4'102'444'800;  // 2100-01-01

bool tokensInRange(uint64_t input, uint64_t output)
{
    return input >= 1 && output >= 1 && input <= kMaxTokens && output <= kMaxTokens;
}

// A request at `atS` (from the trace's start) after one at `previousS`: in order, and
// within the longest trace replayed.
std::optional<std::string> arrivalProblem(double atS, double previousS)
{
    if (!std::isfinite(atS))
        return "the time is not a number";
    if (atS < previousS)
        return "rows out of order: this request is earlier than the one before it";
    if (atS > kMaxTraceSeconds)
        return "more than 366 days after the trace's first request";
    return std::nullopt;
}

Error tooManyRequests(const std::string &path, size_t line)
{
    return lineError(
        path, line,
        fmt::format("more than {} requests; replay a part of it (--hours)", kMaxRequests));
}

// "2023-11-16 18:15:46.6805900" in seconds, with the fraction.
std::optional<double> azureTime(std::string_view text)
{
    const size_t dot = text.find('.');
    const auto whole = parseUtcTime(text.substr(0, dot));
    if (!whole)
        return std::nullopt;
    double fraction = 0;
    if (dot != std::string_view::npos) {
        const auto digits = parseNumber(std::string("0") + std::string(text.substr(dot)));
        if (!digits)
            return std::nullopt;
        fraction = *digits;
    }
    return static_cast<double>(*whole) + fraction;
}

Result<RequestTrace> loadAzure(const std::string &path, std::istream &in)
{
    RequestTrace trace;
    std::string line;
    size_t number = 1;  // the header
    std::optional<double> start;
    while (std::getline(in, line)) {
        ++number;
        if (trim(line).empty())
            continue;
        const auto fields = split(trim(line), ',');
        if (fields.size() != 3)
            return lineError(path, number, "expected TIMESTAMP,ContextTokens,GeneratedTokens");
        const auto at = azureTime(trim(fields[0]));
        const auto input = parseUnsigned(trim(fields[1]));
        const auto output = parseUnsigned(trim(fields[2]));
        if (!at || !input || !output)
            return lineError(path, number, "a time and two token counts expected");
        if (*at < kEarliestUnixS || *at >= kLatestUnixS)
            return lineError(path, number, "a time between the years 2000 and 2100 expected");
        if (!tokensInRange(*input, *output))
            return lineError(path, number, "token counts must be 1..10000000");
        if (!start)
            start = *at;
        const double arrival = *at - *start;
        if (auto problem = arrivalProblem(
                arrival, trace.requests.empty() ? 0.0 : trace.requests.back().arrivalS))
            return lineError(path, number, *problem);
        if (trace.requests.size() >= kMaxRequests)
            return tooManyRequests(path, number);
        trace.requests.push_back({arrival, static_cast<int>(*input), static_cast<int>(*output)});
    }
    return trace;
}

Result<RequestTrace> loadMooncake(const std::string &path, std::istream &in)
{
    RequestTrace trace;
    std::string line;
    size_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (trim(line).empty())
            continue;
        const auto doc = nlohmann::json::parse(line, nullptr, false);
        if (doc.is_discarded() || !doc.is_object() || !doc.contains("timestamp") ||
            !doc["timestamp"].is_number() || !doc.contains("input_length") ||
            !doc["input_length"].is_number_unsigned() || !doc.contains("output_length") ||
            !doc["output_length"].is_number_unsigned())
            return lineError(path, number, "expected {timestamp, input_length, output_length}");
        const double atMs = doc["timestamp"].get<double>();
        const auto input = doc["input_length"].get<uint64_t>();
        const auto output = doc["output_length"].get<uint64_t>();
        if (!tokensInRange(input, output))
            return lineError(path, number, "input_length and output_length must be 1..10000000");
        if (auto problem = arrivalProblem(
                atMs / 1000.0, trace.requests.empty() ? 0.0 : trace.requests.back().arrivalS))
            return lineError(path, number, *problem);
        if (trace.requests.size() >= kMaxRequests)
            return tooManyRequests(path, number);
        trace.requests.push_back(
            {atMs / 1000.0, static_cast<int>(input), static_cast<int>(output)});
    }
    return trace;
}

// Prompt and output lengths like the Azure conversation trace (log-normal fits of it).
TraceRequest drawLengths(std::mt19937_64 &rng, double at)
{
    std::lognormal_distribution<double> input(std::log(1020.0), 0.95);
    std::lognormal_distribution<double> output(std::log(130.0), 1.0);
    return {at, std::clamp(static_cast<int>(input(rng)), 8, 16'000),
            std::clamp(static_cast<int>(output(rng)), 1, 2'000)};
}

Result<RequestTrace> loadServeGen(const std::string &path, std::istream &in, double maxSeconds,
                                  uint64_t seed)
{
    RequestTrace trace;
    std::mt19937_64 rng(seed);
    std::string line;
    size_t number = 1;
    double nextWindowS = 0;
    while (std::getline(in, line)) {
        ++number;
        if (trim(line).empty())
            continue;
        const auto fields = split(trim(line), ',');
        if (fields.size() < 2)
            return lineError(path, number, "expected window_start_s,total_rate_rps,...");
        const auto start = parseNumber(trim(fields[0]));
        const auto rate = parseNumber(trim(fields[1]));
        if (!start || !rate || *start < 0 || *rate < 0 || *rate > 1e6)
            return lineError(path, number, "a window start and a rate expected");
        if (*start < nextWindowS)
            return lineError(path, number,
                             "windows out of order: each starts 600 s or more "
                             "after the one before");
        if (*start > kMaxTraceSeconds)
            return lineError(path, number, "more than 366 days after the trace's start");
        nextWindowS = *start + 600;
        if (maxSeconds > 0 && *start >= maxSeconds)
            break;
        // The mean count, with room for Poisson noise, must fit before drawing any.
        if (trace.requests.size() + static_cast<size_t>(*rate * 600 * 1.1 + 100) > kMaxRequests)
            return tooManyRequests(path, number);
        // Poisson arrivals at the window's rate.
        std::exponential_distribution<double> gap(std::max(*rate, 1e-9));
        for (double t = *start + gap(rng); t < *start + 600; t += gap(rng))
            trace.requests.push_back(drawLengths(rng, t));
    }
    return trace;
}

}  // namespace

Result<RequestTrace> loadRequestTrace(const std::string &path, double maxSeconds, uint64_t seed)
{
    std::ifstream in(path);
    if (!in)
        return Error{fmt::format("{}: cannot read", path)};
    std::string first;
    std::getline(in, first);
    Result<RequestTrace> trace = Error{""};
    if (startsWith(first, "TIMESTAMP,ContextTokens,GeneratedTokens")) {
        trace = loadAzure(path, in);
    } else if (startsWith(first, "window_start_s,total_rate_rps")) {
        trace = loadServeGen(path, in, maxSeconds, seed);
    } else if (startsWith(trim(first), "{")) {
        in.seekg(0);
        trace = loadMooncake(path, in);
    } else {
        return Error{fmt::format("{}:1: not an Azure, Mooncake or ServeGen trace", path)};
    }
    if (!trace)
        return trace;
    RequestTrace &t = trace.value();
    std::stable_sort(
        t.requests.begin(), t.requests.end(),
        [](const TraceRequest &a, const TraceRequest &b) { return a.arrivalS < b.arrivalS; });
    if (maxSeconds > 0) {
        while (!t.requests.empty() && t.requests.back().arrivalS >= maxSeconds)
            t.requests.pop_back();
    }
    if (t.requests.empty())
        return Error{fmt::format("{}: no requests", path)};
    const size_t slash = path.find_last_of('/');
    t.name = slash == std::string::npos ? path : path.substr(slash + 1);
    t.durationS = t.requests.back().arrivalS + 1;
    return trace;
}

RequestTrace scaleTrace(const RequestTrace &trace, double factor, uint64_t seed)
{
    RequestTrace out;
    out.name = trace.name;
    out.durationS = trace.durationS;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    const double whole = std::floor(factor);
    const double fraction = factor - whole;
    for (const TraceRequest &r : trace.requests) {
        const int copies = static_cast<int>(whole) + (unit(rng) < fraction ? 1 : 0);
        for (int c = 0; c < copies; ++c) {
            TraceRequest copy = r;
            // Copies spread within a second, as distinct users would.
            if (c > 0)
                copy.arrivalS += unit(rng);
            out.requests.push_back(copy);
        }
    }
    std::stable_sort(
        out.requests.begin(), out.requests.end(),
        [](const TraceRequest &a, const TraceRequest &b) { return a.arrivalS < b.arrivalS; });
    return out;
}

}  // namespace meridian

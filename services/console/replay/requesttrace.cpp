#include "requesttrace.h"

#include <fmt/format.h>

#include "tracefile.h"

namespace meridian {

namespace {

constexpr size_t kMaxHeldRequests = 50'000'000;

}  // namespace

Result<RequestTrace> loadRequestTrace(const std::string &path, double maxSeconds, uint64_t seed)
{
    auto source = TraceFileSource::open(path, maxSeconds, seed);
    if (!source)
        return source.error();
    (*source)->setRequestLimit(kMaxHeldRequests);
    RequestTrace trace;
    trace.name = (*source)->name();
    TraceRequest request;
    while ((*source)->next(request))
        trace.requests.push_back(request);
    if (auto error = (*source)->error())
        return *error;
    if (trace.requests.empty())
        return Error{fmt::format("{}: no requests", path)};
    trace.durationS = trace.requests.back().arrivalS + 1;
    return trace;
}

RequestTrace scaleTrace(const RequestTrace &trace, double factor, uint64_t seed)
{
    RequestTrace out;
    out.name = trace.name;
    out.durationS = trace.durationS;
    MemorySource memory(trace.requests);
    ScaledSource scaled(memory, factor, seed);
    TraceRequest request;
    while (scaled.next(request))
        out.requests.push_back(request);
    return out;
}

}  // namespace meridian

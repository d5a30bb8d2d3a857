#include "routehttp.h"

#include <fmt/format.h>
#include <httplib.h>

namespace meridian {

namespace {

// How a cut-off answer ends its error, so answerWasCutOff can tell it from the rest.
constexpr const char *kCutOff = "was cut off";

}  // namespace

Result<RouteAnswer> callRoute(const AlertRoute &route, const RouteCall &call, int timeoutMs,
                              CallWatch &watch)
{
    const size_t scheme = call.url.find("://");
    const size_t pathStart =
        scheme == std::string::npos ? std::string::npos : call.url.find('/', scheme + 3);
    const std::string origin = call.url.substr(0, pathStart);
    httplib::Client client(origin);
    if (!client.is_valid())
        return Error{fmt::format("{}: cannot use {}", route.name, origin)};
    client.set_connection_timeout(timeoutMs / 1000, (timeoutMs % 1000) * 1000);
    client.set_read_timeout(timeoutMs / 1000, (timeoutMs % 1000) * 1000);
    client.set_write_timeout(timeoutMs / 1000, (timeoutMs % 1000) * 1000);
    if (!route.bearerToken.empty())
        client.set_bearer_token_auth(route.bearerToken.c_str());
    if (!route.caFile.empty())
        client.set_ca_cert_path(route.caFile.c_str());
    httplib::Request request;
    request.method = call.method;
    request.path = pathStart == std::string::npos ? "/" : call.url.substr(pathStart);
    request.body = call.body;
    if (!call.body.empty())
        request.set_header("Content-Type", call.contentType);
    RouteAnswer answer;
    bool tooLong = false;
    request.content_receiver = [&](const char *data, size_t size, uint64_t, uint64_t) {
        tooLong = answer.body.size() + size > call.maxAnswerBytes;
        answer.body.append(data, tooLong ? 0 : size);
        return !tooLong;
    };
    const CallWatch::Watched watched = watch.watch(timeoutMs, [&client] { client.stop(); });
    const httplib::Result result = client.send(request);
    if (watched.aborted())
        return Error{fmt::format("{} ({}): no complete answer within {} s", route.name, origin,
                                 timeoutMs / 1000.0)};
    if (tooLong)
        return Error{fmt::format("{} ({}): the answer passed {} KiB and {}", route.name, origin,
                                 call.maxAnswerBytes >> 10, kCutOff)};
    if (!result)
        return Error{
            fmt::format("{} ({}): {}", route.name, origin, httplib::to_string(result.error()))};
    answer.status = result->status;
    return answer;
}

bool answerWasCutOff(const Error &error)
{
    return error.message.ends_with(kCutOff);
}

}  // namespace meridian

// One HTTP call to a route's receiver, as every talk with a receiver is made: the route's
// bearer token and CA, a deadline for the whole call (httplib's own timeouts restart with
// each byte), and a cap on the answer kept. Sending alerts and keeping silences in an
// Alertmanager both go through it.
#pragma once

#include <string>

#include "alertrouting.h"
#include "core/callwatch.h"
#include "core/result.h"

namespace meridian {

// A receiver's answer is an acknowledgement or a short list; past this it is not one.
constexpr size_t kMaxRouteAnswerBytes = 256 * 1024;

struct RouteCall {
    std::string method = "POST";
    std::string url;  // full, query included
    std::string body;
    std::string contentType = "application/json";
    size_t maxAnswerBytes = kMaxRouteAnswerBytes;  // past this the answer is refused
};

struct RouteAnswer {
    int status = 0;
    std::string body;
};

// The answer whatever its status; an error (naming the route and its origin) when no
// whole answer came within `timeoutMs`, or it passed the cap.
Result<RouteAnswer> callRoute(const AlertRoute &route, const RouteCall &call, int timeoutMs,
                              CallWatch &watch);
// Whether callRoute failed because the answer passed the call's cap (the receiver
// answered, with more than is taken), not because it did not answer.
bool answerWasCutOff(const Error &error);

}  // namespace meridian

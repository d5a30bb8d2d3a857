// The HTTP request each receiver expects for a batch of alerts: Alertmanager's
// POST /api/v2/alerts, WeCom and DingTalk group robots (markdown), Feishu custom bots
// (text, signed), or plain JSON. Pure functions: what goes out is tested byte for byte.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "alertnotice.h"
#include "alertrouting.h"
#include "labelmatcher.h"

namespace meridian {

struct HttpPost {
    std::string url;  // full, query included
    std::string body;
    std::string contentType = "application/json";
};

// Firing alerts sent to Alertmanager end this long after `nowMs` unless sent again, so
// alerts of a console that died resolve by themselves.
constexpr int64_t kAlertmanagerHoldMs = 5 * 60'000;

HttpPost alertPost(const AlertRoute &route, const std::vector<AlertNotice> &notices, int64_t nowMs);

// The labels an alert carries to Alertmanager: alertname, severity, source, meridian_key,
// and dc, node, card, netdev, service and xid where it has them. A silence is matched
// against these, whoever made it, so what Alertmanager silences and what Meridian holds
// back are the same alerts.
AlertLabels alertLabels(const AlertNotice &notice);
AlertLabels alertLabels(const Alert &alert);

// Percent-encoding of everything but RFC 3986's unreserved characters: a query's value.
std::string urlEncode(const std::string &text);
// "2026-12-03T04:55:00.000Z"
std::string rfc3339(int64_t unixMs);
// DingTalk's and Feishu's signature: base64(HMAC-SHA256(key, message)).
std::string hmacSha256Base64(const std::string &key, const std::string &message);

}  // namespace meridian

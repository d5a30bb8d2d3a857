#include "alertpayloads.h"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <ctime>

namespace meridian {

namespace {

using nlohmann::json;

// Chat messages stay readable: beyond this many alerts the rest are counted.
constexpr size_t kChatAlertsListed = 10;

std::string severityName(AlertSeverity severity)
{
    return severity == AlertSeverity::Critical ? "critical" : "warning";
}

// What an alert and its notice both say of the labels.
struct LabelFields {
    AlertKind kind;
    AlertSeverity severity;
    const std::string &key;
    const std::string &dataCenter;
    const std::string &node;
    std::optional<uint32_t> card;
    const std::string &netdev;
    const std::string &service;
    std::optional<uint32_t> xid;
};

AlertLabels labelsOf(const LabelFields &f)
{
    AlertLabels labels = {{"alertname", alertmanagerAlertName(f.kind)},
                          {"severity", severityName(f.severity)},
                          {"source", "meridian"},
                          {"meridian_key", f.key}};
    if (!f.dataCenter.empty())
        labels["dc"] = f.dataCenter;
    if (!f.node.empty())
        labels["node"] = f.node;
    if (f.card)
        labels["card"] = std::to_string(*f.card);
    if (!f.netdev.empty())
        labels["netdev"] = f.netdev;
    if (!f.service.empty())
        labels["service"] = f.service;
    if (f.xid)
        labels["xid"] = std::to_string(*f.xid);
    return labels;
}

json alertmanagerAlert(const AlertNotice &n, int64_t nowMs)
{
    const json labels = alertLabels(n);
    json annotations = {
        {"summary", fmt::format("{}: {}", n.title, n.subject)},
        {"description", n.message.empty() ? n.meaning : n.meaning + ". " + n.message},
        {"next_step", n.nextStep}};
    // Acknowledgement is an annotation: Alertmanager has no state for it, and a label
    // would make the acknowledged alert a new one.
    if (!n.acknowledgedBy.empty())
        annotations["acknowledged_by"] = n.acknowledgedBy;
    if (!n.note.empty())
        annotations["note"] = n.note;
    return {{"labels", labels},
            {"annotations", annotations},
            {"startsAt", rfc3339(n.startsAtMs)},
            {"endsAt", rfc3339(n.resolved ? std::max(n.endsAtMs, n.startsAtMs)
                                          : nowMs + kAlertmanagerHoldMs)}};
}

std::string headline(const AlertNotice &n)
{
    return fmt::format("{} {}: {}",
                       n.resolved                              ? "RESOLVED"
                       : n.severity == AlertSeverity::Critical ? "CRITICAL"
                                                               : "WARNING",
                       n.title, n.subject);
}

// Markdown for WeCom and DingTalk: a line per alert, its detail and the next step.
std::string chatMarkdown(const std::vector<AlertNotice> &notices, bool wecomColours)
{
    std::string text;
    for (size_t i = 0; i < notices.size() && i < kChatAlertsListed; ++i) {
        const AlertNotice &n = notices[i];
        const std::string head = headline(n);
        if (wecomColours) {
            const char *colour = n.resolved                              ? "info"
                                 : n.severity == AlertSeverity::Critical ? "warning"
                                                                         : "comment";
            text += fmt::format("<font color=\"{}\">**{}**</font>\n", colour, head);
        } else {
            text += fmt::format("**{}**\n\n", head);
        }
        if (!n.dataCenter.empty())
            text += fmt::format("> {} · since {}{}\n", n.dataCenter, rfc3339(n.startsAtMs),
                                n.console.empty() ? std::string() : " · seen by " + n.console);
        if (!n.message.empty())
            text += fmt::format("> {}\n", n.message);
        if (!n.resolved && !n.nextStep.empty())
            text += fmt::format("> Next: {}\n", n.nextStep);
        text += "\n";
    }
    if (notices.size() > kChatAlertsListed)
        text += fmt::format("… and {} more: meridian-watch list, or the console\n",
                            notices.size() - kChatAlertsListed);
    return text;
}

std::string plainText(const std::vector<AlertNotice> &notices)
{
    std::string text;
    for (size_t i = 0; i < notices.size() && i < kChatAlertsListed; ++i) {
        const AlertNotice &n = notices[i];
        text += headline(n) + "\n";
        if (!n.message.empty())
            text += "  " + n.message + "\n";
        if (!n.resolved && !n.nextStep.empty())
            text += "  Next: " + n.nextStep + "\n";
    }
    if (notices.size() > kChatAlertsListed)
        text += fmt::format("… and {} more: meridian-watch list, or the console\n",
                            notices.size() - kChatAlertsListed);
    return text;
}

json plainJson(const AlertNotice &n)
{
    json j = {{"key", n.key},
              {"kind", alertKindName(n.kind)},
              {"severity", severityName(n.severity)},
              {"status", n.resolved ? "resolved" : "firing"},
              {"title", n.title},
              {"subject", n.subject},
              {"data_center", n.dataCenter},
              {"node", n.node},
              {"meaning", n.meaning},
              {"next_step", n.nextStep},
              {"message", n.message},
              {"starts_at", rfc3339(n.startsAtMs)},
              {"console", n.console}};
    if (n.resolved)
        j["ends_at"] = rfc3339(n.endsAtMs);
    if (n.card)
        j["card"] = *n.card;
    if (n.xid)
        j["xid"] = *n.xid;
    if (!n.service.empty())
        j["service"] = n.service;
    if (!n.netdev.empty())
        j["netdev"] = n.netdev;
    return j;
}

std::string withQuery(const std::string &url, const std::string &query)
{
    return url + (url.find('?') == std::string::npos ? "?" : "&") + query;
}

}  // namespace

std::string urlEncode(const std::string &text)
{
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
            out += static_cast<char>(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out;
}

std::string rfc3339(int64_t unixMs)
{
    const std::time_t seconds = static_cast<std::time_t>(unixMs / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900,
                       utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                       static_cast<int>(unixMs % 1000));
}

std::string hmacSha256Base64(const std::string &key, const std::string &message)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char *>(message.data()), message.size(), digest, &length);
    std::string encoded(4 * ((length + 2) / 3), '\0');
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char *>(encoded.data()), digest,
                                        static_cast<int>(length));
    encoded.resize(static_cast<size_t>(written));
    return encoded;
}

HttpPost alertPost(const AlertRoute &route, const std::vector<AlertNotice> &notices, int64_t nowMs)
{
    HttpPost post;
    post.url = route.url;
    switch (route.kind) {
    case RouteKind::Alertmanager: {
        std::string base = route.url;
        while (!base.empty() && base.back() == '/')
            base.pop_back();
        post.url = base + "/api/v2/alerts";
        json alerts = json::array();
        for (const AlertNotice &n : notices)
            alerts.push_back(alertmanagerAlert(n, nowMs));
        post.body = alerts.dump();
        break;
    }
    case RouteKind::WeCom:
        post.body =
            json{{"msgtype", "markdown"}, {"markdown", {{"content", chatMarkdown(notices, true)}}}}
                .dump();
        break;
    case RouteKind::DingTalk: {
        const std::string title = notices.empty() ? "Meridian" : headline(notices.front());
        post.body = json{{"msgtype", "markdown"},
                         {"markdown", {{"title", title}, {"text", chatMarkdown(notices, false)}}}}
                        .dump();
        if (!route.secret.empty()) {
            // DingTalk: sign = base64(HMAC-SHA256(secret, "timestamp\nsecret")), in the URL.
            const std::string timestamp = std::to_string(nowMs);
            const std::string sign =
                hmacSha256Base64(route.secret, timestamp + "\n" + route.secret);
            post.url = withQuery(route.url, "timestamp=" + timestamp + "&sign=" + urlEncode(sign));
        }
        break;
    }
    case RouteKind::Feishu: {
        json body = {{"msg_type", "text"}, {"content", {{"text", plainText(notices)}}}};
        if (!route.secret.empty()) {
            // Feishu: sign = base64(HMAC-SHA256("timestamp\nsecret", "")), in the body.
            const std::string timestamp = std::to_string(nowMs / 1000);
            body["timestamp"] = timestamp;
            body["sign"] = hmacSha256Base64(timestamp + "\n" + route.secret, "");
        }
        post.body = body.dump();
        break;
    }
    case RouteKind::Json: {
        json alerts = json::array();
        for (const AlertNotice &n : notices)
            alerts.push_back(plainJson(n));
        post.body = json{{"source", "meridian"}, {"alerts", alerts}}.dump();
        break;
    }
    }
    return post;
}

AlertLabels alertLabels(const AlertNotice &n)
{
    return labelsOf(
        {n.kind, n.severity, n.key, n.dataCenter, n.node, n.card, n.netdev, n.service, n.xid});
}

AlertLabels alertLabels(const Alert &a)
{
    return labelsOf({a.kind, a.severity, a.key, a.dataCenter, a.nodeName, a.cardIndex, a.netdev,
                     a.service, a.xid});
}

}  // namespace meridian

// Where alerts go besides the window, as a file the team edits (docs/alerting.md):
// Alertmanager's API (so its routing, inhibition, silences and paging apply), webhooks for
// WeCom, DingTalk, Feishu or any JSON receiver, and the desktop (notifications, sound).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "alert.h"
#include "core/result.h"
#include "silencecheck.h"

namespace meridian {

enum class RouteKind { Alertmanager, WeCom, DingTalk, Feishu, Json };
const char *routeKindName(RouteKind kind);

struct AlertRoute {
    std::string name;
    RouteKind kind = RouteKind::Json;
    std::string url;  // Alertmanager: its base URL; webhooks: the full URL with its key
    AlertSeverity minimumSeverity = AlertSeverity::Warning;
    std::vector<AlertKind> kinds;          // only these kinds; empty: all
    std::vector<std::string> dataCenters;  // only these data centers; empty: all
    std::string secret;                    // DingTalk / Feishu signing secret
    std::string bearerToken;               // Alertmanager or JSON receivers behind a proxy
    std::string caFile;                    // for https with a private CA
    // An escalation route (> 0): it hears only of critical alerts nobody has acknowledged
    // or silenced this long after they began, and again every repeatMs while that lasts.
    int64_t escalateAfterMs = 0;
    int64_t repeatMs = 30 * 60'000;

    bool escalates() const { return escalateAfterMs > 0; }
    bool wants(AlertSeverity severity, AlertKind kind, const std::string &dataCenter) const;
};

enum class SoundWhen { Never, Critical, Always };

// What a console alerts on by default, as `pending:` in the routing file sets it: a data
// center dark or an agent silent or unreachable for 30 s (a console that lagged for a few
// seconds, or an agent's blip, pages nobody), a card throttled for heat for 30 s (a
// burst's brief throttle is no page), a link down for 10 s, a PFC storm for 15 s, the
// scaling controller silent for 30 s (a restart is no page); an
// Xid, an ECC error and the rest at once: a fault the card reported is no wolf.
std::map<AlertKind, int64_t> defaultPendingMs();

struct AlertRouting {
    std::vector<AlertRoute> routes;
    // How long each kind's condition holds before it alerts (`pending:`, by alertname).
    std::map<AlertKind, int64_t> pendingMs = defaultPendingMs();
    bool desktopNotifications = true;
    SoundWhen sound = SoundWhen::Critical;
    std::string soundCommand;  // e.g. "paplay /usr/share/sounds/…/alarm.oga"; empty: a beep
    int retries = 5;           // attempts after the first, with doubling delays
    int timeoutMs = 5000;
    int resendMs = 60'000;  // Alertmanager forgets alerts not sent again within its timeout
    // The language of what the routes are sent ("en" or "zh_CN"), whatever each console's
    // window speaks: the team's receivers hear one language. Empty: the console's.
    std::string language;
    // The longest silence anyone may set (`silence_max_hours:`, 1 to 720): the dialog's
    // 72 hours unless the team allows more.
    int64_t silenceMaxMs = kDefaultSilenceMaxMs;
    // `watcher:` — the team's watcher (`meridian-watch`): a console that names one shows
    // its alerts and acts through it instead of evaluating and sending by itself, so one
    // process pages and everyone answers the same alerts. The watcher itself ignores it.
    std::optional<AlertRoute> watcher;
};

// A missing file is no error (nothing but the desktop); a broken one names file and line.
Result<AlertRouting> loadAlertRouting(const std::string &path);

}  // namespace meridian

#include "alertrouting.h"

#include "core/textfile.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/yamlfile.h"

namespace meridian {

namespace {

constexpr std::pair<RouteKind, const char *> kRouteKinds[] = {
    {RouteKind::Alertmanager, "alertmanager"},
    {RouteKind::WeCom, "wecom"},
    {RouteKind::DingTalk, "dingtalk"},
    {RouteKind::Feishu, "feishu"},
    {RouteKind::Json, "json"},
};

bool isHttpUrl(const std::string &url)
{
    return url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
}

}  // namespace

const char *routeKindName(RouteKind kind)
{
    for (const auto &[k, name] : kRouteKinds) {
        if (k == kind)
            return name;
    }
    return "json";
}

bool AlertRoute::wants(AlertSeverity severity, AlertKind kind, const std::string &dataCenter) const
{
    if (severity < minimumSeverity)
        return false;
    if (!kinds.empty() && std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
        return false;
    return dataCenters.empty() ||
           std::find(dataCenters.begin(), dataCenters.end(), dataCenter) != dataCenters.end();
}

namespace {

Status readDesktop(const std::string &path, const YAML::Node &desktop, AlertRouting &routing)
{
    routing.desktopNotifications = yamlValue<bool>(desktop, "notifications", true);
    const std::string sound = yamlValue<std::string>(desktop, "sound", "critical");
    if (sound == "never" || sound == "off")
        routing.sound = SoundWhen::Never;
    else if (sound == "critical")
        routing.sound = SoundWhen::Critical;
    else if (sound == "always" || sound == "all")
        routing.sound = SoundWhen::Always;
    else
        return yamlError(path, desktop["sound"], "sound: never, critical or always");
    routing.soundCommand = yamlValue<std::string>(desktop, "sound_command", "");
    return {};
}

Status readDelivery(const std::string &path, const YAML::Node &delivery, AlertRouting &routing)
{
    routing.retries = yamlValue<int>(delivery, "retries", 5);
    routing.timeoutMs = static_cast<int>(yamlValue<double>(delivery, "timeout_seconds", 5) * 1000);
    if (routing.retries < 0 || routing.retries > 20)
        return yamlError(path, delivery["retries"], "retries: 0..20");
    if (routing.timeoutMs < 100 || routing.timeoutMs > 120'000)
        return yamlError(path, delivery["timeout_seconds"], "timeout_seconds: 0.1..120");
    return {};
}

// Which alerts a route wants: a severity, kinds, data centers.
Status readRouteFilter(const std::string &path, const YAML::Node &entry, AlertRoute &route)
{
    const std::string severity = yamlValue<std::string>(entry, "min_severity", "warning");
    if (severity == "critical")
        route.minimumSeverity = AlertSeverity::Critical;
    else if (severity != "warning")
        return yamlError(path, entry["min_severity"], "min_severity: warning or critical");
    if (const YAML::Node kinds = entry["kinds"]) {
        if (!kinds.IsSequence())
            return yamlError(path, kinds, "kinds: a list of alert kinds");
        for (const YAML::Node &k : kinds) {
            const auto parsed = alertKindFromName(yamlScalar<std::string>(k, "kinds"));
            if (!parsed)
                return yamlError(path, k,
                                 "unknown alert kind (see docs/alerting.md for the names)");
            route.kinds.push_back(*parsed);
        }
    }
    if (const YAML::Node dcs = entry["data_centers"]) {
        if (!dcs.IsSequence())
            return yamlError(path, dcs, "data_centers: a list of data-center names");
        for (const YAML::Node &dc : dcs)
            route.dataCenters.push_back(yamlScalar<std::string>(dc, "data_centers"));
    }
    return {};
}

// OpenSSL reads a CA file with a plain read: a FIFO would hold the delivery thread, and
// with it the console's exit, for ever. Only a regular file of a sane size is taken.
Status checkCaFile(const std::string &caFile)
{
    if (caFile.empty())
        return {};
    auto ca = readTextFile(caFile, 1 << 20);
    if (!ca)
        return ca.error();
    return {};
}

Result<AlertRoute> readRoute(const std::string &path, const YAML::Node &entry,
                             std::set<std::string> &names)
{
    if (!entry.IsMap())
        return yamlError(path, entry, "a route is a mapping with name:, kind: and url:");
    AlertRoute route;
    route.name = yamlValue<std::string>(entry, "name", "");
    if (route.name.empty())
        return yamlError(path, entry, "a route needs a name:");
    if (!names.insert(route.name).second)
        return yamlError(path, entry["name"], "a second route named " + route.name);
    const std::string kind = yamlValue<std::string>(entry, "kind", "");
    const auto known = std::find_if(std::begin(kRouteKinds), std::end(kRouteKinds),
                                    [&](const auto &k) { return kind == k.second; });
    if (known == std::end(kRouteKinds))
        return yamlError(path, entry["kind"] ? entry["kind"] : entry,
                         "kind: alertmanager, wecom, dingtalk, feishu or json");
    route.kind = known->first;
    route.url = yamlValue<std::string>(entry, "url", "");
    if (!isHttpUrl(route.url))
        return yamlError(path, entry["url"] ? entry["url"] : entry,
                         "url: an http:// or https:// address");
    if (Status filter = readRouteFilter(path, entry, route); !filter)
        return filter.error();
    route.secret = yamlValue<std::string>(entry, "secret", "");
    route.bearerToken = yamlValue<std::string>(entry, "bearer_token", "");
    route.caFile = yamlValue<std::string>(entry, "ca_file", "");
    if (Status ca = checkCaFile(route.caFile); !ca)
        return yamlError(path, entry["ca_file"], ca.message());
    if (entry["escalate_after_minutes"]) {
        const double after = yamlValue<double>(entry, "escalate_after_minutes", 0);
        const double repeat = yamlValue<double>(entry, "repeat_minutes", 30);
        if (!(after >= 1 && after <= 1440))
            return yamlError(path, entry["escalate_after_minutes"],
                             "escalate_after_minutes: 1..1440");
        if (!(repeat >= 1 && repeat <= 1440))
            return yamlError(path, entry["repeat_minutes"], "repeat_minutes: 1..1440");
        route.escalateAfterMs = static_cast<int64_t>(after * 60'000);
        route.repeatMs = static_cast<int64_t>(repeat * 60'000);
    }
    return route;
}

}  // namespace

std::map<AlertKind, int64_t> defaultPendingMs()
{
    return {{AlertKind::DataCenterDark, 30'000},  {AlertKind::AgentUnreachable, 30'000},
            {AlertKind::AgentStale, 30'000},      {AlertKind::ThermalThrottle, 30'000},
            {AlertKind::LinkDown, 10'000},        {AlertKind::PfcStorm, 15'000},
            {AlertKind::ControllerSilent, 30'000}};
}

namespace {

// `pending:` maps an alertname (as Alertmanager shows it) to seconds, 0..3600.
Status readPending(const std::string &path, const YAML::Node &pending, AlertRouting &routing)
{
    if (!pending.IsMap())
        return yamlError(path, pending,
                         "pending: alertname: seconds, e.g. MeridianDataCenterDark: 30");
    for (const auto &entry : pending) {
        const std::string name = entry.first.as<std::string>();
        std::optional<AlertKind> kind;
        for (int k = 0; k <= static_cast<int>(kLastAlertKind); ++k) {
            if (alertmanagerAlertName(static_cast<AlertKind>(k)) == name)
                kind = static_cast<AlertKind>(k);
        }
        if (!kind) {
            std::string known;
            for (int k = 0; k <= static_cast<int>(kLastAlertKind); ++k)
                known +=
                    (known.empty() ? "" : ", ") + alertmanagerAlertName(static_cast<AlertKind>(k));
            return yamlError(path, entry.first, "pending: no alert " + name + " (" + known + ")");
        }
        const double seconds = yamlScalar<double>(entry.second, name);
        if (!(seconds >= 0 && seconds <= 3600))
            return yamlError(path, entry.second, "pending: " + name + " must be 0..3600 seconds");
        routing.pendingMs[*kind] = static_cast<int64_t>(seconds * 1000);
    }
    return {};
}

// watcher: the team's watcher this console follows, instead of judging for itself.
Status readWatcher(const std::string &path, const YAML::Node &watcher, AlertRouting &routing)
{
    if (!watcher.IsMap())
        return yamlError(path, watcher,
                         "watcher: a mapping with url: (and bearer_token:, "
                         "ca_file:)");
    AlertRoute w;
    w.name = "watcher";
    w.url = yamlValue<std::string>(watcher, "url", "");
    if (!isHttpUrl(w.url))
        return yamlError(path, watcher["url"] ? watcher["url"] : watcher,
                         "url: the watcher's http:// or https:// address");
    while (!w.url.empty() && w.url.back() == '/')
        w.url.pop_back();
    w.bearerToken = yamlValue<std::string>(watcher, "bearer_token", "");
    w.caFile = yamlValue<std::string>(watcher, "ca_file", "");
    if (Status ca = checkCaFile(w.caFile); !ca)
        return yamlError(path, watcher["ca_file"], ca.message());
    routing.watcher = std::move(w);
    return {};
}

}  // namespace

Result<AlertRouting> loadAlertRouting(const std::string &path)
{
    AlertRouting routing;
    if (!std::filesystem::exists(path))
        return routing;
    auto loaded = loadYamlFile(path);
    if (!loaded)
        return loaded.error();
    const YAML::Node root = loaded.value();
    if (root.IsNull())
        return routing;
    if (!root.IsMap())
        return yamlError(path, root, "expected a mapping with routes:, desktop: and delivery:");
    try {
        if (const YAML::Node desktop = root["desktop"]) {
            if (Status read = readDesktop(path, desktop, routing); !read)
                return read.error();
        }
        routing.language = yamlValue<std::string>(root, "language", "");
        if (!routing.language.empty() && routing.language != "en" && routing.language != "zh_CN")
            return yamlError(path, root["language"],
                             "language: en or zh_CN (what the routes are sent in)");
        if (const YAML::Node hours = root["silence_max_hours"]) {
            const int maxHours = yamlValue<int>(root, "silence_max_hours", 72);
            if (maxHours < 1 || maxHours > 720)
                return yamlError(path, hours,
                                 "silence_max_hours: from 1 to 720 (the longest silence anyone "
                                 "may set)");
            routing.silenceMaxMs = static_cast<int64_t>(maxHours) * 3600'000;
        }
        if (const YAML::Node delivery = root["delivery"]) {
            if (Status read = readDelivery(path, delivery, routing); !read)
                return read.error();
        }
        if (const YAML::Node pending = root["pending"]) {
            if (Status read = readPending(path, pending, routing); !read)
                return read.error();
        }
        if (const YAML::Node watcher = root["watcher"]) {
            if (Status read = readWatcher(path, watcher, routing); !read)
                return read.error();
        }
        const YAML::Node routes = root["routes"];
        if (routes && !routes.IsSequence())
            return yamlError(path, routes, "routes: is a list of receivers");
        std::set<std::string> names;
        for (const YAML::Node &entry : routes ? routes : YAML::Node(YAML::NodeType::Sequence)) {
            auto route = readRoute(path, entry, names);
            if (!route)
                return route.error();
            routing.routes.push_back(std::move(route).value());
        }
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
    return routing;
}

}  // namespace meridian

// The alert routing file, and the requests each receiver gets: Alertmanager's v2 API,
// WeCom and DingTalk markdown, Feishu's signed text, plain JSON.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "alerts/alertpayloads.h"
#include "alerts/alertrouting.h"
#include "testsupport.h"

using namespace meridian;
using nlohmann::json;

namespace {

AlertNotice xid79()
{
    AlertNotice n;
    n.key = "xid/xm-r01-n2/card3";
    n.kind = AlertKind::Xid;
    n.severity = AlertSeverity::Critical;
    n.title = "GPU fell off the bus (Xid 79)";
    n.subject = "xm-r01-n2 card 3";
    n.dataCenter = "xiamen";
    n.node = "xm-r01-n2";
    n.card = 3;
    n.xid = 79;
    n.meaning = "GPU fell off the bus";
    n.nextStep = "Drain the node, reset; replace the card if it recurs";
    n.message = "card 3: Xid 79";
    n.startsAtMs = 1'700'000'000'000;
    return n;
}

}  // namespace

TEST(AlertRouting, ReadsRoutesDesktopAndDelivery)
{
    test::TempDir dir;
    auto routing = loadAlertRouting(dir.write("routes.yaml", R"(
desktop: {notifications: true, sound: always, sound_command: "paplay /tmp/alarm.oga"}
delivery: {retries: 3, timeout_seconds: 2.5}
routes:
  - {name: am, kind: alertmanager, url: "http://127.0.0.1:9093"}
  - name: night-wecom
    kind: wecom
    url: "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K"
    min_severity: critical
    kinds: [Xid, data center dark]
    data_centers: [xiamen]
  - {name: phone, kind: json, url: "http://oncall/page", escalate_after_minutes: 20,
     repeat_minutes: 10}
)"));
    ASSERT_TRUE(routing) << routing.error().message;
    ASSERT_EQ(routing->routes.size(), 3u);
    EXPECT_FALSE(routing->routes[0].escalates());
    EXPECT_TRUE(routing->routes[2].escalates());
    EXPECT_EQ(routing->routes[2].escalateAfterMs, 20 * 60'000);
    EXPECT_EQ(routing->routes[2].repeatMs, 10 * 60'000);
    EXPECT_EQ(routing->sound, SoundWhen::Always);
    EXPECT_EQ(routing->soundCommand, "paplay /tmp/alarm.oga");
    EXPECT_EQ(routing->retries, 3);
    EXPECT_EQ(routing->timeoutMs, 2500);
    const AlertRoute &wecom = routing->routes[1];
    EXPECT_EQ(wecom.kind, RouteKind::WeCom);
    EXPECT_TRUE(wecom.wants(AlertSeverity::Critical, AlertKind::Xid, "xiamen"));
    EXPECT_FALSE(wecom.wants(AlertSeverity::Warning, AlertKind::Xid, "xiamen"));
    EXPECT_FALSE(wecom.wants(AlertSeverity::Critical, AlertKind::LinkDown, "xiamen"));
    EXPECT_FALSE(wecom.wants(AlertSeverity::Critical, AlertKind::Xid, "wuhu"));
    EXPECT_TRUE(routing->routes[0].wants(AlertSeverity::Warning, AlertKind::PfcStorm, "wuhu"));
}

TEST(AlertRouting, AMissingFileIsTheDesktopOnly)
{
    auto routing = loadAlertRouting("/nonexistent/routes.yaml");
    ASSERT_TRUE(routing);
    EXPECT_TRUE(routing->routes.empty());
    EXPECT_TRUE(routing->desktopNotifications);
}

TEST(AlertRouting, AWatcherIsNamedWithItsTokenAndCa)
{
    test::TempDir dir;
    std::ofstream(dir.file("ca.crt")) << "-----BEGIN CERTIFICATE-----\n";
    auto routing = loadAlertRouting(
        dir.write("routes.yaml",
                  "watcher: {url: \"https://ops1:9465/\", bearer_token: t0123456789abcdef, "
                  "ca_file: " +
                      dir.file("ca.crt") + "}\n"));
    ASSERT_TRUE(routing) << routing.error().message;
    ASSERT_TRUE(routing->watcher);
    EXPECT_EQ(routing->watcher->url, "https://ops1:9465");
    EXPECT_EQ(routing->watcher->bearerToken, "t0123456789abcdef");
    EXPECT_EQ(routing->watcher->caFile, dir.file("ca.crt"));
    EXPECT_FALSE(loadAlertRouting(dir.write("routes.yaml", "routes: []\n"))->watcher);
}

// OpenSSL would wait on a FIFO for ever, holding the delivery thread and the exit.
TEST(AlertRouting, ACaFileThatIsNotARegularFileIsRefusedWithItsLine)
{
    test::TempDir dir;
    const std::string fifo = dir.file("ca.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string &text :
         {"routes:\n  - {name: a, kind: json, url: \"https://x\", ca_file: " + fifo + "}\n",
          "watcher: {url: \"https://ops1:9465\", ca_file: " + fifo + "}\n",
          "routes:\n  - {name: a, kind: json, url: \"https://x\", ca_file: " +
              dir.file("missing.crt") + "}\n"}) {
        auto routing = loadAlertRouting(dir.write("routes.yaml", text));
        ASSERT_FALSE(routing) << text;
        EXPECT_NE(routing.error().message.find("routes.yaml:"), std::string::npos)
            << routing.error().message;
        EXPECT_TRUE(routing.error().message.find("ca.fifo: not a regular file") !=
                        std::string::npos ||
                    routing.error().message.find("missing.crt") != std::string::npos)
            << routing.error().message;
    }
}

TEST(AlertRouting, BrokenFilesNameTheFileAndLine)
{
    test::TempDir dir;
    const std::pair<const char *, const char *> cases[] = {
        {"routes:\n  - {name: a, kind: slack, url: \"http://x\"}\n", ":2:"},
        {"routes:\n  - {name: a, kind: json, url: \"ftp://x\"}\n", "http://"},
        {"routes:\n  - {name: a, kind: json, url: \"http://x\"}\n"
         "  - {name: a, kind: json, url: \"http://y\"}\n",
         "second route named a"},
        {"routes:\n  - {name: a, kind: json, url: \"http://x\", kinds: [gremlins]}\n",
         "unknown alert kind"},
        {"delivery: {retries: -1}\n", "retries"},
        {"desktop: {sound: loud}\n", "sound:"},
        {"routes: []\nlanguage: fr\n", ":2:"},
        {"routes:\n  - {name: a, kind: json, url: \"http://x\", escalate_after_minutes: 0}\n",
         "escalate_after_minutes: 1..1440"},
        {"routes: {name: a}\n", "list"},
        {"routes:\n  - [1, 2]\n", "mapping"},
        {"routes: [\n  {name: a\n", "routes.yaml"},
        {"watcher: http://ops1:9465\n", "watcher: a mapping"},
        {"watcher: {url: ops1:9465}\n", "the watcher's http://"},
    };
    for (const auto &[text, expected] : cases) {
        auto routing = loadAlertRouting(dir.write("routes.yaml", text));
        ASSERT_FALSE(routing) << text;
        EXPECT_NE(routing.error().message.find(expected), std::string::npos)
            << text << " → " << routing.error().message;
        EXPECT_NE(routing.error().message.find("routes.yaml"), std::string::npos);
    }
}

TEST(AlertPayloads, AlertmanagerGetsLabelsAnnotationsAndAHoldTime)
{
    AlertRoute am{"am", RouteKind::Alertmanager, "http://127.0.0.1:9093/"};
    const int64_t now = 1'700'000'060'000;
    AlertNotice resolved = xid79();
    resolved.resolved = true;
    resolved.endsAtMs = now;
    const HttpPost post = alertPost(am, {xid79(), resolved}, now);
    EXPECT_EQ(post.url, "http://127.0.0.1:9093/api/v2/alerts");
    const json body = json::parse(post.body);
    ASSERT_EQ(body.size(), 2u);
    const json &firing = body[0];
    EXPECT_EQ(firing["labels"]["alertname"], "MeridianXid");
    EXPECT_EQ(firing["labels"]["severity"], "critical");
    EXPECT_EQ(firing["labels"]["dc"], "xiamen");
    EXPECT_EQ(firing["labels"]["node"], "xm-r01-n2");
    EXPECT_EQ(firing["labels"]["card"], "3");
    EXPECT_EQ(firing["labels"]["xid"], "79");
    EXPECT_EQ(firing["annotations"]["next_step"],
              "Drain the node, reset; replace the card if it recurs");
    EXPECT_EQ(firing["startsAt"], "2023-11-14T22:13:20.000Z");
    EXPECT_EQ(firing["endsAt"], rfc3339(now + kAlertmanagerHoldMs));
    EXPECT_EQ(body[1]["endsAt"], rfc3339(now));
}

TEST(AlertPayloads, ChatRobotsGetMarkdownOrSignedText)
{
    const int64_t now = 1'700'000'000'000;
    AlertRoute wecom{"w", RouteKind::WeCom,
                     "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K"};
    const json w = json::parse(alertPost(wecom, {xid79()}, now).body);
    EXPECT_EQ(w["msgtype"], "markdown");
    const std::string content = w["markdown"]["content"];
    EXPECT_NE(content.find("GPU fell off the bus (Xid 79)"), std::string::npos) << content;
    EXPECT_NE(content.find("Next: Drain the node"), std::string::npos) << content;

    AlertRoute ding{"d", RouteKind::DingTalk,
                    "https://oapi.dingtalk.com/robot/send?access_token=T"};
    ding.secret = "SECabc";
    const HttpPost d = alertPost(ding, {xid79()}, now);
    // The signature DingTalk documents, computed independently for these inputs.
    EXPECT_EQ(d.url,
              "https://oapi.dingtalk.com/robot/send?access_token=T&timestamp=1700000000000"
              "&sign=jcUpW0QmtKduN03n4JqQ0PBosVjqnM8gU7fIIvsDmCM%3D");
    EXPECT_EQ(json::parse(d.body)["msgtype"], "markdown");

    AlertRoute feishu{"f", RouteKind::Feishu, "https://open.feishu.cn/open-apis/bot/v2/hook/H"};
    feishu.secret = "SECabc";
    const json f = json::parse(alertPost(feishu, {xid79()}, now).body);
    EXPECT_EQ(f["msg_type"], "text");
    EXPECT_EQ(f["timestamp"], "1700000000");
    EXPECT_EQ(f["sign"], "XprR1de+0SSBnwWyU/4k6x2TL+Q2SJlM5NNEdAv7MWg=");

    AlertRoute plain{"j", RouteKind::Json, "http://hooks.example/meridian"};
    const json j = json::parse(alertPost(plain, {xid79()}, now).body);
    EXPECT_EQ(j["alerts"][0]["xid"], 79);
    EXPECT_EQ(j["alerts"][0]["status"], "firing");
    EXPECT_EQ(j["alerts"][0]["kind"], "Xid");
}

TEST(AlertPayloads, ChatMessagesCountWhatTheyDoNotList)
{
    std::vector<AlertNotice> many(25, xid79());
    AlertRoute wecom{"w", RouteKind::WeCom, "http://x"};
    const std::string content = json::parse(alertPost(wecom, many, 0).body)["markdown"]["content"];
    EXPECT_NE(content.find("and 15 more"), std::string::npos);
}

TEST(AlertRouting, PendingDurationsHaveDefaultsAndTheFileSetsThemByAlertname)
{
    test::TempDir dir;
    const std::string path = dir.file("routes.yaml");
    auto none = loadAlertRouting(dir.file("absent.yaml"));
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->pendingMs.at(AlertKind::DataCenterDark), 30'000);
    EXPECT_EQ(none->pendingMs.count(AlertKind::Xid), 0u) << "an Xid alerts at once";
    std::ofstream(path) << "pending:\n  MeridianDataCenterDark: 45\n  MeridianXid: 0\n";
    auto set = loadAlertRouting(path);
    ASSERT_TRUE(set.ok()) << set.error().message;
    EXPECT_EQ(set->pendingMs.at(AlertKind::DataCenterDark), 45'000);
    EXPECT_EQ(set->pendingMs.at(AlertKind::Xid), 0);
    EXPECT_EQ(set->pendingMs.at(AlertKind::AgentStale), 30'000) << "the others keep theirs";
    std::ofstream(path) << "pending:\n  MeridianDataCenterDrak: 45\n";
    auto typo = loadAlertRouting(path);
    ASSERT_FALSE(typo.ok());
    EXPECT_NE(typo.error().message.find(path + ":2"), std::string::npos) << typo.error().message;
    EXPECT_NE(typo.error().message.find("no alert MeridianDataCenterDrak"), std::string::npos)
        << typo.error().message;
    std::ofstream(path) << "pending:\n  MeridianAgentStale: 7200\n";
    auto range = loadAlertRouting(path);
    ASSERT_FALSE(range.ok());
    EXPECT_NE(range.error().message.find("0..3600 seconds"), std::string::npos)
        << range.error().message;
    std::ofstream(path) << "pending: [30]\n";
    EXPECT_FALSE(loadAlertRouting(path).ok());
}

// Silences matched as Alertmanager matches them, proven against a real one
// (prometheus-alertmanager on a free port): the same alerts and the same silences given
// to both, Alertmanager's own answer (each alert's silencedBy) is what Meridian's reading
// of the silences says, pair by pair: equality, negation, regex, negated regex, an empty
// value for a label an alert lacks, anchoring, case. And the replies a broken or hostile
// Alertmanager sends (deep, huge, endless, malformed, not UTF-8), each refused by name
// within the deadline, never a crash; five days of expired silences read as they come.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "agentprocess.h"
#include "alerts/alertmanagersilences.h"
#include "alerts/alertpayloads.h"
#include "childprocess.h"
#include "core/clock.h"
#include "hostilehttp.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

Alert alertOf(AlertKind kind, std::string dc, std::string node, AlertSeverity severity)
{
    Alert a;
    a.kind = kind;
    a.severity = severity;
    a.dataCenter = std::move(dc);
    a.nodeName = std::move(node);
    a.key = fmt::format("{}/{}/{}", alertKindName(kind), a.dataCenter, a.nodeName);
    return a;
}

// Alerts with and without each label the matchers below read.
std::vector<Alert> alerts()
{
    Alert xid = alertOf(AlertKind::Xid, "xiamen", "xm-r01-n1", AlertSeverity::Critical);
    xid.cardIndex = 3;
    xid.xid = 79;
    Alert unreachable =
        alertOf(AlertKind::AgentUnreachable, "wuhu", "wh-r02-n3", AlertSeverity::Warning);
    Alert dark = alertOf(AlertKind::DataCenterDark, "zhongwei", "", AlertSeverity::Critical);
    Alert link = alertOf(AlertKind::LinkDown, "xiamen", "xm-r02-n1", AlertSeverity::Warning);
    link.netdev = "eth2";
    Alert slow = alertOf(AlertKind::ServiceOverObjective, "", "", AlertSeverity::Warning);
    slow.service = "chat";
    slow.key = "service/chat";
    return {xid, unreachable, dark, link, slow};
}

json matcher(const std::string &name, const std::string &value, bool regex, bool equal)
{
    return {{"name", name}, {"value", value}, {"isRegex", regex}, {"isEqual", equal}};
}

// Each a silence of its own. Alertmanager refuses a silence every matcher of which
// matches the empty string, so those that test emptiness name a real label too.
std::vector<json> silences()
{
    const json meridian = matcher("alertname", "Meridian.*", true, true);
    return {
        json::array({matcher("alertname", "MeridianXid", false, true)}),
        json::array({matcher("node", "", false, true), meridian}),  // no node label
        json::array({matcher("node", "", false, false)}),           // a node label
        json::array({matcher("node", "xm-.*", true, true)}),
        json::array({matcher("node", "xm-.*", true, false), meridian}),
        json::array({matcher("dc", "xia|wu", true, true)}),  // anchored: neither whole
        json::array({matcher("dc", "xia.*|wu.*", true, true)}),
        json::array({matcher("card", "3", false, true), matcher("xid", "79", false, true)}),
        json::array({matcher("alertname", "MeridianAgent.*", true, true),
                     matcher("dc", "wuhu", false, true)}),
        json::array(
            {matcher("service", ".*", true, true), matcher("source", "meridian", false, true)}),
        json::array({matcher("service", ".+", true, true)}),
        json::array({matcher("severity", "critical", false, true)}),
        json::array({matcher("alertname", "meridianxid", false, true)}),  // case counts
        json::array({matcher("netdev", "eth[0-9]", true, true)}),
        json::array(
            {matcher("dc", "xiamen", false, false), matcher("source", "meridian", false, true)}),
        json::array(
            {matcher("node", "wh-r02-n3|zz", true, true), matcher("dc", "wuhu", false, false)}),
    };
}

class RealAlertmanager {
public:
    RealAlertmanager()
        : m_process(
              {"prometheus-alertmanager", "--config.file=" + config(),
               "--storage.path=" + m_dir.file("am"),
               fmt::format("--web.listen-address=127.0.0.1:{}", port), "--cluster.listen-address="},
              m_dir.file("alertmanager.log"))
    {
        EXPECT_TRUE(waitUntil([&] { return !httpGet(port, "/-/ready").empty(); }))
            << m_process.log();
    }
    httplib::Result post(const std::string &path, const json &body)
    {
        httplib::Client client("127.0.0.1", port);
        return client.Post(path, body.dump(), "application/json");
    }
    json get(const std::string &path) { return json::parse(httpGet(port, path), nullptr, false); }

    const int port = freePort();

private:
    std::string config()
    {
        std::ofstream(m_dir.file("alertmanager.yml"))
            << "route: {receiver: none}\nreceivers: [{name: none}]\n";
        return m_dir.file("alertmanager.yml");
    }
    TempDir m_dir;
    ChildProcess m_process;
};

// A canned answer to every request, as a broken Alertmanager might give it.
class CannedServer {
public:
    explicit CannedServer(std::string body) : m_body(std::move(body))
    {
        m_server.Get(".*", [this](const httplib::Request &, httplib::Response &res) {
            res.set_content(m_body, "application/json");
        });
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
    }
    ~CannedServer()
    {
        m_server.stop();
        m_thread.join();
    }
    std::string url() const { return fmt::format("http://127.0.0.1:{}", m_port); }

private:
    std::string m_body;
    httplib::Server m_server;
    int m_port = 0;
    std::thread m_thread;
};

AlertmanagerSilences silencesAt(const std::string &url, int timeoutMs = 3000)
{
    return AlertmanagerSilences({"am", RouteKind::Alertmanager, url}, timeoutMs);
}

json activeSilence(const std::string &id, const json &matchers, bool active = true)
{
    return {{"id", id},
            {"matchers", matchers},
            {"status", {{"state", active ? "active" : "expired"}}},
            {"startsAt", "2026-12-01T00:00:00.000Z"},
            {"endsAt", "2036-12-01T00:00:00.000Z"},
            {"createdBy", "oncall"},
            {"comment", "maintenance"}};
}

}  // namespace

TEST(SilenceMatching, MeridianSilencesWhatARealAlertmanagerSilencesPairByPair)
{
    RealAlertmanager am;
    const int64_t now = SystemClock::instance().nowUnixMs();
    const std::vector<Alert> fired = alerts();
    json posted = json::array();
    for (const Alert &a : fired)
        posted.push_back({{"labels", alertLabels(a)},
                          {"startsAt", rfc3339(now - 60'000)},
                          {"endsAt", rfc3339(now + 3'600'000)}});
    auto sent = am.post("/api/v2/alerts", posted);
    ASSERT_TRUE(sent && sent->status == 200) << (sent ? sent->body : "no answer");
    std::vector<std::string> ids;
    for (const json &matchers : silences()) {
        auto made = am.post("/api/v2/silences", {{"matchers", matchers},
                                                 {"startsAt", rfc3339(now - 1000)},
                                                 {"endsAt", rfc3339(now + 3'600'000)},
                                                 {"createdBy", "test"},
                                                 {"comment", matchers.dump()}});
        ASSERT_TRUE(made && made->status == 200)
            << matchers.dump() << ": " << (made ? made->body : "no answer");
        ids.push_back(json::parse(made->body)["silenceID"].get<std::string>());
    }

    // Alertmanager's word: which silences hold back each alert.
    std::map<std::string, std::set<std::string>> byAlertmanager;
    ASSERT_TRUE(waitUntil([&] {
        const json listed = am.get("/api/v2/alerts");
        if (!listed.is_array() || listed.size() != fired.size())
            return false;
        byAlertmanager.clear();
        for (const json &a : listed) {
            std::set<std::string> by;
            for (const json &id : a["status"]["silencedBy"])
                by.insert(id.get<std::string>());
            byAlertmanager[a["labels"]["meridian_key"].get<std::string>()] = by;
        }
        return true;
    }));
    // Meridian's, from its reading of the same silences.
    std::vector<std::string> problems;
    auto rules = silencesAt(fmt::format("http://127.0.0.1:{}", am.port)).active(&problems);
    ASSERT_TRUE(rules.ok()) << rules.error().message;
    EXPECT_TRUE(problems.empty()) << problems.front();
    ASSERT_EQ(rules->size(), ids.size());
    int silencedPairs = 0;
    for (const Alert &a : fired) {
        std::set<std::string> byMeridian;
        for (const SilenceRule &r : *rules) {
            if (r.matches(a))
                byMeridian.insert(r.alertmanagerId);
        }
        EXPECT_EQ(byMeridian, byAlertmanager[a.key]) << a.key;
        silencedPairs += static_cast<int>(byMeridian.size());
    }
    // The cases are not all one way: some pairs silence, most do not.
    EXPECT_GT(silencedPairs, 15);
    EXPECT_LT(silencedPairs, static_cast<int>(fired.size() * ids.size()) / 2);
}

TEST(SilenceMatching, AMatcherOnALabelAnAlertLacksIsTheEmptyValue)
{
    const std::vector<Alert> fired = alerts();
    const Alert &dark = fired[2];  // a data center: no node label
    auto absent = LabelMatcher::make("node", "", false, true);
    auto present = LabelMatcher::make("node", "", false, false);
    auto everything = LabelMatcher::make("node", ".*", true, true);
    ASSERT_TRUE(absent.ok() && present.ok() && everything.ok());
    SilenceRule rule;
    rule.matchers = {absent.value()};
    EXPECT_TRUE(rule.matches(dark));
    EXPECT_FALSE(rule.matches(fired[0])) << "an alert with a node is not silenced by node=\"\"";
    rule.matchers = {present.value()};
    EXPECT_FALSE(rule.matches(dark));
    rule.matchers = {everything.value()};
    EXPECT_TRUE(rule.matches(dark)) << ".* matches the empty value too";
    EXPECT_EQ(rule.matchersText(), "node=~\".*\"");
    auto broken = LabelMatcher::make("node", "(", true, true);
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().message.find("node=~\"(\""), std::string::npos)
        << broken.error().message;
}

TEST(SilenceMatching, FiveDaysOfExpiredSilencesAreReadAndTheActiveOnesApplied)
{
    json list = json::array();
    for (int i = 0; i < 5000; ++i)
        list.push_back(activeSilence(
            fmt::format("expired-{}", i),
            json::array({matcher("node", fmt::format("n{}", i), false, true)}), false));
    list.push_back(
        activeSilence("a1", json::array({matcher("alertname", "MeridianXid", false, true)})));
    list.push_back(activeSilence("a2", json::array({matcher("node", "wh-.*", true, true)})));
    const std::string body = list.dump();
    ASSERT_GT(body.size(), 1'000'000u) << "past the cap a receiver's answer has";
    CannedServer server(body);
    auto rules = silencesAt(server.url()).active();
    ASSERT_TRUE(rules.ok()) << rules.error().message;
    ASSERT_EQ(rules->size(), 2u);
    const std::vector<Alert> fired = alerts();
    EXPECT_TRUE((*rules)[0].matches(fired[0]));
    EXPECT_EQ((*rules)[0].kind, AlertKind::Xid) << "a plain silence keeps Meridian's words";
    EXPECT_TRUE((*rules)[1].matches(fired[1]));
    EXPECT_EQ((*rules)[1].matchersText(), "node=~\"wh-.*\"");
}

TEST(SilenceMatching, ABrokenOrHostileAlertmanagerIsRefusedByNameNeverACrash)
{
    const auto refusal = [](const std::string &url, int timeoutMs = 3000) {
        const auto started = std::chrono::steady_clock::now();
        auto rules = silencesAt(url, timeoutMs).active();
        EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
        EXPECT_FALSE(rules.ok());
        return rules.ok() ? std::string() : rules.error().message;
    };
    // 120,000 arrays deep: a tree that deep would overflow the stack freeing it.
    CannedServer deep(std::string(120'000, '[') + std::string(120'000, ']'));
    EXPECT_NE(refusal(deep.url()).find("nested more than 32 deep"), std::string::npos);
    // 10 MB of one silence's comment.
    CannedServer huge(
        json::array({{{"id", "x"}, {"comment", std::string(10'000'000, 'a')}}}).dump());
    EXPECT_NE(refusal(huge.url()).find("passed 8192 KiB"), std::string::npos);
    CannedServer malformed(R"([{"id": "x", "matchers": [{"name": "node", "value": )");
    EXPECT_NE(refusal(malformed.url()).find("silences unreadable"), std::string::npos);
    CannedServer notUtf8("[{\"id\": \"x\", \"comment\": \"\xff\xfe\"}]");
    EXPECT_NE(refusal(notUtf8.url()).find("silences unreadable"), std::string::npos);
    CannedServer notAList(R"({"silences": []})");
    EXPECT_NE(refusal(notAList.url()).find("not a list of silences"), std::string::npos);
    HostileHttpServer endless(HostileReply::Endless);
    const std::string cut = refusal(endless.url(), 2000);
    EXPECT_TRUE(cut.find("cut off") != std::string::npos ||
                cut.find("no complete answer") != std::string::npos)
        << cut;
}

// The watcher's triage door as the night shift and an attacker meet it: the real
// meridian-watch over a real simulated fleet, TLS and tokens. A silence that breaks the
// Silence dialog's rules is refused by name whoever sends it; one token's flood is told to
// come back later while another's reads and acts at once; and a person acts from a shell
// with `meridian-watch list`, `ack` and `silence`, in the name their token proves.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <thread>

#include "alerts/alert.h"
#include "silentclients.h"
#include "watchfixture.h"

namespace meridian {
namespace {

using nlohmann::json;
using test::ChildProcess;
using test::CountingWebhook;
using test::Fleet;
using test::TempDir;

constexpr const char *kOperator = "operator-token-0123456789";
constexpr const char *kScript = "script-token-0123456789";

// A client of the watcher's HTTPS door with one token.
class Caller {
public:
    Caller(const TempDir &dir, int port, const std::string &token) : m_client("localhost", port)
    {
        m_client.set_ca_cert_path(dir.file("w.crt").c_str());
        m_client.set_bearer_token_auth(token);
        m_client.set_connection_timeout(5);
        m_client.set_read_timeout(10);
    }
    httplib::Result triage(const json &body)
    {
        return m_client.Post("/triage", body.dump(), "application/json");
    }
    // Seconds a GET of `path` took; a large number where it failed.
    double timedGet(const std::string &path)
    {
        const auto start = std::chrono::steady_clock::now();
        const auto answer = m_client.Get(path);
        if (!answer || answer->status != 200)
            return 1e9;
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    json get(const std::string &path)
    {
        const auto answer = m_client.Get(path);
        return answer && answer->status == 200 ? json::parse(answer->body, nullptr, false) : json();
    }
    json alerts() { return get("/alerts"); }

private:
    httplib::SSLClient m_client;
};

int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

json silenceOf(const json &scope, int64_t untilMs, const std::string &reason)
{
    json silence = scope;
    silence["untilMs"] = untilMs;
    silence["reason"] = reason;
    return {{"action", "silence"}, {"silence", silence}};
}

// `meridian-watch COMMAND …` against the watcher, as a person types it.
ChildProcess command(const TempDir &dir, int port, std::vector<std::string> args)
{
    args.insert(args.begin(), MERIDIAN_WATCH_BIN);
    args.insert(args.end(), {"--url", fmt::format("https://localhost:{}", port), "--token-file",
                             dir.file("token"), "--ca-file", dir.file("w.crt")});
    return ChildProcess(args, dir.file(args[1] + ".log"));
}

// A webhook, a 6-node fleet and meridian-watch over it behind TLS, with an operator token
// (li.na) and a second token of `secondRole` (named `second`).
struct SecureWatcher {
    explicit SecureWatcher(const char *secondRole) : fleet(dir, 6)
    {
        webhook.routesFile(dir);
        EXPECT_TRUE(test::makeLocalhostCertificate(dir.file("w.key"), dir.file("w.crt")));
        std::ofstream(dir.file("security.yaml"))
            << "tls: {cert_file: w.crt, key_file: w.key}\ntokens:\n"
            << "  - {name: li.na, role: operator, token: " << kOperator << "}\n"
            << "  - {name: second, role: " << secondRole << ", token: " << kScript << "}\n";
        std::ofstream(dir.file("token")) << kOperator << "\n";
        watcher = std::make_unique<test::Watcher>(
            dir, fleet.inventory(), dir.file("routes.yaml"), dir.file("w.db"), "w",
            std::vector<std::string>{"--security", dir.file("security.yaml")});
    }
    int port() const { return watcher->port; }

    TempDir dir;
    CountingWebhook webhook;
    Fleet fleet;
    std::unique_ptr<test::Watcher> watcher;
};

}  // namespace

TEST(WatchTriage, EveryDialogRuleHoldsAFloodIsToldToWaitAndAShellActsInItsTokensName)
{
    SecureWatcher rig("operator");
    const TempDir &dir = rig.dir;
    test::Watcher &watcher = *rig.watcher;
    Caller operatorCaller(dir, watcher.port, kOperator);
    Caller script(dir, watcher.port, kScript);
    rig.fleet.fault({"--node", "xm-r01-n1", "--kind", "xid79", "--card", "2"});
    std::string key;
    ASSERT_TRUE(test::waitUntil(
        [&] {
            const json list = operatorCaller.alerts();
            if (!list.is_object() || list["alerts"].empty())
                return false;
            key = list["alerts"][0]["key"].get<std::string>();
            return true;
        },
        std::chrono::seconds(60)))
        << watcher.log();

    // Every rule of the dialog, on the API.
    const json node = {{"node", "xm-r01-n1"}};
    const std::vector<std::pair<json, std::string>> broken = {
        {silenceOf(node, 253402300799000, "quiet"), "at most 72 hours"},
        {silenceOf(node, nowMs() + 3600'000, ""), "needs a reason"},
        {silenceOf(json::object(), nowMs() + 3600'000, "quiet"), "must name what it quiets"},
        {silenceOf({{"kind", "Xid"}}, nowMs() + 3600'000, "quiet"), "whole fleet"},
        {silenceOf(node, -1, "quiet"), "in the future"},
    };
    for (const auto &[body, rule] : broken) {
        const auto answer = script.triage(body);
        ASSERT_TRUE(answer) << rule;
        EXPECT_EQ(answer->status, 422) << rule;
        EXPECT_NE(answer->body.find(rule), std::string::npos) << answer->body;
    }

    // One token floods; another's reads stay prompt, and it may still act.
    const double residentBefore = test::residentMiB(watcher.pid());
    std::atomic<bool> flooding{true};
    std::vector<double> reads;
    std::thread reader([&] {
        while (flooding) {
            const auto start = std::chrono::steady_clock::now();
            operatorCaller.alerts();
            reads.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
    });
    int taken = 0, tooMany = 0;
    std::string retryAfter;
    const auto floodStart = std::chrono::steady_clock::now();
    for (int i = 0; i < 300; ++i) {
        const auto answer = script.triage({{"action", "note"}, {"key", key}, {"note", "x"}});
        ASSERT_TRUE(answer);
        taken += answer->status == 202;
        if (answer->status == 429) {
            ++tooMany;
            retryAfter = answer->get_header_value("Retry-After");
        }
    }
    const double floodSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - floodStart).count();
    flooding = false;
    reader.join();
    EXPECT_LE(taken, 10 + static_cast<int>(floodSeconds / 2) + 1) << "in " << floodSeconds << " s";
    EXPECT_EQ(taken + tooMany, 300);
    EXPECT_FALSE(retryAfter.empty());
    ASSERT_FALSE(reads.empty());
    std::sort(reads.begin(), reads.end());
    EXPECT_LT(reads[reads.size() * 99 / 100], 1.0) << reads.size() << " reads";
    EXPECT_LT(test::residentMiB(watcher.pid()) - residentBefore, 50.0);
    // The rules kept their pace through it.
    const json status = operatorCaller.get("/status");
    ASSERT_TRUE(status.is_object());
    EXPECT_FALSE(status.value("behind", true));
    EXPECT_LT(status.value("loop_late_ms", int64_t{1'000'000}), 1000);

    // A person on call, from a shell: the list names the alert by a short id, and an
    // acknowledgement by it is made in the token's name.
    ChildProcess list = command(dir, watcher.port, {"list"});
    ASSERT_TRUE(test::waitUntil([&] { return list.ended(); }));
    ASSERT_EQ(list.waitStatus(), 0) << list.log();
    const std::string shortId = alertShortId(key);
    EXPECT_NE(list.log().find(shortId), std::string::npos) << list.log();
    ChildProcess ack = command(dir, watcher.port, {"ack", shortId});
    ASSERT_TRUE(test::waitUntil([&] { return ack.ended(); }));
    ASSERT_EQ(ack.waitStatus(), 0) << ack.log();
    ASSERT_TRUE(test::waitUntil([&] {
        const json list = operatorCaller.alerts();
        return list.is_object() && !list["alerts"].empty() &&
               list["alerts"][0].value("acknowledgedBy", "") == "li.na";
    })) << watcher.log();
    ChildProcess tooLong = command(
        dir, watcher.port, {"silence", "--node", "xm-r01-n1", "--hours", "100", "--reason", "r"});
    ASSERT_TRUE(test::waitUntil([&] { return tooLong.ended(); }));
    EXPECT_EQ(WEXITSTATUS(tooLong.waitStatus()), 1);
    EXPECT_NE(tooLong.log().find("at most 72 hours"), std::string::npos) << tooLong.log();
}

// Three hundred connections that never say a word, and a token reading in four keep-alive
// loops as fast as it can: the scrape of /metrics and an operator's triage still answer
// within a second, as the gRPC doors' clients do.
TEST(WatchTriage, IdleConnectionsAndAKeepAliveHogLeaveScrapesAndOperatorsServed)
{
    SecureWatcher rig("read-only");
    const TempDir &dir = rig.dir;
    test::Watcher &watcher = *rig.watcher;
    Caller operatorCaller(dir, watcher.port, kOperator);
    ASSERT_TRUE(test::waitUntil([&] { return operatorCaller.alerts().is_object(); }))
        << watcher.log();

    test::SilentClients idle(watcher.port, "", 300, test::Silence::AfterHandshake);
    ASSERT_EQ(idle.opened(), 300);
    std::atomic<bool> hogging{true};
    std::vector<std::thread> hogs;
    for (int i = 0; i < 4; ++i)
        hogs.emplace_back([&] {
            Caller hog(dir, watcher.port, kScript);
            while (hogging)
                hog.alerts();
        });
    std::vector<double> metrics, triage;
    for (int i = 0; i < 10; ++i) {  // within the operator's triage allowance
        metrics.push_back(operatorCaller.timedGet("/metrics"));
        const auto start = std::chrono::steady_clock::now();
        const auto answer = operatorCaller.triage(
            {{"action", "note"}, {"key", "no-such-alert"}, {"note", std::to_string(i)}});
        triage.push_back(
            answer && answer->status != 429
                ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                : 1e9);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    hogging = false;
    for (std::thread &hog : hogs)
        hog.join();
    EXPECT_LT(*std::max_element(metrics.begin(), metrics.end()), 1.0);
    EXPECT_LT(*std::max_element(triage.begin(), triage.end()), 1.0);
}

}  // namespace meridian

// meridian-agent's /metrics as a store scrapes it: a real agent process, answers checked
// by Prometheus's own linter (promtool), OpenMetrics gzipped, and the listen rules: no
// plaintext off loopback, and with tokens every scrape needs one.
#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <fstream>

#include "agentprocess.h"
#include "childprocess.h"
#include "silentclients.h"
#include "testsupport.h"

namespace meridian {
namespace {

using test::AgentProcess;
using test::freePort;
using test::waitUntil;
using test::writeTlsAgentConfig;

TEST(MetricsEndpoint, AgentServesDcgmNamesThatPromtoolAccepts)
{
    test::TempDir dir;
    const int port = freePort();
    AgentProcess agent({"--listen", "127.0.0.1:0", "--collector", "sim", "--data-dir", dir.path(),
                        "--metrics-listen", "127.0.0.1:" + std::to_string(port)});
    std::string text;
    ASSERT_TRUE(waitUntil([&] {
        text = test::httpGet(port, "/metrics");
        return text.find("DCGM_FI_DEV_GPU_UTIL{") != std::string::npos;
    }));
    for (const char *name :
         {"DCGM_FI_DEV_FB_USED{", "DCGM_FI_DEV_FB_FREE{", "DCGM_FI_DEV_GPU_TEMP{",
          "DCGM_FI_DEV_POWER_USAGE{", "DCGM_FI_DEV_XID_ERRORS{",
          "meridian_nic_receive_bytes_total{", "meridian_node_info{"})
        EXPECT_NE(text.find(name), std::string::npos) << name;
    EXPECT_NE(text.find("vendor=\"huawei\""), std::string::npos) << "the sim's hybrid node";

    // Prometheus's own linter reads the text format. Its one complaint allowed is the
    // camelCase of dcgm-exporter's own label names (UUID, modelName, Hostname), which the
    // dashboards and queries written for dcgm-exporter depend on.
    std::ofstream(dir.file("scrape.txt")) << text;
    const std::string lint = "promtool check metrics < " + dir.file("scrape.txt") + " 2>&1 | " +
                             "grep -v '^DCGM_FI_DEV_[A-Z_]* label names should be written in " +
                             ".snake_case. not .camelCase.$' > " + dir.file("lint.txt");
    ASSERT_EQ(std::system(("command -v promtool >/dev/null && " + lint).c_str()), 256)
        << "promtool (Debian's prometheus package) is needed; it said:\n"
        << test::readFile(dir.file("lint.txt"));  // grep found nothing else: exit 1
    EXPECT_EQ(test::readFile(dir.file("lint.txt")), "");

    httplib::Client client("127.0.0.1", port);
    auto om = client.Get("/metrics", {{"Accept", "application/openmetrics-text; version=1.0.0"},
                                      {"Accept-Encoding", "gzip"}});
    ASSERT_TRUE(om);
    EXPECT_EQ(om->get_header_value("Content-Encoding"), "gzip");
    EXPECT_EQ(om->get_header_value("Content-Type").rfind("application/openmetrics-text", 0), 0u);
    ASSERT_GT(om->body.size(), 6u);
    EXPECT_EQ(om->body.substr(om->body.size() - 6), "# EOF\n");
    EXPECT_NE(om->body.find("# TYPE meridian_nic_receive_bytes counter"), std::string::npos);

    EXPECT_EQ(test::httpGet(port, "/nodes/someone-else/metrics"), "");
}

TEST(MetricsEndpoint, PlaintextMetricsOnAPublicAddressAreRefused)
{
    test::TempDir dir;
    AgentProcess agent({"--listen", "127.0.0.1:0", "--collector", "sim", "--data-dir", dir.path(),
                        "--metrics-listen", "0.0.0.0:" + std::to_string(freePort())});
    EXPECT_EQ(agent.waitExit(), 2);
}

// An agent with TLS whose /metrics needs the scraper's token; `config` is empty when
// openssl could not make its certificate.
struct ScrapedAgent {
    test::TempDir dir;
    int port = freePort();
    std::string config = writeTlsAgentConfig(
        dir, "listen: 127.0.0.1:0\nmetrics_listen: 127.0.0.1:" + std::to_string(port) +
                 "\ntokens:\n  - {name: prometheus, role: read-only, token: "
                 "scrape-token-0123456789}\n");
    std::string cert = dir.file("agent.crt");
    AgentProcess process{{"--config", config}};
};

TEST(MetricsEndpoint, WithTlsAndTokensAScrapeNeedsAToken)
{
    ScrapedAgent scraped;
    ASSERT_FALSE(scraped.config.empty()) << "openssl is needed for this test";
    const int port = scraped.port;
    const std::string &cert = scraped.cert;
    httplib::SSLClient client("127.0.0.1", port);
    client.set_ca_cert_path(cert.c_str());
    client.enable_server_certificate_verification(true);
    ASSERT_TRUE(waitUntil([&] { return bool(client.Get("/metrics")); }));
    EXPECT_EQ(client.Get("/metrics")->status, 401);
    client.set_bearer_token_auth("wrong-token-0123456789");
    EXPECT_EQ(client.Get("/metrics")->status, 401);
    client.set_bearer_token_auth("scrape-token-0123456789");
    auto good = client.Get("/metrics");
    ASSERT_TRUE(good);
    EXPECT_EQ(good->status, 200);
    EXPECT_NE(good->body.find("DCGM_FI_DEV_GPU_UTIL"), std::string::npos);
}

TEST(MetricsEndpoint, ClientsDrippingHeadersLeaveScrapesServedAndAreCut)
{
    // Thirty requests dripping a header line every 300 ms, each line well inside any
    // per-read timeout. They used to take both workers and the backlog of five, and a
    // valid scrape failed for as long as they lasted.
    ScrapedAgent scraped;
    ASSERT_FALSE(scraped.config.empty()) << "openssl is needed for this test";
    const int port = scraped.port;
    const std::string &cert = scraped.cert;
    AgentProcess &agent = scraped.process;
    const auto scrapeWithin = [&](int seconds) {
        httplib::SSLClient client("127.0.0.1", port);
        client.set_ca_cert_path(cert.c_str());
        client.enable_server_certificate_verification(true);
        client.set_bearer_token_auth("scrape-token-0123456789");
        client.set_connection_timeout(seconds, 0);
        client.set_read_timeout(seconds, 0);
        auto answer = client.Get("/metrics");
        return answer && answer->status == 200;
    };
    ASSERT_TRUE(waitUntil([&] { return scrapeWithin(1); }));
    const double baselineMiB = test::residentMiB(agent.pid());

    test::SilentClients drips(port, cert, 30, test::Silence::DrippingHttpHeaders, 300);
    ASSERT_EQ(drips.opened(), 30) << "the attack did not get its connections";
    std::chrono::steady_clock::duration slowest{};
    for (int scrape = 0; scrape < 3; ++scrape) {
        const auto started = std::chrono::steady_clock::now();
        EXPECT_TRUE(scrapeWithin(1)) << "scrape " << scrape << " failed during the drip";
        slowest = std::max(slowest, std::chrono::steady_clock::now() - started);
    }
    EXPECT_LT(slowest, std::chrono::seconds(1));
    RecordProperty(
        "slowest_scrape_ms",
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(slowest).count()));
    EXPECT_LT(test::residentMiB(agent.pid()), baselineMiB + 100);
    RecordProperty("rss_growth_mib",
                   static_cast<int>(test::residentMiB(agent.pid()) - baselineMiB));
    // A request has 2 s from its first byte to its last, dripped or not.
    EXPECT_TRUE(waitUntil([&] { return drips.closedByServer() == drips.opened(); },
                          std::chrono::seconds(4)))
        << drips.closedByServer() << " of " << drips.opened() << " dripping requests were cut";
    EXPECT_EQ(agent.exitedWith(), -1);
}

}  // namespace
}  // namespace meridian

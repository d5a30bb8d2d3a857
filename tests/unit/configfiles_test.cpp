// Configuration files an operator writes by hand, broken in the ways people break them:
// the wrong type where a mapping belongs, a word where a number belongs, an impossible
// date, a file that never ends. Each is refused with file, line and field; none aborts.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cstdlib>
#include <ctime>
#include <fstream>

#include "agent/agentconfig.h"
#include "core/openfiles.h"
#include "cost/pricebook.h"
#include "fleetlink/inventoryfile.h"
#include "testsupport.h"
#include "wire/certificatedates.h"
#include "wire/hostport.h"
#include "wire/security.h"

using namespace meridian;

namespace {

std::string agentConfigError(const test::TempDir &dir, const std::string &text)
{
    AgentConfig config;
    const Status status = loadAgentConfig(dir.write("agent.yaml", text), config);
    EXPECT_FALSE(status.ok()) << text;
    return status.ok() ? std::string() : status.message();
}

std::string priceBookError(const test::TempDir &dir, const std::string &text)
{
    auto book = PriceBook::load(dir.write("prices.yaml", text));
    EXPECT_FALSE(book.ok()) << text;
    return book.ok() ? std::string() : book.error().message;
}

}  // namespace

TEST(AgentConfigFile, AScalarWhereAMappingBelongsIsAnErrorWithItsLine)
{
    test::TempDir dir;
    EXPECT_NE(agentConfigError(dir, "listen: 127.0.0.1:1\ntls: yes\n").find("agent.yaml:2:"),
              std::string::npos);
    EXPECT_NE(agentConfigError(dir, "sim: 5\n").find("agent.yaml:1:"), std::string::npos);
    EXPECT_NE(agentConfigError(dir, "tokens: [abc]\n").find("agent.yaml:1:"), std::string::npos);
    EXPECT_NE(agentConfigError(dir, "- just\n- a list\n").find("expected a mapping"),
              std::string::npos);
    const std::string wrongType = agentConfigError(dir, "sample_interval_ms: often\n");
    EXPECT_NE(wrongType.find("agent.yaml:1: sample_interval_ms must be a whole number ('often')"),
              std::string::npos)
        << wrongType;
    EXPECT_NE(agentConfigError(dir, "sim: {seed: -3}\n").find("seed must be a whole number"),
              std::string::npos);
    // No allowance at all would close every client before its first call; a day's would
    // let idle connections hold the door.
    for (const char *allowance : {"0", "0.5", "301", "soon"}) {
        const std::string said = agentConfigError(
            dir,
            std::string("listen: 127.0.0.1:1\nauthenticate_within_seconds: ") + allowance + "\n");
        EXPECT_NE(said.find("agent.yaml:2:"), std::string::npos) << allowance << ": " << said;
    }
}

TEST(AgentConfigFile, DeepNestingIsNamedNotCalledABadFile)
{
    test::TempDir dir;
    const std::string deep =
        agentConfigError(dir, "tls: " + std::string(3000, '[') + std::string(3000, ']') + "\n");
    EXPECT_NE(deep.find("agent.yaml:1: nested 500 levels deep"), std::string::npos) << deep;
    EXPECT_EQ(deep.find("bad file"), std::string::npos) << deep;
}

TEST(AgentConfigFile, AFileThatNeverEndsIsRefusedBeforeItIsRead)
{
    AgentConfig config;
    const Status status = loadAgentConfig("/dev/zero", config);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message().find("/dev/zero: not a regular file"), std::string::npos);
}

TEST(AgentConfigFile, AGoodFileStillLoads)
{
    test::TempDir dir;
    AgentConfig config;
    const Status status = loadAgentConfig(
        dir.write("agent.yaml",
                  "listen: 127.0.0.1:7000\nsample_interval_ms: 500\nsim: {seed: 7, kind: nvidia}\n"
                  "authenticate_within_seconds: 2.5\n"),
        config);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(config.listen, "127.0.0.1:7000");
    EXPECT_EQ(config.security.authenticateWithinMs, 2500);
    EXPECT_EQ(config.sampleIntervalMs, 500);
    EXPECT_EQ(config.simSeed, 7u);
    EXPECT_EQ(config.simKind, "nvidia");
}

TEST(PriceBookFile, ImpossibleDatesAndNumbersAreRefusedNotDefaulted)
{
    test::TempDir dir;
    // A model no card reports would match no card: its price would never apply.
    EXPECT_NE(priceBookError(dir,
                             "prices:\n  - {model: A100, cny_per_card_hour: 1, from: 2026-01-01}\n"
                             "  - {model: Tesla X9, cny_per_card_hour: 1, from: 2026-01-01}\n")
                  .find("prices.yaml:3: card model 'Tesla X9' is not one Meridian knows"),
              std::string::npos);
    // timegm would roll February 31st into March 3rd.
    EXPECT_NE(priceBookError(dir,
                             "prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: 1, "
                             "from: 2026-02-31}\n")
                  .find("prices.yaml:2: from: must be a date"),
              std::string::npos);
    EXPECT_NE(priceBookError(dir,
                             "prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: .nan, "
                             "from: 2026-01-01}\n")
                  .find(":2: cny_per_card_hour"),
              std::string::npos);
    EXPECT_NE(priceBookError(
                  dir,
                  "prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: 1, from: 2026-01-01}\n"
                  "contracts: 5\n")
                  .find(":3: contracts: must be a list"),
              std::string::npos);
    EXPECT_NE(priceBookError(
                  dir,
                  "prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: 1, from: 2026-01-01}\n"
                  "contracts:\n  - {customer: x, from: 2026-01-01, to: 2026-09-01,"
                  " discount_percent: .nan}\n")
                  .find(":4: discount_percent must be a finite number"),
              std::string::npos);
    EXPECT_NE(priceBookError(dir,
                             "prices:\n  - {model: [A100-SXM4-80GB], cny_per_card_hour: 1, "
                             "from: 2026-01-01}\n")
                  .find(":2: model must be text"),
              std::string::npos);
    EXPECT_NE(priceBookError(dir, "prices:\n  - 7\n").find(":2: expected a mapping"),
              std::string::npos);
    // A leap day is a real day.
    auto leap = PriceBook::load(dir.write(
        "prices.yaml",
        "prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: 1, from: 2028-02-29}\n"));
    EXPECT_TRUE(leap.ok()) << leap.error().message;
}

TEST(ListenPolicy, LoopbackIsDecidedByTheResolvedAddressNotTheSpelling)
{
    const ServerSecurity plaintext;
    EXPECT_TRUE(checkListenPolicy("127.0.0.1:0", plaintext).ok());
    EXPECT_TRUE(checkListenPolicy("127.0.0.2:5000", plaintext).ok());
    EXPECT_TRUE(checkListenPolicy("localhost:50051", plaintext).ok());
    EXPECT_TRUE(checkListenPolicy("[::1]:50051", plaintext).ok());
    EXPECT_TRUE(checkListenPolicy("unix:/run/meridian.sock", plaintext).ok());
    // A name spelt like loopback is whatever it resolves to; this one resolves nowhere.
    const Status spelt = checkListenPolicy("127.evil.invalid:50051", plaintext);
    ASSERT_FALSE(spelt.ok());
    EXPECT_NE(spelt.message().find("cannot resolve '127.evil.invalid'"), std::string::npos)
        << spelt.message();
    EXPECT_NE(checkListenPolicy("0.0.0.0:50051", plaintext)
                  .message()
                  .find("refusing to serve "
                        "plaintext"),
              std::string::npos);
    EXPECT_NE(checkListenPolicy("[::ffff:10.0.0.1]:50051", plaintext).message().find("plaintext"),
              std::string::npos);
    EXPECT_TRUE(checkListenPolicy("[::ffff:127.0.0.1]:50051", plaintext).ok());
}

TEST(HostPort, PortsOutsideTheirRangeAreRefused)
{
    EXPECT_FALSE(parseHostPort("10.0.0.1:99999999999").ok());
    EXPECT_FALSE(parseHostPort("10.0.0.1:65536").ok());
    EXPECT_FALSE(parseHostPort("10.0.0.1:-1").ok());
    EXPECT_FALSE(parseHostPort("10.0.0.1:").ok());
    EXPECT_FALSE(parseHostPort(":50051").ok());
    EXPECT_FALSE(parseHostPort("fe80::1:50051").ok()) << "IPv6 needs its brackets";
    auto v6 = parseHostPort("[fe80::1]:50051");
    ASSERT_TRUE(v6.ok());
    EXPECT_EQ(v6->host, "fe80::1");
    EXPECT_EQ(v6->port, 50051);
    EXPECT_NE(checkListenPolicy("127.0.0.1:99999999999", ServerSecurity{})
                  .message()
                  .find("the port must be a number 0..65535"),
              std::string::npos);

    test::TempDir dir;
    auto inventory =
        loadInventory(dir.write("fleet.yaml",
                                "data_centers:\n  - name: xiamen\n    agents:\n"
                                "      - 10.0.0.1:50051\n      - 10.0.0.2:99999999999\n"));
    ASSERT_FALSE(inventory.ok());
    EXPECT_NE(inventory.error().message.find("fleet.yaml:5: '10.0.0.2:99999999999': the port "
                                             "must be a number"),
              std::string::npos)
        << inventory.error().message;
}

TEST(OpenFiles, AFleetTooBigForTheOpenFileLimitIsRefusedWithWhatToRaise)
{
    EXPECT_TRUE(checkRoomForAgents(300, 1024, false).ok());
    const Status tooMany = checkRoomForAgents(1500, 1024, false);
    ASSERT_FALSE(tooMany.ok());
    EXPECT_NE(tooMany.message().find("1500 agents need about 3256 open files, but this process "
                                     "may open only 1024 (room for about 384)"),
              std::string::npos)
        << tooMany.message();
    EXPECT_NE(tooMany.message().find("LimitNOFILE"), std::string::npos);
    EXPECT_FALSE(checkRoomForAgents(750, 1024, true).ok()) << "the embedded fleet's own sockets";
    EXPECT_TRUE(checkRoomForAgents(750, 524288, true).ok());
    EXPECT_FALSE(checkRoomForAgents(1, 10, false).ok());
    // The process's own limit is lifted to the hard one, never lowered.
    rlimit before{};
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &before), 0);
    EXPECT_EQ(raiseOpenFileLimit(), before.rlim_max);
}

TEST(Certificate, AnExpiredOrNotYetValidServerCertificateIsRefusedWithItsDate)
{
    test::TempDir dir;
    const std::string cert = dir.file("agent.crt");
    const std::string command =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 "
        "-subj /CN=agent "
        "-keyout " +
        dir.file("agent.key") + " -out " + cert + " 2>/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << "openssl is needed to make a certificate";
    const std::string pem = test::readFile(cert);
    const int64_t now = std::time(nullptr);
    EXPECT_TRUE(checkCertificateDates(cert, pem, now).ok());
    const Status expired = checkCertificateDates(cert, pem, now + 3 * 86400);
    ASSERT_FALSE(expired.ok());
    EXPECT_NE(expired.message().find(cert + ": the certificate expired on "), std::string::npos)
        << expired.message();
    const Status early = checkCertificateDates(cert, pem, now - 86400);
    ASSERT_FALSE(early.ok());
    EXPECT_NE(early.message().find("is not valid before"), std::string::npos);
    EXPECT_NE(checkCertificateDates(cert, "garbage", now).message().find("not a PEM certificate"),
              std::string::npos);
}

TEST(InventoryFile, ATlsFileThatCannotBeReadIsNamedWithItsLine)
{
    test::TempDir dir;
    auto inventory =
        loadInventory(dir.write("fleet.yaml",
                                "tls:\n  ca_file: missing-ca.pem\n"
                                "data_centers:\n  - name: xiamen\n    agents: [10.0.0.1:50051]\n"));
    ASSERT_FALSE(inventory.ok());
    EXPECT_NE(inventory.error().message.find("fleet.yaml:2: ca_file: "), std::string::npos)
        << inventory.error().message;
    EXPECT_NE(inventory.error().message.find("missing-ca.pem: cannot open"), std::string::npos);
}

// The console binary's start and its headless sync, as an operator and cron run them:
// a file named on the command line that does not load stops the start with its error
// and a non-zero exit; a price book that does not load fails the sync run.
#include <gtest/gtest.h>

#include <grpcpp/grpcpp.h>

#include <QProcess>

#include <fstream>

#include "agentprocess.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "testsupport.h"

using namespace meridian;

namespace {

struct ConsoleRun {
    int exitCode = -1;
    QByteArray output;
};

ConsoleRun runConsole(const QStringList &args)
{
    QProcess meridian;
    meridian.start(QStringLiteral(MERIDIAN_CONSOLE_BIN), args);
    meridian.waitForFinished(60'000);
    return {meridian.exitCode(),
            meridian.readAllStandardOutput() + meridian.readAllStandardError()};
}

}  // namespace

TEST(ConsoleCommand, ABrokenServicesFabricPolicyOrRoutingFileStopsTheStartWithItsError)
{
    test::TempDir dir;
    const std::string services = dir.file("services.yaml");
    std::ofstream(services)
        << "services:\n  - name: chat\n    model: m\n    cards_per_replica: eight\n";
    const std::string fabric = dir.file("fabric.yaml");
    std::ofstream(fabric) << "data_centers: 5\n";
    const QStringList common = {
        QStringLiteral("--nodes"),      QStringLiteral("4"),
        QStringLiteral("--quit-after"), QStringLiteral("1"),
        QStringLiteral("--db"),         QString::fromStdString(dir.file("h.db"))};
    ConsoleRun run = runConsole(
        common + QStringList{QStringLiteral("--services"), QString::fromStdString(services)});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.output.contains("services.yaml:4: cards_per_replica must be a whole number"))
        << run.output.toStdString();
    run = runConsole(common +
                     QStringList{QStringLiteral("--fabric"), QString::fromStdString(fabric)});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.output.contains("fabric.yaml:1:")) << run.output.toStdString();
    const std::string policy = dir.file("policy.yaml");
    std::ofstream(policy) << "target_occupancy: 0.8\nforecast_days: 90\n";
    run = runConsole(
        common + QStringList{QStringLiteral("--scaling-policy"), QString::fromStdString(policy)});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.output.contains("policy.yaml:2:")) << run.output.toStdString();
    // A broken routing file named on the command line used to start a console that
    // delivered nowhere, exit 0, and say nothing on stderr.
    const std::string routes = dir.file("routes.yaml");
    std::ofstream(routes) << "routes:\n  - {name: noc, kind: pager, url: 'http://x/'}\n";
    run = runConsole(common +
                     QStringList{QStringLiteral("--alert-routes"), QString::fromStdString(routes)});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.output.contains("routes.yaml:2:")) << run.output.toStdString();
}

TEST(SyncCommand, APriceBookThatDoesNotLoadFailsTheRunAndTheUsageIsStillSynced)
{
    test::TempDir dir;
    const std::string address = "127.0.0.1:" + std::to_string(test::freePort());
    test::AgentProcess agent({"--listen", address, "--collector", "sim", "--data-dir", dir.path()});
    auto stub = test::connect(address);
    ASSERT_TRUE(test::untilAnswering(*stub));
    const std::string inventory = dir.file("fleet.yaml");
    std::ofstream(inventory) << "data_centers:\n  - name: xiamen\n    agents: [" << address
                             << "]\n";
    const std::string prices = dir.file("prices.yaml");
    std::ofstream(prices)
        << "prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: .nan, from: 2026-01-01}\n";
    const QStringList args = {QStringLiteral("sync"), QStringLiteral("--inventory"),
                              QString::fromStdString(inventory), QStringLiteral("--db"),
                              QString::fromStdString(dir.file("history.db"))};
    const ConsoleRun bad =
        runConsole(args + QStringList{QStringLiteral("--prices"), QString::fromStdString(prices)});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_TRUE(bad.output.contains("prices.yaml:2: cny_per_card_hour"))
        << bad.output.toStdString();
    EXPECT_TRUE(bad.output.contains("1 of 1 agents")) << "the usage is synced all the same";
    std::ofstream(prices)
        << "prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: 2, from: 2026-01-01}\n";
    const ConsoleRun good =
        runConsole(args + QStringList{QStringLiteral("--prices"), QString::fromStdString(prices)});
    EXPECT_EQ(good.exitCode, 0) << good.output.toStdString();
}

TEST(SyncCommand, AnAddressThatIsNotAnAgentIsNamedWithWhy)
{
    // A gRPC server, but not an agent (the capacity pool's service, every call
    // unimplemented): the console used to print the address and an empty reason.
    v1::CapacityPool::Service pool;
    int port = 0;
    const std::unique_ptr<grpc::Server> server = test::serveOnLoopback(pool, port);
    ASSERT_TRUE(server);
    test::TempDir dir;
    const std::string inventory = dir.file("fleet.yaml");
    std::ofstream(inventory) << "data_centers:\n  - name: xiamen\n    agents: [127.0.0.1:" << port
                             << "]\n";
    const ConsoleRun run = runConsole({QStringLiteral("sync"), QStringLiteral("--inventory"),
                                       QString::fromStdString(inventory), QStringLiteral("--db"),
                                       QString::fromStdString(dir.file("history.db"))});
    EXPECT_EQ(run.exitCode, 1);
    const std::string said = run.output.toStdString();
    EXPECT_NE(said.find("127.0.0.1:" + std::to_string(port) +
                        ": this address does not serve the agent's calls"),
              std::string::npos)
        << said;
    server->Shutdown();
}

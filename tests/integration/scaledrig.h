// A meridian-scaled of its own over a meridian-sim of its own, both real processes on
// loopback, with a services file and a journal in a folder of the rig's: what the
// controller's process cases and the watcher's controller cases start.
#pragma once

#include <fmt/format.h>
#include <grpcpp/channel.h>
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>

#include "agentprocess.h"
#include "autoscaler/scalingjournal.h"
#include "childprocess.h"
#include "meridian/v1/capacity_pool.grpc.pb.h"
#include "meridian/v1/sim_control.grpc.pb.h"
#include "poolleases.h"
#include "testsupport.h"

namespace meridian::test {

inline constexpr const char *kOperatorToken = "ops-console-token-0123456789";
inline constexpr const char *kWatcherToken = "watch-only-token-0123456789";
inline constexpr const char *kControllerId = "scaled-test@xiamen";

// One A100 node holds two replicas of four cards.
inline constexpr const char *kServices = R"(services:
  - name: chat
    model: qwen2-72b-instruct
    cards_per_replica: 4
    slo: {ttft_p95_seconds: 5}
    replicas: {min: 1, max: 64}
    cold_start_seconds: 0.5  # past the drill that kills 300 ms into a start
    runs_on:
      - {card_model: A100-SXM4-80GB, requests_per_second_per_card: 0.9, max_concurrency_per_card: 16}
      - {card_model: Ascend 910B, requests_per_second_per_card: 0.9, max_concurrency_per_card: 16}
    rent: {card_models: [A100-SXM4-80GB, Ascend 910B], max_cards: 256, max_cny_per_card_hour: 3.0,
           budget_cny_per_hour: 800}
)";

inline bool inFlight(StepState s)
{
    return s == StepState::Approved || s == StepState::Leasing || s == StepState::Provisioned ||
           s == StepState::Starting;
}

class Rig {
public:
    explicit Rig(const std::string &mode, bool secure = false) : m_secure(secure)
    {
        std::ofstream(dir.file("services.yaml")) << kServices;
        sim = std::make_unique<test::ChildProcess>(
            std::vector<std::string>{MERIDIAN_SIM_BIN, "--nodes=4", "--provisioning-seconds=1",
                                     "--sample-interval-ms=250",
                                     "--services=" + dir.file("services.yaml"),
                                     "--inventory-out=" + dir.file("inventory.yaml")},
            dir.file("sim.log"));
        control = test::simControlOnceWritten(dir.file("inventory.yaml"));
        EXPECT_NE(control, "") << sim->log();
        // The daily shape on: its minutes go to the journal the drills kill around.
        std::ofstream(dir.file("policy.yaml")) << "forecast_days: 1\n";
        std::ofstream config(dir.file("scaled.yaml"));
        config << "listen: " << address << "\n"
               << "metrics_listen: 127.0.0.1:" << metricsPort << "\n"
               << "controller_id: " << kControllerId << "\n"
               << "journal: journal.sqlite\n"
               << "inventory: inventory.yaml\n"
               << "services: services.yaml\n"
               << "mode: " << mode << "\n"
               << "policy: policy.yaml\n"
               << "interval_seconds: 0.3\n"
               << "warm_up_seconds: 1\n";  // over three passes: the replicas have reported
        if (secure) {
            EXPECT_TRUE(
                test::makeLocalhostCertificate(dir.file("scaled.key"), dir.file("scaled.crt")));
            config << "tls: {cert_file: scaled.crt, key_file: scaled.key}\n"
                   << "tokens:\n"
                   << "  - {name: ops-console, role: operator, token: " << kOperatorToken << "}\n"
                   << "  - {name: wallboard, role: read-only, token: " << kWatcherToken << "}\n";
        }
    }
    ~Rig()
    {
        scaled.reset();
        sim.reset();
    }

    // Starts meridian-scaled; with a drill, it kills itself at that step.
    void startScaled(const std::string &drill = {})
    {
        std::vector<std::string> argv{MERIDIAN_SCALED_BIN, "--config", dir.file("scaled.yaml")};
        if (!drill.empty())
            argv.insert(argv.begin(), {"env", "MERIDIAN_SCALED_KILL_AFTER=" + drill});
        scaled = std::make_unique<test::ChildProcess>(
            argv, dir.file(fmt::format("scaled-{}.log", ++m_starts)));
        ASSERT_TRUE(scaled->started());
        // Serving before anyone calls: a console that calls too early waits out gRPC's
        // reconnect back-off (seconds), which is the console's business, not this test's.
        ASSERT_TRUE(scaled->untilLogSays("serving on")) << scaled->log();
    }

    // Every start's output, oldest first.
    std::string logs() const
    {
        std::string text;
        for (int i = 1; i <= m_starts; ++i)
            text += fmt::format("--- start {}:\n{}", i,
                                test::readFile(dir.file(fmt::format("scaled-{}.log", i))));
        return text;
    }

    ClientSecurity consoleSecurity(const std::string &token) const
    {
        ClientSecurity security;
        if (m_secure) {
            security.caFile = dir.file("scaled.crt");
            security.token = token;
        }
        return security;
    }

    void setLoad(double rps)
    {
        auto stub = v1::SimControl::NewStub(makeChannel(control, {}));
        grpc::ClientContext context;
        test::withDeadline(context);
        v1::SetServiceLoadRequest request;
        request.set_service("chat");
        request.set_requests_per_second(rps);
        v1::SetServiceLoadResponse response;
        ASSERT_TRUE(stub->SetServiceLoad(&context, request, &response).ok());
    }

    // The journal as the controller left it, read through a connection kept open from
    // the first look on, as a console keeps its history file open while other processes
    // come and go. (Opening a file once closed a descriptor of it, which dropped the
    // process's SQLite locks: a controller stopping cleanly then deleted the write-ahead
    // log under this connection, which saw nothing written after that.)
    std::vector<JournalStep> steps()
    {
        if (!m_kept) {
            auto opened = ScalingJournal::openOwn(dir.file("journal.sqlite"));
            if (!opened)
                return {};
            m_kept = std::move(opened).value();
        }
        auto steps = m_kept->recentSteps(1000);
        return steps ? steps.value() : std::vector<JournalStep>{};
    }
    std::vector<AuditEntry> audit()
    {
        std::vector<AuditEntry> out;
        try {
            SQLite::Database db(dir.file("journal.sqlite"), SQLite::OPEN_READONLY);
            SQLite::Statement query(db,
                                    "SELECT at_unix_ms, who, what, why FROM audit_log "
                                    "ORDER BY id");
            while (query.executeStep())
                out.push_back({query.getColumn(0).getInt64(), query.getColumn(1).getString(),
                               query.getColumn(2).getString(), query.getColumn(3).getString()});
        } catch (const SQLite::Exception &) {
        }
        return out;
    }
    std::string journalText()
    {
        std::string text;
        for (const JournalStep &s : steps())
            text += fmt::format("  step {} {} {} lease={} node={}\n", s.id, s.idempotencyKey,
                                stepStateName(s.state), s.leaseId, s.nodeId);
        for (const AuditEntry &e : audit())
            text += fmt::format("  {} {}: {} ({})\n", e.atUnixMs % 1'000'000, e.who, e.what, e.why);
        return text;
    }

    std::vector<v1::Lease> leases()
    {
        auto stub = v1::CapacityPool::NewStub(makeChannel(control, {}));
        return test::allPoolLeases(*stub);
    }

    std::vector<v1::Workload> workloads(const std::string &agent)
    {
        auto stub = test::connect(agent);
        grpc::ClientContext context;
        test::withDeadline(context);
        v1::ListWorkloadsResponse response;
        if (!stub->ListWorkloads(&context, v1::ListWorkloadsRequest{}, &response).ok())
            return {};
        return {response.workloads().begin(), response.workloads().end()};
    }

    test::TempDir dir;
    std::string address = "127.0.0.1:" + std::to_string(test::freePort());
    int metricsPort = test::freePort();
    std::string control;
    std::unique_ptr<test::ChildProcess> sim;
    std::unique_ptr<test::ChildProcess> scaled;

private:
    bool m_secure;
    int m_starts = 0;
    std::unique_ptr<ScalingJournal> m_kept;
};

}  // namespace meridian::test

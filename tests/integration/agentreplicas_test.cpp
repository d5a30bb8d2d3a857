// Replicas through a real meridian-agent over gRPC, as the scaling controller drives
// them: ApplyWorkload starts the service's declared command on the node (the stand-in
// server here, on an NVML node faked at the library), ListWorkloads shows it serving,
// its own /metrics reach StreamTelemetry while real HTTP load runs, and after the
// agent is killed with kill -9 and started again the same idempotency key is answered
// from the agent's SQLite and the replica, never restarted, is adopted and stopped.
// Where systemd runs (a user manager of the test's own), the agent finds it and each
// replica is a unit of its own.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>

#include "agentprocess.h"
#include "childprocess.h"
#include "core/toolrunner.h"
#include "systemdusermanager.h"
#include "testsupport.h"

using namespace meridian;

namespace {

std::vector<std::string> agentArgs(const test::TempDir &dir, const std::string &address,
                                   int replicaPort)
{
    std::ofstream(dir.file("services.yaml"))
        << "services:\n"
           "  - name: chat\n"
           "    model: qwen\n"
           "    cards_per_replica: 2\n"
           "    runs_on: [{card_model: A100, requests_per_second_per_card: 1}]\n"
           "    serving:\n"
           "      command: ["
        << MERIDIAN_SIM_BIN
        << ", serve-replica, --port, \"{port}\", --model, \"{model}\"]\n"
           "      port: "
        << replicaPort << "\n";
    // Sampled (and its replicas checked) four times a second: a replica's start, its
    // signals and its end show within a quarter second, not a second.
    std::ofstream(dir.file("agent.yaml")) << "collector: nvml\n"
                                          << "nvml_library: " << MERIDIAN_FAKE_NVML << "\n"
                                          << "sample_interval_ms: 250\n"
                                          << "services_file: " << dir.file("services.yaml") << "\n";
    return {"--config", dir.file("agent.yaml"), "--listen",
            address,    "--data-dir",           dir.file("data")};
}

v1::ApplyWorkloadRequest startRequest()
{
    v1::ApplyWorkloadRequest request;
    request.set_idempotency_key("scale-up-41-step-1");
    request.set_requested_by("controller");
    auto *start = request.mutable_start();
    start->set_replica_id("chat-r1");
    start->set_service("chat");
    start->set_model("qwen");
    start->add_card_indices(0);
    start->add_card_indices(1);
    return request;
}

v1::ApplyWorkloadRequest stopRequest()
{
    v1::ApplyWorkloadRequest request;
    request.set_idempotency_key("scale-down-42");
    request.mutable_stop()->set_replica_id("chat-r1");
    return request;
}

// One ApplyWorkload; `replayed` says whether it was answered from the agent's record.
grpc::Status apply(v1::NodeAgent::Stub &stub, const v1::ApplyWorkloadRequest &request,
                   bool *replayed = nullptr)
{
    grpc::ClientContext context;
    test::withDeadline(context);
    v1::ApplyWorkloadResponse response;
    const grpc::Status status = stub.ApplyWorkload(&context, request, &response);
    if (replayed)
        *replayed = response.replayed();
    return status;
}

std::optional<v1::Workload> workloadOf(v1::NodeAgent::Stub &stub, const std::string &id)
{
    grpc::ClientContext context;
    test::withDeadline(context);
    v1::ListWorkloadsResponse response;
    if (!stub.ListWorkloads(&context, {}, &response).ok())
        return std::nullopt;
    for (const v1::Workload &w : response.workloads()) {
        if (w.replica_id() == id)
            return w;
    }
    return std::nullopt;
}

// Whether the replica reaches `state` within the wait.
bool reaches(v1::NodeAgent::Stub &stub, v1::WorkloadState state)
{
    return test::waitUntil([&] {
        const auto w = workloadOf(stub, "chat-r1");
        return w && w->state() == state;
    });
}

}  // namespace

TEST(AgentReplicas, StartedOverGrpcServingInTelemetryAndAdoptedAfterKill9)
{
    test::TempDir dir;
    const std::string address = "127.0.0.1:" + std::to_string(test::freePort());
    const int replicaPort = test::freePort();
    auto agent = std::make_unique<test::AgentProcess>(agentArgs(dir, address, replicaPort));
    auto stub = test::connect(address);
    ASSERT_TRUE(test::untilAnswering(*stub));

    bool replayed = true;
    const grpc::Status started = apply(*stub, startRequest(), &replayed);
    ASSERT_TRUE(started.ok()) << started.error_message();
    EXPECT_FALSE(replayed);
    ASSERT_TRUE(reaches(*stub, v1::WORKLOAD_STATE_SERVING))
        << test::readFile(dir.file("data/replicas/chat-r1.log"));
    EXPECT_NE(test::httpGet(replicaPort, "/health").find("\"visible_devices\":\"0,1\""),
              std::string::npos);

    // Under real load, the replica's own signals arrive in the node's telemetry. A load it
    // keeps up with (its prefill reads 20 such prompts a second): a backlog would only be
    // drained when it is stopped below.
    test::ChildProcess load(
        {MERIDIAN_SIM_BIN, "drive", "--url", "http://127.0.0.1:" + std::to_string(replicaPort),
         "--rps", "10", "--seconds", "4", "--prompt-tokens", "400", "--max-tokens", "40"},
        dir.file("drive.log"));
    bool sawSignals = false;
    {
        grpc::ClientContext context;
        test::withDeadline(context, std::chrono::seconds(20));
        v1::StreamTelemetryRequest request;
        request.set_interval_ms(500);
        auto stream = stub->StreamTelemetry(&context, request);
        v1::TelemetryBatch batch;
        while (!sawSignals && stream->Read(&batch)) {
            for (const v1::ReplicaTelemetry &r : batch.replicas()) {
                if (r.replica_id() == "chat-r1" && r.service() == "chat" &&
                    r.has_running_requests() && r.running_requests() > 0 &&
                    r.has_ttft_p95_seconds())
                    sawSignals = true;
            }
        }
        context.TryCancel();
    }
    EXPECT_TRUE(sawSignals) << "the replica's running requests and TTFT p95 in telemetry";

    // kill -9: the replica keeps serving; the restarted agent adopts it.
    agent->stop(SIGKILL);
    agent->waitExit();
    EXPECT_FALSE(test::httpGet(replicaPort, "/health").empty()) << "outlives its agent";
    agent = std::make_unique<test::AgentProcess>(agentArgs(dir, address, replicaPort));
    stub = test::connect(address);
    ASSERT_TRUE(test::untilAnswering(*stub));
    ASSERT_TRUE(apply(*stub, startRequest(), &replayed).ok());
    EXPECT_TRUE(replayed) << "answered from the agent's SQLite";
    const auto adopted = workloadOf(*stub, "chat-r1");
    ASSERT_TRUE(adopted.has_value());
    EXPECT_EQ(adopted->state(), v1::WORKLOAD_STATE_SERVING);
    const std::string log = test::readFile(dir.file("data/replicas/chat-r1.log"));
    size_t starts = 0;
    for (size_t at = log.find("serving qwen"); at != std::string::npos;
         at = log.find("serving qwen", at + 1))
        ++starts;
    EXPECT_EQ(starts, 1u) << "one process, never a second:\n" << log;

    // Stopped through the new agent: drained, and the cards are free again.
    ASSERT_TRUE(apply(*stub, stopRequest()).ok());
    ASSERT_TRUE(reaches(*stub, v1::WORKLOAD_STATE_STOPPED));
    EXPECT_TRUE(test::httpGet(replicaPort, "/health").empty()) << "the process is gone";
}

TEST(AgentReplicas, WhereSystemdRunsTheAgentStartsEachReplicaAsAUnitOfItsOwn)
{
    // The agent as the packaged unit runs it: root, on a machine where systemd runs. It
    // finds systemd for itself, and its replica becomes a unit that outlives a kill -9
    // of the agent and stops through systemd.
    test::TempDir dir;
    test::SystemdUserManager systemd(dir.file("systemd"));
    ASSERT_EQ(systemd.problem(), "");
    const std::string address = "127.0.0.1:" + std::to_string(test::freePort());
    const int replicaPort = test::freePort();
    test::AgentLimits seeingSystemd;
    seeingSystemd.runUnder = [&](std::vector<std::string> command) {
        return systemd.seeingIt(command);
    };
    auto agent =
        std::make_unique<test::AgentProcess>(agentArgs(dir, address, replicaPort), seeingSystemd);
    auto stub = test::connect(address);
    ASSERT_TRUE(test::untilAnswering(*stub));
    const grpc::Status started = apply(*stub, startRequest());
    ASSERT_TRUE(started.ok()) << started.error_message();
    ASSERT_TRUE(reaches(*stub, v1::WORKLOAD_STATE_SERVING))
        << test::readFile(dir.file("data/replicas/chat-r1.log"));
    const std::string unit = "meridian-replica-chat-r1-0";
    const auto state = [&] {
        auto shown = runTool(
            {{systemd.systemctl(), "show", "--property=ActiveState", "--value", unit}, 5'000});
        return shown ? shown->substr(0, shown->find('\n')) : shown.error().message;
    };
    EXPECT_EQ(state(), "active");
    EXPECT_NE(test::httpGet(replicaPort, "/health").find("\"visible_devices\":\"0,1\""),
              std::string::npos);

    agent->stop(SIGKILL);
    EXPECT_EQ(state(), "active") << "the unit outlives its agent";
    agent =
        std::make_unique<test::AgentProcess>(agentArgs(dir, address, replicaPort), seeingSystemd);
    stub = test::connect(address);
    ASSERT_TRUE(test::untilAnswering(*stub));
    const auto adopted = workloadOf(*stub, "chat-r1");
    ASSERT_TRUE(adopted.has_value());
    EXPECT_EQ(adopted->state(), v1::WORKLOAD_STATE_SERVING);

    ASSERT_TRUE(apply(*stub, stopRequest()).ok());
    ASSERT_TRUE(reaches(*stub, v1::WORKLOAD_STATE_STOPPED));
    EXPECT_NE(state(), "active");
    EXPECT_TRUE(test::httpGet(replicaPort, "/health").empty()) << "the process is gone";
}

TEST(AgentReplicas, ABrokenServicesFileStopsTheAgentWithItsLine)
{
    test::TempDir dir;
    std::ofstream(dir.file("services.yaml")) << "services:\n"
                                                "  - name: chat\n"
                                                "    model: qwen\n"
                                                "    runs_on: [{card_model: A100, "
                                                "requests_per_second_per_card: 1}]\n"
                                                "    serving:\n"
                                                "      command: [vllm, serve]\n"
                                                "      engine: sglang\n";
    std::ofstream(dir.file("agent.yaml")) << "collector: nvml\n"
                                          << "nvml_library: " << MERIDIAN_FAKE_NVML << "\n"
                                          << "services_file: " << dir.file("services.yaml") << "\n";
    test::ChildProcess agent(
        {MERIDIAN_AGENT_BIN, "--config", dir.file("agent.yaml"), "--listen",
         "127.0.0.1:" + std::to_string(test::freePort()), "--data-dir", dir.file("data")},
        dir.file("agent.log"));
    ASSERT_TRUE(
        test::waitUntil([&] { return agent.log().find("services.yaml:") != std::string::npos; },
                        std::chrono::seconds(10)))
        << agent.log();
    EXPECT_NE(agent.log().find("engine: sglang (vllm, mindie, tgi or llamacpp)"), std::string::npos)
        << agent.log();
}

// A node without accelerators (the sim collector) whose services file declares how to
// serve runs the real replica processes on its simulated cards, as a real node would; and
// `meridian-scaled replicas` starts a service's steady replicas there, once however often
// it is run, lists them and stops them.
TEST(AgentReplicas, ASimulatedNodeRunsRealReplicasAndTheSteadyCommandStartsThemOnce)
{
    test::TempDir dir;
    const std::string address = "127.0.0.1:" + std::to_string(test::freePort());
    const int replicaPort = test::freePort();
    std::vector<std::string> args = agentArgs(dir, address, replicaPort);
    std::ofstream(dir.file("agent.yaml"))
        << "collector: sim\nservices_file: " << dir.file("services.yaml") << "\n";
    test::AgentProcess agent(args);
    auto stub = test::connect(address);
    ASSERT_TRUE(test::untilAnswering(*stub));
    const auto steady = [&](const std::string &action, const std::vector<std::string> &more) {
        std::vector<std::string> argv = {
            MERIDIAN_SCALED_BIN, "replicas", action, "--agent", address, "--service", "chat"};
        argv.insert(argv.end(), more.begin(), more.end());
        test::ChildProcess run(argv, dir.file(action + ".log"));
        EXPECT_TRUE(test::waitUntil([&] { return run.ended(); }, std::chrono::seconds(60)));
        return std::make_pair(WIFEXITED(run.waitStatus()) ? WEXITSTATUS(run.waitStatus()) : -1,
                              run.log());
    };
    const auto started = steady("start", {"--cards-per-replica", "2", "--wait", "30"});
    EXPECT_EQ(started.first, 0) << started.second;
    EXPECT_NE(started.second.find("chat on " + address + ": 1 replica(s) steady-chat/r1…: serving"),
              std::string::npos)
        << started.second;
    EXPECT_FALSE(test::httpGet(replicaPort, "/health").empty()) << "a real process serves";
    // Run again: answered from the agent's records, nothing started twice.
    const auto again = steady("start", {"--cards-per-replica", "2", "--wait", "30"});
    EXPECT_EQ(again.first, 0) << again.second;
    grpc::ClientContext context;
    test::withDeadline(context);
    v1::ListWorkloadsResponse listed;
    ASSERT_TRUE(stub->ListWorkloads(&context, {}, &listed).ok());
    int live = 0;
    for (const v1::Workload &w : listed.workloads())
        live += w.state() != v1::WORKLOAD_STATE_STOPPED;
    EXPECT_EQ(live, 1);
    EXPECT_NE(steady("list", {}).second.find("serving"), std::string::npos);
    const auto stopped = steady("stop", {});
    EXPECT_EQ(stopped.first, 0) << stopped.second;
    EXPECT_TRUE(test::waitUntil([&] { return test::httpGet(replicaPort, "/health").empty(); },
                                std::chrono::seconds(30)))
        << "the replica process ended";
    // An agent that is not there is named, and the command fails.
    const auto nobody = [&] {
        test::ChildProcess run(
            {MERIDIAN_SCALED_BIN, "replicas", "start", "--agent",
             "127.0.0.1:" + std::to_string(test::freePort()), "--service", "chat"},
            dir.file("nobody.log"));
        EXPECT_TRUE(test::waitUntil([&] { return run.ended(); }, std::chrono::seconds(30)));
        return std::make_pair(WEXITSTATUS(run.waitStatus()), run.log());
    }();
    EXPECT_NE(nobody.first, 0);
    EXPECT_NE(nobody.second.find("127.0.0.1:"), std::string::npos) << nobody.second;
}

// Agent CPU and memory at 1 Hz on an 8-card node (budget: <= 1% of a core, <= 30 MB).
// Starts the real meridian-agent with the sim collector, holds a telemetry stream at
// 1 Hz and an event stream open like the console does, and reads /proc. Given REPLICAS
// (0 included), the agent runs as on a real node instead: the NVML collector (on the
// tests' stand-in library, 8 GPUs) with a replica runner, which first starts that many
// replicas of the stand-in server (8 / REPLICAS cards each) through ApplyWorkload and then
// reads their /metrics for every batch while measured. The figures are the agent's own,
// not its replicas'.
//   agent_footprint [SECONDS] [REPLICAS]
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "meridian/v1/node_agent.grpc.pb.h"
#include "procstats.h"
#include "wire/calldeadline.h"

namespace {

using namespace meridian;

// An agent config whose services file runs the stand-in server, `cards` cards a replica.
std::string writeReplicaConfig(const std::string &dir, int cards)
{
    std::filesystem::create_directories(dir);
    const std::string services = dir + "/services.yaml";
    std::ofstream(services)
        << "services:\n"
           "  - name: chat\n"
           "    model: qwen\n"
           "    cards_per_replica: "
        << cards
        << "\n"
           "    runs_on: [{card_model: A100, requests_per_second_per_card: 1}]\n"
           "    serving:\n"
           "      command: ["
        << MERIDIAN_SIM_BIN
        << ", serve-replica, --port, \"{port}\", --model, \"{model}\"]\n"
           "      port: 47950\n";
    const std::string config = dir + "/agent.yaml";
    std::ofstream(config) << "collector: nvml\nnvml_library: " << MERIDIAN_FAKE_NVML
                          << "\nservices_file: " << services << "\n";
    return config;
}

// Starts `count` replicas and waits until all serve; false (said why) when they do not.
bool startReplicas(v1::NodeAgent::Stub &stub, int count, int cards)
{
    for (int r = 0; r < count; ++r) {
        v1::ApplyWorkloadRequest request;
        request.set_idempotency_key("footprint-" + std::to_string(r));
        request.set_requested_by("agent_footprint");
        auto *start = request.mutable_start();
        start->set_replica_id("chat-r" + std::to_string(r));
        start->set_service("chat");
        start->set_model("qwen");
        for (int c = 0; c < cards; ++c)
            start->add_card_indices(static_cast<uint32_t>(r * cards + c));
        grpc::ClientContext context;
        setCallDeadline(context, 10'000);
        v1::ApplyWorkloadResponse response;
        if (const grpc::Status status = stub.ApplyWorkload(&context, request, &response);
            !status.ok()) {
            std::fprintf(stderr, "replica %d: %s\n", r, status.error_message().c_str());
            return false;
        }
    }
    for (int attempt = 0; attempt < 300; ++attempt) {
        grpc::ClientContext context;
        setCallDeadline(context, 5'000);
        v1::ListWorkloadsResponse response;
        int serving = 0;
        if (stub.ListWorkloads(&context, {}, &response).ok()) {
            for (const v1::Workload &w : response.workloads())
                serving += w.state() == v1::WORKLOAD_STATE_SERVING;
        }
        if (serving == count)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::fprintf(stderr, "the replicas did not all serve within 30 s\n");
    return false;
}

}  // namespace

int main(int argc, char **argv)
{
    const int seconds = argc > 1 ? std::atoi(argv[1]) : 60;
    const bool asOnARealNode = argc > 2;
    const int replicas = asOnARealNode ? std::clamp(std::atoi(argv[2]), 0, 8) : 0;
    const std::string dir = std::filesystem::temp_directory_path() / "meridian-footprint";
    std::filesystem::remove_all(dir);
    const std::string address = "127.0.0.1:47911";
    std::vector<std::string> args = {MERIDIAN_AGENT_BIN, "--listen", address, "--data-dir", dir};
    const int cardsEach = replicas > 0 ? 8 / replicas : 8;
    if (asOnARealNode) {
        setenv("MERIDIAN_FAKE_NVML_CARDS", "8", 1);
        args.push_back("--config");
        args.push_back(writeReplicaConfig(dir + "-config", cardsEach));
    } else {
        args.push_back("--collector");
        args.push_back("sim");
    }
    const pid_t pid = bench::spawnProcess(args);
    if (pid < 0)
        return 1;
    auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
    channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10));
    auto stub = v1::NodeAgent::NewStub(channel);
    if (replicas > 0 && !startReplicas(*stub, replicas, cardsEach)) {
        kill(pid, SIGTERM);
        waitpid(pid, nullptr, 0);
        return 1;
    }

    grpc::ClientContext telemetryContext;
    v1::StreamTelemetryRequest request;
    request.set_interval_ms(1000);
    auto telemetry = stub->StreamTelemetry(&telemetryContext, request);
    grpc::ClientContext eventContext;
    auto events = stub->StreamEvents(&eventContext, {});
    std::thread eventReader([&] {
        v1::Event e;
        while (events->Read(&e)) {
        }
    });
    v1::TelemetryBatch batch;
    telemetry->Read(&batch);  // warmed up: start measuring from the first batch
    const double cpuStart = bench::cpuSeconds(pid);
    const auto wallStart = std::chrono::steady_clock::now();
    int batches = 0;
    int replicaReadings = 0;  // the replicas' own signals, as the batches carried them
    while (std::chrono::steady_clock::now() - wallStart < std::chrono::seconds(seconds) &&
           telemetry->Read(&batch)) {
        ++batches;
        replicaReadings += batch.replicas_size();
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const double cpu = bench::cpuSeconds(pid) - cpuStart;
    std::printf("agent at 1 Hz, 8 cards (%s), %d replicas, %d batches in %.1f s\n",
                asOnARealNode ? "NVML stand-in" : "sim", replicas, batches, wall);
    std::printf("  replica readings per batch: %.1f\n",
                batches > 0 ? static_cast<double>(replicaReadings) / batches : 0.0);
    std::printf("  CPU: %.2f%% of one core\n", 100.0 * cpu / wall);
    std::printf("  RSS: %.1f MiB (peak %.1f MiB)\n", bench::statusMiB(pid, "VmRSS"),
                bench::statusMiB(pid, "VmHWM"));
    telemetryContext.TryCancel();
    eventContext.TryCancel();
    eventReader.join();
    kill(pid, SIGTERM);  // its replicas are drained and stopped with it
    waitpid(pid, nullptr, 0);
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(dir + "-config");
    return 0;
}

// Agent CPU and memory at 1 Hz on an 8-card node (budget: <= 1% of a core, <= 30 MB).
// Starts the real meridian-agent with the sim collector, holds a telemetry stream at
// 1 Hz and an event stream open like the console does, and reads /proc.
//   agent_footprint [SECONDS]
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "meridian/v1/node_agent.grpc.pb.h"
#include "procstats.h"

int main(int argc, char **argv)
{
    using namespace meridian;
    const int seconds = argc > 1 ? std::atoi(argv[1]) : 60;
    const std::string dir = std::filesystem::temp_directory_path() / "meridian-footprint";
    std::filesystem::remove_all(dir);
    const std::string address = "127.0.0.1:47911";
    const pid_t pid = bench::spawnProcess(
        {MERIDIAN_AGENT_BIN, "--listen", address, "--collector", "sim", "--data-dir", dir});
    if (pid < 0)
        return 1;
    auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
    channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10));
    auto stub = v1::NodeAgent::NewStub(channel);

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
    while (std::chrono::steady_clock::now() - wallStart < std::chrono::seconds(seconds) &&
           telemetry->Read(&batch))
        ++batches;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const double cpu = bench::cpuSeconds(pid) - cpuStart;
    std::printf("agent at 1 Hz, 8 cards, %d batches in %.1f s\n", batches, wall);
    std::printf("  CPU: %.2f%% of one core\n", 100.0 * cpu / wall);
    std::printf("  RSS: %.1f MiB (peak %.1f MiB)\n", bench::statusMiB(pid, "VmRSS"),
                bench::statusMiB(pid, "VmHWM"));
    telemetryContext.TryCancel();
    eventContext.TryCancel();
    eventReader.join();
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    std::filesystem::remove_all(dir);
    return 0;
}

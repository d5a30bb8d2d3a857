// How many simulated nodes one core serves at 1 Hz. Starts meridian-sim pinned to one
// core with N nodes, streams telemetry from every node at 1 Hz (callback client, like
// the console), and reports the simulator's CPU.
//   sim_capacity [NODES ...]   (default 100 250 500 750)
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "meridian/v1/node_agent.grpc.pb.h"
#include "procstats.h"

using namespace meridian;

namespace {

class Reader final : public grpc::ClientReadReactor<v1::TelemetryBatch> {
public:
    Reader(v1::NodeAgent::Stub &stub, std::atomic<long> &batches) : m_batches(batches)
    {
        v1::StreamTelemetryRequest request;
        request.set_interval_ms(1000);
        stub.async()->StreamTelemetry(&m_context, &request, this);
        StartRead(&m_batch);
        StartCall();
    }
    void OnReadDone(bool ok) override
    {
        if (!ok)
            return;
        ++m_batches;
        StartRead(&m_batch);
    }
    void OnDone(const grpc::Status &) override { m_done = true; }
    void cancel() { m_context.TryCancel(); }
    std::atomic<bool> m_done{false};

private:
    grpc::ClientContext m_context;
    v1::TelemetryBatch m_batch;
    std::atomic<long> &m_batches;
};

void measure(int nodes, int seconds)
{
    const std::string inventory = std::filesystem::temp_directory_path() / "meridian-capacity.yaml";
    std::filesystem::remove(inventory);
    const pid_t pid = bench::spawnProcess({"taskset", "-c", "0", MERIDIAN_SIM_BIN, "--nodes",
                                           std::to_string(nodes), "--inventory-out", inventory});
    for (int i = 0; i < 100 && !std::filesystem::exists(inventory); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::vector<std::string> addresses;
    for (const auto &dc : YAML::LoadFile(inventory)["data_centers"])
        for (const auto &agent : dc["agents"])
            addresses.push_back(agent["address"].as<std::string>());
    std::vector<std::unique_ptr<v1::NodeAgent::Stub>> stubs;
    std::vector<std::unique_ptr<Reader>> readers;
    std::atomic<long> batches{0};
    for (const std::string &address : addresses) {
        stubs.push_back(v1::NodeAgent::NewStub(
            grpc::CreateChannel(address, grpc::InsecureChannelCredentials())));
        readers.push_back(std::make_unique<Reader>(*stubs.back(), batches));
    }
    std::this_thread::sleep_for(std::chrono::seconds(3));  // connect and settle
    const long batchesStart = batches;
    const double cpuStart = bench::cpuSeconds(pid);
    const auto wallStart = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const double cpu = bench::cpuSeconds(pid) - cpuStart;
    const double rate = static_cast<double>(batches - batchesStart) / wall;
    std::printf(
        "%5d nodes (%5d cards): sim CPU %5.1f%% of one core, %6.0f batches/s delivered "
        "(%.0f%% of 1 Hz), RSS %.0f MiB -> ~%.0f nodes per core\n",
        nodes, nodes * 8, 100 * cpu / wall, rate, 100 * rate / nodes,
        bench::statusMiB(pid, "VmRSS"), nodes / std::max(cpu / wall, 1e-9));
    std::fflush(stdout);
    for (auto &r : readers)
        r->cancel();
    for (auto &r : readers)
        while (!r->m_done)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
}

}  // namespace

int main(int argc, char **argv)
{
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty())
        sizes = {100, 250, 500, 750};
    for (int nodes : sizes)
        measure(nodes, 20);
    return 0;
}

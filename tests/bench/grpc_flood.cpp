// How a real meridian-agent holds up under HTTP/2 abuse that needs no token: the rapid
// reset (HEADERS then RST_STREAM as fast as the socket takes them) and thousands of
// streams opened and left open. Prints the agent's memory before and at its peak, and
// whether a valid call answered. The same floods are asserted in grpcflood_test; this
// prints the figures for docs/RELIABILITY.md.
//   build/tests/bench/grpc_flood [rapid-reset|open-streams] [streams per connection]
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

#include "agentprocess.h"
#include "h2flood.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "rapid-reset";
    const int64_t streams = argc > 2 ? std::stoll(argv[2]) : 100'000;
    TempDir dir;
    const int port = freePort();
    const std::string address = "127.0.0.1:" + std::to_string(port);
    AgentProcess agent({"--listen", address, "--collector", "sim", "--data-dir", dir.path()});
    auto stub = connect(address);
    if (!untilAnswering(*stub)) {
        std::fprintf(stderr, "grpc_flood: the agent at %s never answered\n", address.c_str());
        return 1;
    }
    FloodPlan plan;
    plan.port = port;
    plan.connections = 4;
    plan.streamsPerConnection = streams;
    plan.resetEachStream = mode == "rapid-reset";
    plan.maxSeconds = 8;

    const double baseline = residentMiB(agent.pid());
    double peak = baseline;
    std::atomic<bool> done{false};
    std::thread sampler([&] {
        while (!done) {
            peak = std::max(peak, residentMiB(agent.pid()));
            std::this_thread::sleep_for(50ms);
        }
    });
    std::atomic<bool> answeredDuring{false};
    std::thread caller([&] {
        std::this_thread::sleep_for(1500ms);
        grpc::ClientContext context;
        withDeadline(context, 2s);
        v1::NodeInventory inventory;
        answeredDuring = stub->GetInventory(&context, {}, &inventory).ok();
    });
    const FloodOutcome outcome = floodHttp2(plan);
    caller.join();
    std::this_thread::sleep_for(1s);
    done = true;
    sampler.join();
    grpc::ClientContext after;
    withDeadline(after, 3s);
    v1::NodeInventory inventory;
    const bool answeredAfter = stub->GetInventory(&after, {}, &inventory).ok();
    std::printf(
        "%s: %lld streams on %d connections (%d cut by the agent); agent RSS %.0f -> "
        "%.0f MiB peak; valid call during the flood: %s, 1 s after: %s\n",
        mode.c_str(), static_cast<long long>(outcome.streamsSent), plan.connections,
        outcome.connectionsClosedByServer, baseline, peak,
        answeredDuring ? "answered" : "no answer in 2 s",
        answeredAfter ? "answered" : "no answer in 3 s");
    agent.stop(SIGKILL);
    return 0;
}

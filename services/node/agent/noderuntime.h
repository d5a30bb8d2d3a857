// What the gRPC service needs of one node: its monitor and workloads, plus the
// availability switches the simulator flips to play a crashed, hung or slow agent.
// A real agent never touches those.
#pragma once

#include <atomic>
#include <string_view>

#include "telemetry/nodemonitor.h"
#include "telemetry/workloads.h"

namespace meridian {

struct NodeRuntime {
    NodeMonitor *monitor = nullptr;
    WorkloadManager *workloads = nullptr;
    std::atomic<bool> down{false};
    std::atomic<bool> hung{false};
    std::atomic<int> delayMs{0};
};

// Maps the address a client dialled (":authority") to the node behind it; an agent
// has one node, the simulator hundreds on one server.
class NodeDirectory {
public:
    virtual ~NodeDirectory() = default;
    virtual NodeRuntime *find(std::string_view authority) = 0;
};

class SingleNodeDirectory final : public NodeDirectory {
public:
    explicit SingleNodeDirectory(NodeRuntime &node) : m_node(node) {}
    NodeRuntime *find(std::string_view) override { return &m_node; }

private:
    NodeRuntime &m_node;
};

}  // namespace meridian

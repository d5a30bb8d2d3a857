// A source of readings for one node: simulated cards, NVML, or the vendors' tools.
// Called from the agent's sampling thread only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/nodetypes.h"
#include "core/result.h"

namespace meridian {

struct NodeHardware {
    std::vector<CardInfo> cards;
    std::vector<NicInfo> nics;
};

struct CollectedSample {
    std::vector<CardSample> cards;
    std::vector<NicCounters> nics;
    std::vector<ReplicaSignals> replicas;
    // Things only the collector can see happen (an Xid from NVML's event queue).
    std::vector<Event> events;
    // Parts that failed this time, with the reason ("npu-smi: timed out after 5 s").
    std::vector<std::string> problems;
};

class Collector {
public:
    virtual ~Collector() = default;
    virtual std::string name() const = 0;
    virtual Result<NodeHardware> discover() = 0;
    // The NICs again, for what changes while the agent runs (LLDP neighbours, link state).
    virtual Result<std::vector<NicInfo>> rediscoverNics()
    {
        auto hardware = discover();
        if (!hardware)
            return hardware.error();
        return std::move(hardware).value().nics;
    }
    virtual Result<CollectedSample> sample(int64_t nowUnixMs) = 0;
};

}  // namespace meridian

// Cards and NICs from the vendors' own tools: nvidia-smi, npu-smi, cnmon, hy-smi,
// ethtool -S and lldpctl. Each source is either a live command or a captured file
// (`collect --from KIND=FILE`), so the same parsing path serves both.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector.h"

namespace meridian {

enum class ToolKind {
    NvidiaSmiCsv,
    NvidiaSmiXml,
    NvidiaSmiTopo,
    NpuSmi,
    Cnmon,
    HySmi,
    Ethtool,
    LldpctlJson
};

const char *toolKindName(ToolKind kind);
std::optional<ToolKind> toolKindFromName(std::string_view name);
std::string toolKindNames();  // "nvidia-smi-csv, nvidia-smi-xml, ..." for help and errors

struct ToolSource {
    ToolKind kind;
    std::string label;       // what errors name: the command, or the file
    std::string netdev;      // ethtool: which NIC the counters belong to
    std::string rdmaDevice;  // ethtool on a live node: its RDMA device ("mlx5_0")
    bool live = false;       // a command on this node (so sysfs describes the same NIC)
    std::function<Result<std::string>()> read;
};

struct SmiReading {
    NodeHardware hardware;
    CollectedSample sample;
};

class SmiCollector final : public Collector {
public:
    SmiCollector(std::vector<ToolSource> sources, std::string nodeId);

    // Every vendor tool found on PATH and every RDMA NIC in /sys/class/infiniband.
    static std::vector<ToolSource> liveSources();
    // "npu-smi=/tmp/npu.txt" or "ethtool=/tmp/ens1np0.txt" (the NIC named by the file).
    static Result<ToolSource> fileSource(std::string_view spec);

    std::string name() const override { return "smi"; }
    Result<NodeHardware> discover() override;
    Result<CollectedSample> sample(int64_t nowUnixMs) override;

    // All sources once. strict: the first failing source is the error (for `collect`);
    // otherwise failures become problems beside what did work. discovery: also read what
    // changes only with cabling (LLDP neighbours, PCIe topology).
    Result<SmiReading> read(bool strict, bool discovery);

private:
    std::vector<ToolSource> m_sources;
    std::string m_nodeId;
};

}  // namespace meridian

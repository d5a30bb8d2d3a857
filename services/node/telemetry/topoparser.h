// `nvidia-smi topo -m` (or -mp): which NIC sits closest to which GPU on the PCIe tree.
// That is the NIC's rail: on a rail-optimised fabric NIC i of every node goes to leaf i
// and carries the traffic of the GPUs nearest to it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace meridian {

struct PcieTopology {
    std::vector<std::string> devices;  // column order: "GPU0", ..., "NIC0", ...
    // link[row][column] as printed: "X", "PIX", "PXB", "PHB", "NODE", "SYS", "NV12"
    std::map<std::string, std::map<std::string, std::string>> link;
    std::map<std::string, std::string> nicNames;  // "NIC0" -> "mlx5_0" (NIC Legend)
};

Result<PcieTopology> parseNvidiaSmiTopo(std::string_view text);

// For each NIC (by its RDMA name, e.g. "mlx5_0"), the index of the GPU on the shortest
// PCIe path; among equally near GPUs the lowest index. NICs with no GPU nearer than SYS
// are left out: they serve no GPU in particular.
std::map<std::string, uint32_t> nearestGpuPerNic(const PcieTopology &topology);

}  // namespace meridian

// How each exporter names a card's readings in a Prometheus-compatible store, so a fleet
// watched by dcgm-exporter, Ascend npu-exporter or Cambricon's mlu exporter (or by
// meridian-agent, which speaks dcgm-exporter's names for every vendor) maps onto cards.
#pragma once

#include <string_view>
#include <vector>

#include "core/vendor.h"

namespace meridian {

struct ExporterDialect {
    std::string_view name;
    Vendor vendor;  // Unknown: read the `vendor` label (meridian-agent), NVIDIA without it
    // The labels that name the node and the card within it.
    std::string_view hostLabel;
    std::string_view indexLabel;
    std::string_view uuidLabel;
    std::string_view modelLabel;
    // Metric names; empty: the exporter has no such reading.
    std::string_view utilization;  // percent
    std::string_view temperature;  // °C
    std::string_view power;        // W
    std::string_view memoryUsed;
    std::string_view memoryFree;  // dcgm-exporter gives free, not total
    std::string_view memoryTotal;
    double memoryUnitBytes;  // what one unit of the memory metrics is
    std::string_view lastXid;
};

const std::vector<ExporterDialect> &exporterDialects();

}  // namespace meridian

// One node's latest readings in the Prometheus exposition formats, so Prometheus,
// VictoriaMetrics, Thanos or Mimir can scrape the agent beside dcgm-exporter.
// Per-card gauges use dcgm-exporter's metric and label names (DCGM_FI_DEV_GPU_UTIL with
// gpu, UUID, Hostname, modelName) for every vendor, so one dashboard and one console
// query serve NVIDIA, Ascend, Cambricon and Hygon cards alike; dc, vendor, model, node
// and rack are added because a mixed fleet needs them. NIC and RoCE counters are
// meridian_nic_*. A value the card did not report is left out, never written as 0.
#pragma once

#include <string>
#include <string_view>

#include "core/nodetypes.h"

namespace meridian {

enum class ExpositionFormat {
    PrometheusText,  // text/plain; version=0.0.4
    OpenMetrics      // application/openmetrics-text; version=1.0.0
};

// The format to answer with for an HTTP Accept header (OpenMetrics when asked for).
ExpositionFormat negotiateExposition(std::string_view acceptHeader);
std::string_view expositionContentType(ExpositionFormat format);

// A whole scrape body (OpenMetrics's closing "# EOF" included).
std::string renderExposition(const NodeInventory &inventory, const TelemetrySample &sample,
                             ExpositionFormat format);

}  // namespace meridian

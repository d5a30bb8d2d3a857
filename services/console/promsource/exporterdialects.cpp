#include "exporterdialects.h"

namespace meridian {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
}

const std::vector<ExporterDialect> &exporterDialects()
{
    static const std::vector<ExporterDialect> dialects = {
        {.name = "dcgm-exporter",
         .vendor = Vendor::Unknown,
         .hostLabel = "Hostname",
         .indexLabel = "gpu",
         .uuidLabel = "UUID",
         .modelLabel = "modelName",
         .utilization = "DCGM_FI_DEV_GPU_UTIL",
         .temperature = "DCGM_FI_DEV_GPU_TEMP",
         .power = "DCGM_FI_DEV_POWER_USAGE",
         .memoryUsed = "DCGM_FI_DEV_FB_USED",
         .memoryFree = "DCGM_FI_DEV_FB_FREE",
         .memoryTotal = {},
         .memoryUnitBytes = kMiB,
         .lastXid = "DCGM_FI_DEV_XID_ERRORS"},
        // Huawei MindX DL npu-exporter: one series per chip, `id` its index, `vdie_id` its
        // die id; memory in MB (HBM on the 910 series).
        {.name = "npu-exporter",
         .vendor = Vendor::Huawei,
         .hostLabel = "instance",
         .indexLabel = "id",
         .uuidLabel = "vdie_id",
         .modelLabel = "model_name",
         .utilization = "npu_chip_info_utilization",
         .temperature = "npu_chip_info_temperature",
         .power = "npu_chip_info_power",
         .memoryUsed = "npu_chip_info_hbm_used_memory",
         .memoryFree = {},
         .memoryTotal = "npu_chip_info_hbm_total_memory",
         .memoryUnitBytes = kMiB,
         .lastXid = {}},
        // Cambricon mlu-exporter (cndev): `mlu` the index, `uuid`, `model`; memory in MiB.
        {.name = "mlu-exporter",
         .vendor = Vendor::Cambricon,
         .hostLabel = "instance",
         .indexLabel = "mlu",
         .uuidLabel = "uuid",
         .modelLabel = "model",
         .utilization = "mlu_utilization",
         .temperature = "mlu_temperature",
         .power = "mlu_power_usage",
         .memoryUsed = "mlu_memory_used",
         .memoryFree = {},
         .memoryTotal = "mlu_memory_total",
         .memoryUnitBytes = kMiB,
         .lastXid = {}},
    };
    return dialects;
}

}  // namespace meridian

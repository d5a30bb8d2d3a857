#include "nvmlcollector.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <vector>

#include "core/cardcatalog.h"
#include "nvmlapi.h"

namespace meridian {

struct NvmlCollector::Api {
    void *handle = nullptr;
    bool initialised = false;
    nvmlEventSet_t events = nullptr;
    std::vector<nvmlDevice_t> devices;
    std::string driverVersion;

#define MERIDIAN_NVML_FN(name) decltype(&::name) name = nullptr
    MERIDIAN_NVML_FN(nvmlInit_v2);
    MERIDIAN_NVML_FN(nvmlShutdown);
    MERIDIAN_NVML_FN(nvmlErrorString);
    MERIDIAN_NVML_FN(nvmlSystemGetDriverVersion);
    MERIDIAN_NVML_FN(nvmlDeviceGetCount_v2);
    MERIDIAN_NVML_FN(nvmlDeviceGetHandleByIndex_v2);
    MERIDIAN_NVML_FN(nvmlDeviceGetName);
    MERIDIAN_NVML_FN(nvmlDeviceGetUUID);
    MERIDIAN_NVML_FN(nvmlDeviceGetSerial);
    MERIDIAN_NVML_FN(nvmlDeviceGetPciInfo_v3);
    MERIDIAN_NVML_FN(nvmlDeviceGetMemoryInfo);
    MERIDIAN_NVML_FN(nvmlDeviceGetUtilizationRates);
    MERIDIAN_NVML_FN(nvmlDeviceGetTemperature);
    MERIDIAN_NVML_FN(nvmlDeviceGetPowerUsage);
    MERIDIAN_NVML_FN(nvmlDeviceGetEnforcedPowerLimit);
    MERIDIAN_NVML_FN(nvmlDeviceGetClockInfo);
    MERIDIAN_NVML_FN(nvmlDeviceGetTotalEccErrors);
    MERIDIAN_NVML_FN(nvmlDeviceGetCurrentClocksThrottleReasons);
    MERIDIAN_NVML_FN(nvmlDeviceGetMigMode);
    MERIDIAN_NVML_FN(nvmlEventSetCreate);
    MERIDIAN_NVML_FN(nvmlDeviceRegisterEvents);
    MERIDIAN_NVML_FN(nvmlEventSetWait_v2);
    MERIDIAN_NVML_FN(nvmlEventSetFree);
#undef MERIDIAN_NVML_FN

    std::string errorText(nvmlReturn_t code) const
    {
        const char *text = nvmlErrorString ? nvmlErrorString(code) : nullptr;
        return text ? fmt::format("{} (NVML error {})", text, code)
                    : fmt::format("NVML error {}", code);
    }
};

namespace {

template <typename Fn>
bool resolve(void *handle, const char *symbol, Fn &fn, std::string &missing)
{
    fn = reinterpret_cast<Fn>(dlsym(handle, symbol));
    if (!fn)
        missing += missing.empty() ? symbol : fmt::format(", {}", symbol);
    return fn != nullptr;
}

template <typename T>
std::optional<T> ifOk(nvmlReturn_t code, T value)
{
    return code == NVML_SUCCESS ? std::optional<T>(value) : std::nullopt;
}

}  // namespace

namespace {

// Every NVML call the agent makes, found in the library; the names it lacks, if any.
std::string resolveSymbols(NvmlCollector::Api &api)
{
    std::string missing;
#define MERIDIAN_RESOLVE(name) resolve(api.handle, #name, api.name, missing)
    MERIDIAN_RESOLVE(nvmlInit_v2);
    MERIDIAN_RESOLVE(nvmlShutdown);
    MERIDIAN_RESOLVE(nvmlErrorString);
    MERIDIAN_RESOLVE(nvmlSystemGetDriverVersion);
    MERIDIAN_RESOLVE(nvmlDeviceGetCount_v2);
    MERIDIAN_RESOLVE(nvmlDeviceGetHandleByIndex_v2);
    MERIDIAN_RESOLVE(nvmlDeviceGetName);
    MERIDIAN_RESOLVE(nvmlDeviceGetUUID);
    MERIDIAN_RESOLVE(nvmlDeviceGetSerial);
    MERIDIAN_RESOLVE(nvmlDeviceGetPciInfo_v3);
    MERIDIAN_RESOLVE(nvmlDeviceGetMemoryInfo);
    MERIDIAN_RESOLVE(nvmlDeviceGetUtilizationRates);
    MERIDIAN_RESOLVE(nvmlDeviceGetTemperature);
    MERIDIAN_RESOLVE(nvmlDeviceGetPowerUsage);
    MERIDIAN_RESOLVE(nvmlDeviceGetEnforcedPowerLimit);
    MERIDIAN_RESOLVE(nvmlDeviceGetClockInfo);
    MERIDIAN_RESOLVE(nvmlDeviceGetTotalEccErrors);
    MERIDIAN_RESOLVE(nvmlDeviceGetCurrentClocksThrottleReasons);
    MERIDIAN_RESOLVE(nvmlDeviceGetMigMode);
    MERIDIAN_RESOLVE(nvmlEventSetCreate);
    MERIDIAN_RESOLVE(nvmlDeviceRegisterEvents);
    MERIDIAN_RESOLVE(nvmlEventSetWait_v2);
    MERIDIAN_RESOLVE(nvmlEventSetFree);
#undef MERIDIAN_RESOLVE
    return missing;
}

// The node's GPUs opened, its driver's version read, and its Xid and double-bit ECC
// events asked for (without them the agent still samples).
Status openDevices(NvmlCollector::Api &api)
{
    unsigned int count = 0;
    if (const nvmlReturn_t rc = api.nvmlDeviceGetCount_v2(&count); rc != NVML_SUCCESS)
        return Error{fmt::format("NVML cannot count GPUs: {}", api.errorText(rc))};
    if (count == 0)
        return Error{"NVML found no NVIDIA GPU on this node"};
    for (unsigned int i = 0; i < count; ++i) {
        nvmlDevice_t device = nullptr;
        if (const nvmlReturn_t rc = api.nvmlDeviceGetHandleByIndex_v2(i, &device);
            rc != NVML_SUCCESS)
            return Error{fmt::format("NVML cannot open GPU {}: {}", i, api.errorText(rc))};
        api.devices.push_back(device);
    }
    char version[96] = {};
    if (api.nvmlSystemGetDriverVersion(version, sizeof version) == NVML_SUCCESS)
        api.driverVersion = version;
    // Xid and double-bit ECC arrive as events; without them we still sample.
    if (api.nvmlEventSetCreate(&api.events) == NVML_SUCCESS) {
        for (nvmlDevice_t device : api.devices) {
            api.nvmlDeviceRegisterEvents(
                device, nvmlEventTypeXidCriticalError | nvmlEventTypeDoubleBitEccError, api.events);
        }
    }
    return {};
}

}  // namespace

Result<std::unique_ptr<NvmlCollector>> NvmlCollector::load(const std::string &libraryPath)
{
    const std::string path = libraryPath.empty() ? "libnvidia-ml.so.1" : libraryPath;
    auto api = std::make_unique<Api>();
    api->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!api->handle) {
        const char *why = dlerror();
        return Error{
            fmt::format("cannot load {} ({}); is the NVIDIA driver installed on this "
                        "node? Use --collector smi or sim otherwise",
                        path, why ? why : "unknown reason")};
    }
    const std::string missing = resolveSymbols(*api);
    if (!missing.empty()) {
        dlclose(api->handle);
        return Error{
            fmt::format("{} lacks {}: the NVIDIA driver is too old for this agent", path, missing)};
    }
    if (const nvmlReturn_t rc = api->nvmlInit_v2(); rc != NVML_SUCCESS) {
        const std::string why = api->errorText(rc);
        dlclose(api->handle);
        return Error{fmt::format("NVML did not initialise: {}", why)};
    }
    api->initialised = true;
    if (Status opened = openDevices(*api); !opened)
        return opened.error();
    return std::unique_ptr<NvmlCollector>(new NvmlCollector(std::move(api)));
}

NvmlCollector::NvmlCollector(std::unique_ptr<Api> api) : m_api(std::move(api))
{}

NvmlCollector::~NvmlCollector()
{
    if (m_api->events)
        m_api->nvmlEventSetFree(m_api->events);
    if (m_api->initialised)
        m_api->nvmlShutdown();
    if (m_api->handle)
        dlclose(m_api->handle);
}

Result<NodeHardware> NvmlCollector::discover()
{
    NodeHardware hw;
    Api &api = *m_api;
    for (size_t i = 0; i < api.devices.size(); ++i) {
        nvmlDevice_t device = api.devices[i];
        CardInfo info;
        info.index = static_cast<uint32_t>(i);
        info.vendor = Vendor::Nvidia;
        char text[96] = {};
        if (api.nvmlDeviceGetName(device, text, sizeof text) == NVML_SUCCESS)
            info.model = canonicalCardModel(text);
        if (api.nvmlDeviceGetUUID(device, text, sizeof text) == NVML_SUCCESS)
            info.uuid = text;
        if (api.nvmlDeviceGetSerial(device, text, sizeof text) == NVML_SUCCESS)
            info.serial = text;
        nvmlPciInfo_t pci{};
        if (api.nvmlDeviceGetPciInfo_v3(device, &pci) == NVML_SUCCESS)
            info.pciBusId = pci.busId;
        nvmlMemory_t memory{};
        if (api.nvmlDeviceGetMemoryInfo(device, &memory) == NVML_SUCCESS)
            info.memoryTotalBytes = memory.total;
        unsigned int current = 0;
        unsigned int pending = 0;
        if (api.nvmlDeviceGetMigMode(device, &current, &pending) == NVML_SUCCESS)
            info.migEnabled = current == NVML_DEVICE_MIG_ENABLE;
        info.driverVersion = api.driverVersion;
        if (const auto facts = lookupCardModel(info.model))
            info.peakFp16Tflops = facts->peakFp16Tflops;
        if (info.uuid.empty())
            info.uuid = fmt::format("GPU-{}", info.pciBusId);
        hw.cards.push_back(std::move(info));
    }
    return hw;
}

namespace {

std::vector<ThrottleReason> throttleReasons(unsigned long long reasons)
{
    static const std::pair<unsigned long long, ThrottleReason> kBits[] = {
        {nvmlClocksThrottleReasonGpuIdle, ThrottleReason::Idle},
        {nvmlClocksThrottleReasonApplicationsClocksSetting, ThrottleReason::ApplicationClocks},
        {nvmlClocksThrottleReasonSwPowerCap, ThrottleReason::SwPowerCap},
        {nvmlClocksThrottleReasonHwSlowdown, ThrottleReason::HwSlowdown},
        {nvmlClocksThrottleReasonSyncBoost, ThrottleReason::SyncBoost},
        {nvmlClocksThrottleReasonSwThermalSlowdown, ThrottleReason::SwThermal},
        {nvmlClocksThrottleReasonHwThermalSlowdown, ThrottleReason::HwThermal},
        {nvmlClocksThrottleReasonHwPowerBrakeSlowdown, ThrottleReason::HwPowerBrake},
    };
    std::vector<ThrottleReason> active;
    for (const auto &[bit, reason] : kBits) {
        if (reasons & bit)
            active.push_back(reason);
    }
    return active;
}

}  // namespace

CardSample NvmlCollector::sampleCard(size_t i, std::vector<std::string> &problems)
{
    Api &api = *m_api;
    nvmlDevice_t device = api.devices[i];
    CardSample s;
    s.index = static_cast<uint32_t>(i);
    nvmlUtilization_t util{};
    // Under MIG the whole-GPU utilisation is NOT_SUPPORTED: absent, never 0.
    const nvmlReturn_t utilRc = api.nvmlDeviceGetUtilizationRates(device, &util);
    s.utilizationPercent = ifOk<double>(utilRc, util.gpu);
    if (utilRc == NVML_ERROR_GPU_IS_LOST)
        problems.push_back(fmt::format("GPU {}: {}", i, api.errorText(utilRc)));
    nvmlMemory_t memory{};
    if (api.nvmlDeviceGetMemoryInfo(device, &memory) == NVML_SUCCESS) {
        s.memoryUsedBytes = memory.used;
        s.memoryTotalBytes = memory.total;
    }
    // Each call is made before its value is read, in a statement of its own: in
    // ifOk(call(&value), value) the order is unspecified, and g++ read `value` first, so
    // every reading was the one before it (an H200 at 0 °C with its SM clock at its power
    // limit's 700000).
    unsigned int value = 0;
    nvmlReturn_t rc = api.nvmlDeviceGetTemperature(device, NVML_TEMPERATURE_GPU, &value);
    s.temperatureCelsius = ifOk<double>(rc, value);
    if (api.nvmlDeviceGetPowerUsage(device, &value) == NVML_SUCCESS)
        s.powerWatts = value / 1000.0;
    if (api.nvmlDeviceGetEnforcedPowerLimit(device, &value) == NVML_SUCCESS)
        s.powerLimitWatts = value / 1000.0;
    rc = api.nvmlDeviceGetClockInfo(device, NVML_CLOCK_SM, &value);
    s.smClockMhz = ifOk<uint32_t>(rc, value);
    rc = api.nvmlDeviceGetClockInfo(device, NVML_CLOCK_MEM, &value);
    s.memoryClockMhz = ifOk<uint32_t>(rc, value);
    unsigned long long count = 0;
    rc = api.nvmlDeviceGetTotalEccErrors(device, NVML_MEMORY_ERROR_TYPE_CORRECTED,
                                         NVML_VOLATILE_ECC, &count);
    s.eccCorrectedVolatile = ifOk<uint64_t>(rc, count);
    rc = api.nvmlDeviceGetTotalEccErrors(device, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                                         NVML_VOLATILE_ECC, &count);
    s.eccUncorrectedVolatile = ifOk<uint64_t>(rc, count);
    unsigned long long reasons = 0;
    if (api.nvmlDeviceGetCurrentClocksThrottleReasons(device, &reasons) == NVML_SUCCESS)
        s.throttleReasons = throttleReasons(reasons);
    return s;
}

void NvmlCollector::drainEvents(int64_t nowUnixMs, CollectedSample &out)
{
    Api &api = *m_api;
    nvmlEventData_t data{};
    // Drain what is queued without waiting; bounded so a flood cannot stall sampling.
    for (int drained = 0;
         drained < 64 && api.nvmlEventSetWait_v2(api.events, &data, 0) == NVML_SUCCESS; ++drained) {
        Event e;
        e.timeUnixMs = nowUnixMs;
        e.severity = Severity::Critical;
        for (size_t i = 0; i < api.devices.size(); ++i) {
            if (api.devices[i] == data.device)
                e.cardIndex = static_cast<uint32_t>(i);
        }
        if (data.eventType == nvmlEventTypeXidCriticalError) {
            e.kind = EventKind::Xid;
            e.xid = static_cast<uint32_t>(data.eventData);
            e.message = fmt::format("card {}: Xid {}", e.cardIndex.value_or(0), *e.xid);
            if (e.cardIndex && *e.cardIndex < out.cards.size())
                out.cards[*e.cardIndex].lastXid = e.xid;
        } else {
            e.kind = EventKind::EccUncorrected;
            e.message = fmt::format("card {}: double-bit ECC error", e.cardIndex.value_or(0));
        }
        out.events.push_back(std::move(e));
    }
}

Result<CollectedSample> NvmlCollector::sample(int64_t nowUnixMs)
{
    CollectedSample out;
    for (size_t i = 0; i < m_api->devices.size(); ++i)
        out.cards.push_back(sampleCard(i, out.problems));
    if (m_api->events)
        drainEvents(nowUnixMs, out);
    return out;
}

}  // namespace meridian

// A stand-in libnvidia-ml for tests: two A100s, the second in MIG mode (utilisation
// NOT_SUPPORTED, as the real driver answers), and one queued Xid 79 on GPU 0. With
// MERIDIAN_FAKE_NVML_CARDS=N (up to 16) there are N, the extra ones whole GPUs, for the
// benchmarks that run replicas on a full node.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "nvmlapi.h"

namespace {
struct FakeDevice {
    const char *uuid;
    bool mig;
};
FakeDevice g_devices[16] = {
    {"GPU-fake-0000", false}, {"GPU-fake-0001", true},  {"GPU-fake-0002", false},
    {"GPU-fake-0003", false}, {"GPU-fake-0004", false}, {"GPU-fake-0005", false},
    {"GPU-fake-0006", false}, {"GPU-fake-0007", false}, {"GPU-fake-0008", false},
    {"GPU-fake-0009", false}, {"GPU-fake-0010", false}, {"GPU-fake-0011", false},
    {"GPU-fake-0012", false}, {"GPU-fake-0013", false}, {"GPU-fake-0014", false},
    {"GPU-fake-0015", false}};

unsigned int deviceCount()
{
    const char *asked = std::getenv("MERIDIAN_FAKE_NVML_CARDS");
    const int n = asked ? std::atoi(asked) : 2;
    return n >= 1 && n <= 16 ? static_cast<unsigned int>(n) : 2;
}
bool g_xidPending = true;
int g_eventSet = 0;
}  // namespace

extern "C" {
nvmlReturn_t nvmlInit_v2(void)
{
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlShutdown(void)
{
    return NVML_SUCCESS;
}
const char *nvmlErrorString(nvmlReturn_t r)
{
    return r == NVML_ERROR_NOT_SUPPORTED ? "Not Supported" : "Unknown Error";
}
nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned int n)
{
    std::snprintf(v, n, "535.129.03");
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *c)
{
    *c = deviceCount();
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *d)
{
    if (i >= deviceCount())
        return NVML_ERROR_INVALID_ARGUMENT;
    *d = reinterpret_cast<nvmlDevice_t>(&g_devices[i]);
    return NVML_SUCCESS;
}
static FakeDevice &dev(nvmlDevice_t d)
{
    return *reinterpret_cast<FakeDevice *>(d);
}
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t, char *n, unsigned int l)
{
    std::snprintf(n, l, "NVIDIA A100-SXM4-80GB");
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *u, unsigned int l)
{
    std::snprintf(u, l, "%s", dev(d).uuid);
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t, char *, unsigned int)
{
    return NVML_ERROR_NOT_SUPPORTED;
}
nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *p)
{
    std::memset(p, 0, sizeof *p);
    std::snprintf(p->busId, sizeof p->busId, "00000000:%02X:00.0",
                  &dev(d) == &g_devices[0] ? 0x07 : 0x0F);
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t, nvmlMemory_t *m)
{
    m->total = 85899345920ULL;
    m->used = 1073741824ULL;
    m->free = m->total - m->used;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u)
{
    if (dev(d).mig)
        return NVML_ERROR_NOT_SUPPORTED;
    u->gpu = 73;
    u->memory = 40;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t, unsigned int, unsigned int *t)
{
    *t = 61;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t, unsigned int *mw)
{
    *mw = 312500;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t, unsigned int *mw)
{
    *mw = 400000;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t, unsigned int type, unsigned int *mhz)
{
    *mhz = type == NVML_CLOCK_SM ? 1410 : 1593;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, unsigned int errorType, unsigned int,
                                         unsigned long long *c)
{
    if (dev(d).mig)
        return NVML_ERROR_NOT_SUPPORTED;
    // Corrected errors happen on healthy cards; an uncorrected one would be an event.
    *c = errorType == NVML_MEMORY_ERROR_TYPE_CORRECTED ? 7 : 0;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t, unsigned long long *r)
{
    *r = nvmlClocksThrottleReasonHwThermalSlowdown;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *c, unsigned int *p)
{
    *c = *p = dev(d).mig ? 1 : 0;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *s)
{
    *s = reinterpret_cast<nvmlEventSet_t>(&g_eventSet);
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t, unsigned long long, nvmlEventSet_t)
{
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t, nvmlEventData_t *data, unsigned int)
{
    if (!g_xidPending)
        return NVML_ERROR_TIMEOUT;
    g_xidPending = false;
    std::memset(data, 0, sizeof *data);
    data->device = reinterpret_cast<nvmlDevice_t>(&g_devices[0]);
    data->eventType = nvmlEventTypeXidCriticalError;
    data->eventData = 79;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t)
{
    return NVML_SUCCESS;
}
}

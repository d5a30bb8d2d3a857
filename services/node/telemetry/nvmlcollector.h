// NVIDIA cards through NVML, loaded with dlopen at run time so the agent has no
// build-time NVIDIA dependency and runs (with a clear error) where there is no driver.
#pragma once

#include <memory>
#include <string>

#include "collector.h"

namespace meridian {

class NvmlCollector final : public Collector {
public:
    // libraryPath empty: the driver's libnvidia-ml.so.1 from the loader's search path.
    static Result<std::unique_ptr<NvmlCollector>> load(const std::string &libraryPath = {});
    ~NvmlCollector() override;

    std::string name() const override { return "nvml"; }
    Result<NodeHardware> discover() override;
    Result<CollectedSample> sample(int64_t nowUnixMs) override;

    struct Api;

private:
    explicit NvmlCollector(std::unique_ptr<Api> api);
    // One card's reading; a lost GPU adds a problem.
    CardSample sampleCard(size_t index, std::vector<std::string> &problems);
    // The Xid and ECC events NVML queued since the last sample.
    void drainEvents(int64_t nowUnixMs, CollectedSample &out);

    std::unique_ptr<Api> m_api;
};

}  // namespace meridian

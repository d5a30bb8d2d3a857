// What a node knows about its accelerator cards: identity (CardInfo), one reading
// (CardSample), and where a card sits (CardPlace). Every reading is optional: absent
// means the device did not report it, which is common (MIG, N/A, deprecated fields).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vendor.h"

namespace meridian {

enum class ThrottleReason {
    Idle,
    SwPowerCap,
    HwSlowdown,
    SwThermal,
    HwThermal,
    HwPowerBrake,
    ApplicationClocks,
    SyncBoost
};

struct CardInfo {
    uint32_t index = 0;
    Vendor vendor = Vendor::Unknown;
    std::string model;
    std::string uuid;
    std::string pciBusId;
    std::optional<uint64_t> memoryTotalBytes;
    std::optional<double> peakFp16Tflops;
    std::optional<bool> migEnabled;
    std::string driverVersion;
    std::string serial;
};

// Where a card sits, as prices and reports key on it: its model and vendor, its data
// center and node.
struct CardPlace {
    std::string model;
    Vendor vendor = Vendor::Unknown;
    std::string dataCenter;
    std::string nodeId;
};

struct CardSample {
    uint32_t index = 0;
    std::optional<double> utilizationPercent;
    std::optional<uint64_t> memoryUsedBytes;
    std::optional<uint64_t> memoryTotalBytes;
    std::optional<double> temperatureCelsius;
    std::optional<double> memoryTemperatureCelsius;
    std::optional<double> powerWatts;
    std::optional<double> powerLimitWatts;
    std::optional<uint32_t> smClockMhz;
    std::optional<uint32_t> memoryClockMhz;
    std::optional<uint64_t> eccCorrectedVolatile;
    std::optional<uint64_t> eccUncorrectedVolatile;
    // Absent: the collector cannot tell. Present and empty: not throttled.
    std::optional<std::vector<ThrottleReason>> throttleReasons;
    std::optional<std::string> health;
    std::optional<uint32_t> lastXid;

    bool thermallyThrottled() const;
};

// One card as a parser sees it: identity and a reading from the same output.
struct ParsedCard {
    CardInfo info;
    CardSample sample;
};

}  // namespace meridian

// Facts about the card models we rent that vendor tools do not print: vendor and
// peak dense FP16 throughput (datasheet figures), matched by model name.
#pragma once

#include <optional>
#include <string_view>

#include "vendor.h"

namespace meridian {

struct CardModelFacts {
    std::string_view model;  // canonical name, as the console shows it
    Vendor vendor;
    double peakFp16Tflops;
    double memoryGiB;
    double tdpWatts;
};

// Matches loosely: "NVIDIA A100-SXM4-80GB", "910B2" and "MLU370-X8" all resolve.
std::optional<CardModelFacts> lookupCardModel(std::string_view reportedName);

}  // namespace meridian

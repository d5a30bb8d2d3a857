// Facts about the card models we rent that vendor tools do not print: vendor and
// peak dense FP16 throughput (datasheet figures), matched by model name.
#pragma once

#include <optional>
#include <string>
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

// The one name a card model goes by everywhere (collectors, the console, services.yaml,
// the pool's offers, the price book), so that places compare equal: "NVIDIA
// A100-SXM4-80GB" and "A100-SXM4-80GB" are both "A100-SXM4-80GB", npu-smi's "910B2" is
// "Ascend 910B". A model the catalogue does not know keeps its own name, trimmed.
std::string canonicalCardModel(std::string_view reportedName);

// The catalogue's names, comma-separated, for a message that says what is known.
std::string knownCardModels();

}  // namespace meridian

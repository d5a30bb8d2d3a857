#include "cardcatalog.h"

#include <string>

#include "textutil.h"

namespace meridian {

namespace {

struct Entry {
    std::string_view needle;  // lower-case substring of what the tools print
    CardModelFacts facts;
};

// Ordered most specific first. Dense FP16 tensor figures from the vendors' datasheets.
constexpr Entry kCatalog[] = {
    {"h100", {"H100-SXM5-80GB", Vendor::Nvidia, 989.0, 80, 700}},
    {"h800", {"H800-SXM5-80GB", Vendor::Nvidia, 989.0, 80, 700}},
    {"a100-sxm4-40gb", {"A100-SXM4-40GB", Vendor::Nvidia, 312.0, 40, 400}},
    {"a100", {"A100-SXM4-80GB", Vendor::Nvidia, 312.0, 80, 400}},
    {"a800", {"A800-SXM4-80GB", Vendor::Nvidia, 312.0, 80, 400}},
    {"910b", {"Ascend 910B", Vendor::Huawei, 313.0, 64, 400}},
    {"mlu370", {"MLU370-X8", Vendor::Cambricon, 96.0, 48, 250}},
    {"k100", {"K100-AI", Vendor::Hygon, 196.0, 64, 350}},
    {"z100", {"Z100L", Vendor::Hygon, 45.0, 32, 300}},
};

}  // namespace

std::optional<CardModelFacts> lookupCardModel(std::string_view reportedName)
{
    const std::string lower = toLower(reportedName);
    for (const Entry &entry : kCatalog) {
        if (contains(lower, entry.needle))
            return entry.facts;
    }
    return std::nullopt;
}

}  // namespace meridian

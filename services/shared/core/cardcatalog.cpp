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
    {"h200", {"H200-SXM-141GB", Vendor::Nvidia, 989.0, 141, 700}},
    {"h100 pcie", {"H100-PCIe-80GB", Vendor::Nvidia, 756.0, 80, 350}},
    {"h100-pcie", {"H100-PCIe-80GB", Vendor::Nvidia, 756.0, 80, 350}},
    {"h100", {"H100-SXM5-80GB", Vendor::Nvidia, 989.0, 80, 700}},
    {"h800", {"H800-SXM5-80GB", Vendor::Nvidia, 989.0, 80, 700}},
    {"a100-sxm4-40gb", {"A100-SXM4-40GB", Vendor::Nvidia, 312.0, 40, 400}},
    {"a100-pcie-40gb", {"A100-PCIE-40GB", Vendor::Nvidia, 312.0, 40, 250}},
    {"a100 80gb pcie", {"A100-PCIE-80GB", Vendor::Nvidia, 312.0, 80, 300}},
    {"a100-pcie-80gb", {"A100-PCIE-80GB", Vendor::Nvidia, 312.0, 80, 300}},
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

std::string canonicalCardModel(std::string_view reportedName)
{
    if (const auto facts = lookupCardModel(reportedName))
        return std::string(facts->model);
    return std::string(trim(reportedName));
}

std::string knownCardModels()
{
    std::string names;
    for (const Entry &entry : kCatalog) {
        if (names.find(entry.facts.model) == std::string::npos)
            names += (names.empty() ? "" : ", ") + std::string(entry.facts.model);
    }
    return names;
}

}  // namespace meridian

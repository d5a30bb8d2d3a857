// The accelerator vendors we rent out, and how their names are spelled.
#pragma once

#include <string_view>

namespace meridian {

enum class Vendor { Unknown, Nvidia, Huawei, Cambricon, Hygon };

std::string_view vendorName(Vendor vendor);
Vendor vendorFromName(std::string_view name);

// Domestic (Chinese) accelerators are priced and reported separately.
inline bool isDomestic(Vendor vendor)
{
    return vendor == Vendor::Huawei || vendor == Vendor::Cambricon || vendor == Vendor::Hygon;
}

}  // namespace meridian

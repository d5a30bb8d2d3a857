#include "vendor.h"

#include "textutil.h"

namespace meridian {

std::string_view vendorName(Vendor vendor)
{
    switch (vendor) {
    case Vendor::Nvidia: return "nvidia";
    case Vendor::Huawei: return "huawei";
    case Vendor::Cambricon: return "cambricon";
    case Vendor::Hygon: return "hygon";
    case Vendor::Unknown: break;
    }
    return "unknown";
}

Vendor vendorFromName(std::string_view name)
{
    for (Vendor v : {Vendor::Nvidia, Vendor::Huawei, Vendor::Cambricon, Vendor::Hygon}) {
        if (equalsIgnoreCase(name, vendorName(v)))
            return v;
    }
    return Vendor::Unknown;
}

}  // namespace meridian

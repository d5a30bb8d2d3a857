#include "scalingcontrol.h"

namespace meridian {

std::optional<ApprovalMode> approvalModeFromName(std::string_view name)
{
    for (ApprovalMode mode :
         {ApprovalMode::Manual, ApprovalMode::Assisted, ApprovalMode::Automatic})
        if (approvalModeName(mode) == name)
            return mode;
    return std::nullopt;
}

std::string_view approvalModeName(ApprovalMode mode)
{
    switch (mode) {
    case ApprovalMode::Manual: return "manual";
    case ApprovalMode::Assisted: return "assisted";
    case ApprovalMode::Automatic: return "automatic";
    }
    return "assisted";
}

}  // namespace meridian

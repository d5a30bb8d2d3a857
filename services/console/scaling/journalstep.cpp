#include "journalstep.h"

#include <utility>

namespace meridian {

namespace {

constexpr std::pair<StepState, std::string_view> kStateNames[] = {
    {StepState::Planned, "planned"},       {StepState::Approved, "approved"},
    {StepState::Leasing, "leasing"},       {StepState::Provisioned, "provisioned"},
    {StepState::Starting, "starting"},     {StepState::Serving, "serving"},
    {StepState::Releasing, "releasing"},   {StepState::Done, "done"},
    {StepState::Failed, "failed"},         {StepState::Rejected, "rejected"},
    {StepState::Superseded, "superseded"},
};

}  // namespace

std::optional<StepState> stepStateFromName(std::string_view name)
{
    for (const auto &[state, stateName] : kStateNames) {
        if (stateName == name)
            return state;
    }
    return std::nullopt;
}

std::string_view stepStateName(StepState state)
{
    for (const auto &[candidate, name] : kStateNames) {
        if (candidate == state)
            return name;
    }
    return "failed";
}

}  // namespace meridian

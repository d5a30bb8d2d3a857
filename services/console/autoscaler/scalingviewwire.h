// The scaling view on the wire (scaling_control.proto) and back: the one place that
// knows both shapes, for meridian-scaled's service and the console's client.
#pragma once

#include "scalingcontrol.h"

namespace meridian {
namespace v1 {
class ScalingViewReply;
}

void toWire(const ScalingView &view, const std::string &controllerId, v1::ScalingViewReply &out);
// Fields a newer controller added are ignored; unknown words (a state, a reason) are
// named in the view's problem rather than guessed.
ScalingView fromWire(const v1::ScalingViewReply &reply);

int approvalModeToWire(ApprovalMode mode);
std::optional<ApprovalMode> approvalModeFromWire(int mode);

}  // namespace meridian

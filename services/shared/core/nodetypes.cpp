#include "nodetypes.h"

namespace meridian {

const char *eventKindName(EventKind kind)
{
    switch (kind) {
    case EventKind::Xid: return "xid";
    case EventKind::EccCorrected: return "ecc-corrected";
    case EventKind::EccUncorrected: return "ecc-uncorrected";
    case EventKind::ThermalThrottle: return "thermal-throttle";
    case EventKind::ThermalThrottleCleared: return "thermal-throttle-cleared";
    case EventKind::LinkDown: return "link-down";
    case EventKind::LinkUp: return "link-up";
    case EventKind::LinkFlap: return "link-flap";
    case EventKind::PfcStorm: return "pfc-storm";
    case EventKind::AgentRestart: return "agent-restart";
    case EventKind::CollectorError: return "collector-error";
    case EventKind::Workload: return "workload";
    case EventKind::Gap: return "gap";
    case EventKind::Unknown: break;
    }
    return "unknown";
}

}  // namespace meridian

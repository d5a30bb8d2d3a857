// The agent contract's messages to and from plain value types (core/nodetypes.h), for
// both ends of it: the agent's service, the console's fleet link, the simulator and the
// pool. Nothing that only uses the values sees a *.pb.h.
#pragma once

#include "core/nodetypes.h"
#include "meridian/v1/fleet.pb.h"

namespace meridian {

void toProto(const NodeInventory &in, v1::NodeInventory *out);
void toProto(const TelemetrySample &in, v1::TelemetryBatch *out);
void toProto(const NicInfo &in, v1::Nic *out);
void toProto(const NicSample &in, v1::NicTelemetry *out);
void toProto(const Event &in, v1::Event *out);
void toProto(const UsageMinute &in, v1::UsageMinute *out);
void toProto(const Workload &in, v1::Workload *out);
v1::Vendor vendorToProto(Vendor vendor);

NodeInventory fromProto(const v1::NodeInventory &in);
NicInfo fromProto(const v1::Nic &in);
Event fromProto(const v1::Event &in);
UsageMinute fromProto(const v1::UsageMinute &in);
CardSample fromProto(const v1::CardTelemetry &in);
ReplicaSignals fromProto(const v1::ReplicaTelemetry &in);
NicSample fromProto(const v1::NicTelemetry &in);
TelemetrySample fromProto(const v1::TelemetryBatch &in);

}  // namespace meridian

// The console's side of a headless controller (meridian-scaled): the view is fetched
// about once a second on a thread of its own, so the window never waits on the network;
// operators' commands are single calls with a short deadline, refused at once, without
// a call, while the controller does not answer. The view then says since when and why.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/clock.h"
#include "core/periodicthread.h"
#include "scalingcontrol.h"
#include "wire/security.h"

namespace grpc {
class ClientContext;
class Status;
}  // namespace grpc

namespace meridian {

struct RemoteScalingOptions {
    int64_t pollIntervalMs = 1000;
    int64_t callTimeoutMs = 3000;
};

class RemoteScalingControl final : public ScalingControl {
public:
    RemoteScalingControl(std::string address, ClientSecurity security, const Clock &clock,
                         RemoteScalingOptions options = {});
    ~RemoteScalingControl() override;

    // Polls on a thread of its own until stop() (or destruction).
    void start();
    void stop();
    // One fetch of the view; what start() runs every interval.
    Status poll();

    const std::string &address() const { return m_address; }
    // The id the controller's leases carry ("meridian-scaled@xiamen"), once heard.
    std::string controllerId() const;

    ScalingView view() const override;
    Status setMode(ApprovalMode mode, const std::string &who) override;
    Status requestPlan(const std::string &service, const std::string &who) override;
    Status approvePlan(const std::string &service, const std::string &who,
                       std::optional<int64_t> shownVersion) override;
    Status rejectPlan(const std::string &service, const std::string &who,
                      const std::string &why) override;
    Status approveRelease(const std::string &service, const std::string &who) override;

private:
    struct Stub;  // the generated gRPC client, kept out of this header
    // Makes `call` with a deadline if the controller answered the last poll, then fetches
    // the view again so what the command changed shows at once.
    Status send(const char *what,
                const std::function<grpc::Status(Stub &, grpc::ClientContext &)> &call);

    std::string m_address;
    const Clock &m_clock;
    RemoteScalingOptions m_options;
    std::unique_ptr<Stub> m_stub;

    mutable std::mutex m_mutex;
    ScalingView m_view;
    std::string m_controllerId;
    std::string m_unreachable;  // why the last poll failed; empty once it answers
    int64_t m_unreachableSinceMs = 0;

    PeriodicThread m_polls;
};

}  // namespace meridian

// What a running console already holds for its agents: the channel it has open to each
// and the inventory each sent there. A sync in the console talks to an agent over that
// connection instead of opening a second channel and asking again; `meridian sync` has
// none.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/nodetypes.h"

namespace grpc {
class Channel;
}

namespace meridian {

class AgentLinks {
public:
    // The open channel to `address`, or null when there is none.
    virtual std::shared_ptr<grpc::Channel> channelTo(const std::string &address) const = 0;
    // The inventory `address` sent on its live connection; nullopt while there is none.
    virtual std::optional<NodeInventory> inventoryOf(const std::string &address) const = 0;

protected:
    ~AgentLinks() = default;
};

}  // namespace meridian

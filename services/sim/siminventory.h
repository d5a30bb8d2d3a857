// The inventory file a console reads the simulated fleet from (fleetlink/inventoryfile.h):
// every node an agent on loopback, by data center, and the cloud pool's address. Replaced
// whole, so a reader never sees half of it.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "simfleetcontrol.h"

namespace meridian {

Status writeSimInventory(const std::string &path, const std::string &capacityPool,
                         const std::vector<SimNodeView> &nodes);

}  // namespace meridian

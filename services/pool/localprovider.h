// The `local` provider: spare nodes of our own, listed in a file, leased whole and
// brought up by a command of the operator's (ipmitool … power on, a wake-on-LAN, a
// systemctl start on the node). Run by the pool as
//   meridian-pool local-provider --nodes FILE --state FILE lease|release|list
// with the request on stdin (docs/pool.md). The nodes file:
//   ready_timeout_seconds: 600   # after power on, until the node's agent answers
//   nodes:
//     - node_id: xm-r09-n1
//       agent_address: 10.8.9.1:50051
//       power_on: [ipmitool, -I, lanplus, -H, 10.9.9.1, -U, ops, -f, /etc/meridian/ipmi, power, on]
//       power_off: [ipmitool, -I, lanplus, -H, 10.9.9.1, -U, ops, -f, /etc/meridian/ipmi, power,
//       off]
//       prepare: [ssh, xm-r09-n1, huggingface-cli, download, Qwen/Qwen2-72B-Instruct]
// `prepare` (optional) runs on a node leased as warm standby once its agent answers: it
// puts the services' weights on the node's disk, so a replica started there loads them.
// Which node holds which lease is kept in the state file (JSON, under a lock, replaced
// whole and durably), written before a node is powered on: asked again for the same lease
// after a crash, it answers with the same nodes and never takes two. A damaged or missing
// state file is refused, never read as "no leases".
#pragma once

#include <iosfwd>
#include <string>

namespace meridian {

// The exit status: 0 done, 2 bad request or files, 3 not enough free nodes, 4 a node
// did not come up.
int runLocalProvider(const std::string &nodesFile, const std::string &stateFile,
                     const std::string &verb, std::istream &in, std::ostream &out,
                     std::ostream &err);

}  // namespace meridian

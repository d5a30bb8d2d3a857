// The agent's two commands: serve (the daemon) and collect (print what it sees once).
#pragma once

#include <string>
#include <vector>

#include "agent/agentconfig.h"

namespace meridian {

int serveAgent(const AgentConfig &config);
int collectOnce(const AgentConfig &config, const std::vector<std::string> &fromFiles);

}  // namespace meridian

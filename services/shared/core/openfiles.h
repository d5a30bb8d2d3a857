// Open files are what a process runs out of first when it talks to a fleet: every agent
// is a socket. The usual soft limit (1024) is far below the usual hard one, so programs
// lift it at start, and the console says plainly when a fleet still does not fit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/result.h"

namespace meridian {

// Raises this process's soft limit on open files to its hard limit; returns the soft
// limit now in force.
uint64_t raiseOpenFileLimit();

// Whether a console may connect to `agents` agents within `openFileLimit` files. An
// embedded simulated fleet also holds each node's listening and accepted sockets.
Status checkRoomForAgents(size_t agents, uint64_t openFileLimit, bool embeddedFleet);

}  // namespace meridian

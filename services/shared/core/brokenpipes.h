// A peer that goes away must cost its connection, never the process. Writing to a
// socket whose peer is gone raises SIGPIPE, and SIGPIPE's default is to terminate.
// Plain sockets here are written with MSG_NOSIGNAL, but OpenSSL writes with write(2),
// which takes no such flag: the TLS relay in front of every gRPC server, and
// cpp-httplib's TLS server and client, would let a client that resets its connection
// mid-handshake kill an agent, a pool or a controller. So every Meridian program ignores
// SIGPIPE from its first line, and a broken connection is an EPIPE its code handles.
#pragma once

#include <spawn.h>

namespace meridian {

// Ignores SIGPIPE in this process. Programs it starts get the default back (runTool and
// the replica launcher restore it), so a tool or a replica behaves as under a shell.
void ignoreBrokenPipes();

// Has the program that posix_spawn starts with `attributes` take SIGPIPE's default, as
// under a shell, however this process treats it: an ignored signal survives exec.
void restoreBrokenPipesOnSpawn(posix_spawnattr_t &attributes);

}  // namespace meridian

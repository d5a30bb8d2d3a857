// SIGINT and SIGTERM as a request to stop cleanly: Ctrl-C in the terminal that started
// it, the desktop session's logout, systemd's stop. The process then leaves through its
// destructors (routes cut, the history file closed, diagnostics written), not from
// inside a signal handler.
#pragma once

#include <functional>

class QObject;

namespace meridian {

// Runs `stop` on `owner`'s event loop, once, after the first SIGINT or SIGTERM. The
// handler only sets a flag (all a signal handler may safely do); a timer owned by
// `owner` looks at it ten times a second.
void stopOnSignals(QObject *owner, std::function<void()> stop);

}  // namespace meridian

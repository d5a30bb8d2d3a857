// Crash drills for meridian-scaled: MERIDIAN_SCALED_KILL_AFTER=STATE[+MS] makes the
// process kill itself with SIGKILL (as kill -9 would) MS milliseconds after the first
// journal step is written in or moved to STATE (leasing, provisioned, starting, serving, ...). The
// tests use it to stop the real controller at each step of a scale-up; operators can use it to
// rehearse recovery on a staging pool. Unset, nothing is installed.
#pragma once

#include "core/result.h"

namespace meridian {

class ScalingJournal;

// Reads the variable; an unknown state or delay is an error naming it.
Status armCrashDrill(ScalingJournal &journal);

}  // namespace meridian

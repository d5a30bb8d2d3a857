// Leaving a process at once: no static destructors, no waiting for threads still at work
// (a provider minutes into a lease, whose books already say what is owed).
#pragma once

namespace meridian {

// std::_Exit(code); a coverage build first writes what the process's code was seen to run,
// which _Exit alone would lose.
[[noreturn]] void exitNow(int code);

}  // namespace meridian

// meridian-watch's command line: the watcher itself, or one of the commands a person (or a
// script) uses against a running one: status, list, ack, note, silence, lift.
#pragma once

#include <optional>
#include <string>

#include "triagecommands.h"
#include "watchcommand.h"

namespace meridian {

struct WatchCommandLine {
    enum class Command { Watch, Status, List, Acknowledge, Note, Silence, Lift };
    Command command = Command::Watch;
    WatchArguments watch;
    TriageCommand triage;  // every command but Watch: which watcher, and what to ask
};

// The command line read; an exit status instead where the program should end at once
// (--help: 0; a mistake: 2, which the unit does not restart for).
std::optional<int> readWatchCommandLine(int argc, char **argv, WatchCommandLine &line);

}  // namespace meridian

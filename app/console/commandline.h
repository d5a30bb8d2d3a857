// meridian's command line: the console window with its options, or one of the commands
// that run without a window (sync, report, plan).
#pragma once

#include <optional>
#include <string>

#include "headlesscommands.h"
#include "plancommand.h"

namespace meridian {

struct WindowArguments {
    std::string inventory;
    std::string diagnostics;
    int nodes = 750;
    double quitAfterSeconds = 0;
    std::string history;
    std::string services;
    std::string scalingPolicy;
    std::string prometheus;
    int scrapeIntervalS = 15;
    std::string fabric;
    std::string alertRoutes;
    bool openFabric = false;
    bool openScaling = false;
};

struct SyncArguments {
    std::string inventory;
    std::string db;
    std::string prices;
};

struct ConsoleCommandLine {
    enum class Command { Window, Sync, Report, Plan };
    Command command = Command::Window;
    WindowArguments window;
    SyncArguments sync;
    ReportOptions report;
    PlanArguments plan;
};

// The command line read; an exit status instead where the program should end at once
// (--help, a mistake). Qt's own options (-platform, -style) are left for Qt.
std::optional<int> readCommandLine(int argc, char **argv, ConsoleCommandLine &line);

}  // namespace meridian

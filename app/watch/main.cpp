// meridian-watch: Meridian's alerting headless, for systemd on an operations host, so the
// on-call is paged whether or not a console is open. It links the alert center and the
// fleet link, never a window, the simulator, the agent or the pool; its subcommands are
// how a person on call reads and answers its alerts without a console.
#include "commandline.h"
#include "core/brokenpipes.h"

int main(int argc, char **argv)
{
    using namespace meridian;
    ignoreBrokenPipes();  // a client gone mid-TLS costs a connection, not us
    WatchCommandLine line;
    if (const auto status = readWatchCommandLine(argc, argv, line))
        return *status;
    switch (line.command) {
    case WatchCommandLine::Command::Watch: return runWatch(line.watch, argc, argv);
    case WatchCommandLine::Command::Status: return runWatchStatus(line.triage);
    case WatchCommandLine::Command::List: return runWatchList(line.triage);
    case WatchCommandLine::Command::Acknowledge: return runAcknowledge(line.triage);
    case WatchCommandLine::Command::Note: return runNote(line.triage);
    case WatchCommandLine::Command::Silence: return runSilence(line.triage);
    case WatchCommandLine::Command::Lift: return runLift(line.triage);
    }
    return 2;
}

// meridian-sim: a whole simulated fleet on this machine, or a word to a running one.
//   meridian-sim [--nodes N | --cards N] [--inventory-out FILE] [--quit-after S]
//   meridian-sim fault --control ADDR --node ID --kind KIND [--card N] [--duration S]
//   meridian-sim load --control ADDR --service NAME (--rps R | --daily)
//   meridian-sim evaluate --trace FILE [--hours H] [--policy FILE]
//   meridian-sim tune --trace FILE [--hours H] [--policy BASE] [--out FILE]
//   meridian-sim robustness --trace FILE [--trace FILE] [--seeds N] [--variant FILE]
//   meridian-sim serve-replica --port P [--model M] [--cold-start-seconds S]
//   meridian-sim drive --url http://HOST:PORT --rps R --seconds S
#include "commandline.h"
#include "core/brokenpipes.h"

int main(int argc, char **argv)
{
    meridian::ignoreBrokenPipes();  // a client gone mid-TLS costs a connection, not us
    using namespace meridian;
    SimCommandLine line;
    if (const auto status = readCommandLine(argc, argv, line))
        return *status;
    switch (line.command) {
    case SimCommandLine::Command::Fleet: return runFleet(line.fleet);
    case SimCommandLine::Command::Fault: return sendFault(line.fault);
    case SimCommandLine::Command::Load: return sendLoad(line.load);
    case SimCommandLine::Command::Evaluate: return runEvaluate(line.evaluate);
    case SimCommandLine::Command::Tune: return runTune(line.tune);
    case SimCommandLine::Command::Robustness: return runRobustness(line.robustness);
    case SimCommandLine::Command::ServeReplica: return serveReplica(line.replica);
    case SimCommandLine::Command::Drive: return drive(line.drive);
    }
    return 1;
}

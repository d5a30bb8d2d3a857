// The console's commands without a window, for cron and mail: `meridian sync` fills the
// history from every agent; `meridian report` writes utilisation and cost for a period
// as CSV, JSON or PDF, or with --response how fast alerts were answered. Errors go to stderr, with
// the exit status saying how it went.
#pragma once

#include <string>

namespace meridian {

int runSync(const std::string &inventoryFile, const std::string &dbFile,
            const std::string &pricesFile);

struct ReportOptions {
    std::string from;
    std::string to;
    std::string groupBy = "dc";
    std::string format = "csv";
    std::string table = "groups";  // csv: groups, or cloud (the leases and their spend)
    std::string output;            // empty: standard output (not for pdf)
    std::string dbFile;
    std::string pricesFile;
    // The fault-response clock instead of utilisation and cost: --group-by week, dc, kind
    // or person; acknowledged in time within this many minutes (the escalation time).
    bool response = false;
    double acknowledgeWithinMinutes = 15;
};
int runReport(const ReportOptions &options, int argc, char **argv);

}  // namespace meridian

// What a person on call types against a running watcher, console open or not:
// `meridian-watch status`, `list` (the alerts with short ids, the silences with theirs),
// `ack`, `note`, `silence` and `lift`. Each is one call to the watcher's HTTP API (GET
// /status or /alerts, POST /triage, docs/alerting.md) with the caller's token; what the
// watcher refuses is printed as it said it, and the exit status is 1.
#pragma once

#include <cstdint>
#include <string>

namespace meridian {

struct TriageCommand {
    std::string url = "http://127.0.0.1:9465";
    std::string tokenFile;  // a bearer token, read from a file so it is not in `ps`
    std::string caFile;
    std::string alert;  // a key, or a short id (list)
    std::string note;
    std::string node;
    std::string dataCenter;
    std::string kind;  // a kind there only, by the console's name or Alertmanager's
    std::string reason;
    double hours = 1;
    int64_t silenceId = 0;
};

int runWatchStatus(const TriageCommand &command);
int runWatchList(const TriageCommand &command);
int runAcknowledge(const TriageCommand &command);
int runNote(const TriageCommand &command);
int runSilence(const TriageCommand &command);
int runLift(const TriageCommand &command);

}  // namespace meridian

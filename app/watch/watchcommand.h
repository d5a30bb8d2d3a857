// meridian-watch: the console's alert rules, routes and triage log without a window, for
// systemd to keep running on an operations host, so that the on-call is paged whether or
// not anyone has a console open. `meridian-watch status` asks a running one what it is
// doing; triagecommands.h acts on its alerts.
#pragma once

#include <string>

namespace meridian {

struct WatchArguments {
    std::string inventory;
    std::string prometheus;
    int scrapeIntervalS = 15;
    std::string history;      // the triage log and what was delivered; default: the user's
    std::string alertRoutes;  // where alerts go; required
    std::string listen = "127.0.0.1:9465";  // /metrics, /status, /alerts, /triage; empty: none
    std::string security;  // tls: and tokens: for the listener (beyond loopback: needed)
    std::string name;      // in the triage log; default watcher@HOST
    double quitAfterSeconds = 0;
    // After its own loop ran late or its streams went unread, how long agents' staleness
    // stays unjudged (SelfLagLimits::heldAfterMs): time for every agent's next batch.
    double stallHoldSeconds = 10;
    // How often the rules run over the fleet: a pending duration's end or a resolution is
    // seen at the next pass, and the watcher's own lateness is measured against it.
    double evaluateEverySeconds = 1;
    // How often each agent sends its node's readings. A judge needs no chart's 1 Hz: the
    // kinds it pages on hold for 10 to 30 s before they alert, events (Xid, ECC) arrive on
    // their own stream at once, and an agent counts as silent after three intervals.
    double telemetryEverySeconds = 5;
    // meridian-scaled, read for the services' alerts and its own silence: its URL (its
    // metrics_listen), and the token and CA its /metrics needs, if any.
    std::string scaledUrl;
    std::string scaledTokenFile;
    std::string scaledCaFile;
};

int runWatch(const WatchArguments &arguments, int argc, char **argv);

}  // namespace meridian

// What a running watcher says of itself: the figures its /metrics exposes and the /status
// answer `meridian-watch status` prints. Made on the watcher's loop once a second and
// read by the endpoint's threads, so they are plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "alerts/alertdispatcher.h"
#include "core/result.h"

namespace meridian {

struct WatchedAlert {
    std::string key;
    std::string title;
    std::string subject;
    std::string dataCenter;
    bool critical = false;
    int64_t sinceMs = 0;
    std::string acknowledgedBy;
    bool silenced = false;
};

struct WatchFigures {
    std::string name;
    int64_t startedMs = 0;
    int64_t lastEvaluationMs = 0;
    uint64_t evaluations = 0;
    int agents = 0;
    int connected = 0;
    int unreachable = 0;
    int firing = 0;
    int pending = 0;
    bool behind = false;  // agents' staleness held: this watcher is itself behind
    int64_t loopLateMs = 0;
    int64_t receiveGapMs = 0;
    uint64_t holds = 0;
    std::vector<RouteStatus> routes;
    std::vector<WatchedAlert> alerts;  // firing, newest first (the newest 200)
    std::string problem;               // the triage file's or a store's, in words
};

// Prometheus' text exposition, meridian_watch_* series.
std::string watchExposition(const WatchFigures &figures);
// The /status answer.
std::string watchStatusJson(const WatchFigures &figures);
// That answer in words for a person at a shell; an error naming what is wrong with it.
Result<std::string> watchStatusText(const std::string &json, int64_t nowMs);

}  // namespace meridian

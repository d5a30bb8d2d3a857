#include "evaluatecommand.h"

#include <fmt/format.h>

#include <fstream>

#include "scaling/evaluation.h"
#include "scaling/evaluationreport.h"
#include "scaling/schedulefile.h"
#include "scaling/tracefile.h"

namespace meridian {

int runEvaluate(const EvaluateCommand &command)
{
    auto trace = TraceFileSource::open(command.trace, command.hours * 3600, command.seed);
    if (!trace) {
        fmt::print(stderr, "meridian-sim evaluate: {}\n", trace.error().message);
        return 2;
    }
    if (!(command.peakCards >= 4) || command.peakCards > 100'000) {
        fmt::print(stderr, "meridian-sim evaluate: --peak-cards must be 4..100000\n");
        return 2;
    }
    EvaluationOptions options;
    options.peakCards = command.peakCards;
    options.localCards = command.localCards;
    options.seed = command.seed;
    if (!command.policy.empty()) {
        auto policy = loadScalingPolicy(command.policy);
        if (!policy) {
            fmt::print(stderr, "meridian-sim evaluate: {}\n", policy.error().message);
            return 2;
        }
        options.policy = policy.value();
    }
    if (!command.schedule.empty()) {
        auto schedule = loadReplicaSchedule(command.schedule);
        if (!schedule) {
            fmt::print(stderr, "meridian-sim evaluate: {}\n", schedule.error().message);
            return 2;
        }
        options.schedule = std::move(schedule->replicas);
        options.scheduleName = schedule->name;
    }
    const auto run = evaluateScaling(**trace, (*trace)->name(), options);
    if (!run) {
        fmt::print(stderr, "meridian-sim evaluate: {}\n", run.error().message);
        return 2;
    }
    fmt::print("{}", evaluationTable(*run));
    const std::pair<const std::string &, std::string (*)(const EvaluationRun &)> outputs[] = {
        {command.json, evaluationJson}, {command.minutes, evaluationMinutesCsv}};
    for (const auto &[path, write] : outputs) {
        if (path.empty())
            continue;
        std::ofstream out(path);
        out << write(*run);
        if (!out) {
            fmt::print(stderr, "meridian-sim evaluate: {}: cannot write\n", path);
            return 1;
        }
    }
    return 0;
}

}  // namespace meridian

#include "evaluatecommand.h"

#include <fmt/format.h>

#include <fstream>

#include "replay/evaluation.h"
#include "replay/evaluationreport.h"
#include "replay/schedulefile.h"
#include "replay/seedmedian.h"
#include "replay/shapefamily.h"
#include "replay/tracefile.h"

namespace meridian {

Result<EvaluationOptions> evaluationOptionsOf(const EvaluateCommand &command)
{
    // Written so that NaN, which passes the command line's range checks, fails here.
    if (!(command.peakCards >= 4 && command.peakCards <= 100'000))
        return Error{"--peak-cards must be 4..100000"};
    if (command.localCards != -1 && !(command.localCards >= 0 && command.localCards <= 100'000))
        return Error{"--local-cards must be 0..100000 (unset: half the peak)"};
    if (!(command.hours >= 0 && command.hours <= 100'000))
        return Error{"--hours must be 0..100000 (0: the whole trace)"};
    if (command.toldAheadS && !(*command.toldAheadS >= 0 && *command.toldAheadS <= 7200))
        return Error{"--told-ahead must be 0..7200 seconds"};
    EvaluationOptions options;
    options.peakCards = command.peakCards;
    options.localCards = command.localCards;
    options.standbyNodes = command.standbyNodes;
    options.toldAheadS = command.toldAheadS;
    if (!command.policy.empty()) {
        auto policy = loadScalingPolicy(command.policy);
        if (!policy)
            return policy.error();
        options.policy = policy.value();
    }
    if (!command.schedule.empty()) {
        auto schedule = loadReplicaSchedule(command.schedule);
        if (!schedule)
            return schedule.error();
        options.schedule = std::move(schedule->replicas);
        options.scheduleName = schedule->name;
    }
    return options;
}

Result<EvaluationRun> medianOfSeeds(const EvaluateCommand &command, EvaluationOptions options,
                                    const ReplayOfTrace &replay)
{
    std::optional<ShapeCase> shape;
    if (!command.shape.empty()) {
        auto parsed = parseShape(command.shape, command.hours > 0 ? command.hours * 3600 : 3600);
        if (!parsed)
            return Error{"--shape: " + parsed.error().message};
        shape = parsed.value();
    }
    // Read once; every seed (and every candidate in it) replays what was read.
    auto lines = TraceLines::read(command.trace);
    if (!lines)
        return lines.error();
    std::vector<EvaluationRun> runs;
    for (int i = 0; i < command.seeds; ++i) {
        options.seed = command.seed + static_cast<uint64_t>(i);
        auto trace = TraceFileSource::open(lines.value(), command.hours * 3600, options.seed);
        if (!trace)
            return trace.error();
        std::optional<ScaledSource> shaped;
        if (shape)
            shaped.emplace(**trace, shape->shape, options.seed);
        const std::string name =
            shape ? fmt::format("{} ({})", (*trace)->name(), shape->description) : (*trace)->name();
        auto run = shaped ? replay(*shaped, name, options) : replay(**trace, name, options);
        if (!run)
            return run.error();
        runs.push_back(std::move(run.value()));
    }
    return medianOverSeeds(runs);
}

int runEvaluate(const EvaluateCommand &command)
{
    auto options = evaluationOptionsOf(command);
    const auto run = options ? medianOfSeeds(command, options.value(),
                                             [](RequestSource &trace, const std::string &name,
                                                const EvaluationOptions &o) {
                                                 return evaluateScaling(trace, name, o);
                                             })
                             : Result<EvaluationRun>(options.error());
    if (!run) {
        fmt::print(stderr, "meridian-sim evaluate: {}\n", run.error().message);
        return 2;
    }
    fmt::print("{}", evaluationTable(*run));
    const std::pair<const std::string &, std::string (*)(const EvaluationRun &)> outputs[] = {
        {command.json, evaluationJson},
        {command.minutes, evaluationMinutesCsv},
        {command.timeline, evaluationTimelineCsv}};
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

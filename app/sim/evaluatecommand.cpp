#include "evaluatecommand.h"

#include <fmt/format.h>

#include <fstream>

#include "scaling/evaluation.h"
#include "scaling/requesttrace.h"

namespace meridian {

int runEvaluate(const EvaluateCommand &command)
{
    auto trace = loadRequestTrace(command.trace, command.hours * 3600, command.seed);
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
    const EvaluationRun run = evaluateScaling(trace.value(), options);
    fmt::print("{}", evaluationTable(run));
    if (!command.json.empty()) {
        std::ofstream out(command.json);
        out << evaluationJson(run);
        if (!out) {
            fmt::print(stderr, "meridian-sim evaluate: {}: cannot write\n", command.json);
            return 1;
        }
    }
    return 0;
}

}  // namespace meridian

#include "robustnesscommand.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "replay/robustness.h"

namespace meridian {

namespace {

int refused(const std::string &why)
{
    fmt::print(stderr, "meridian-sim robustness: {}\n", why);
    return 2;
}

// The family to run, as the command line asks: its shapes, seeds and size, the policy
// file and the variants to run beside it.
Result<RobustnessOptions> robustnessOptions(const RobustnessCommand &command)
{
    RobustnessOptions options;
    options.traces = command.traces;
    options.seeds = command.seeds;
    options.firstSeed = command.seed;
    options.baseCards = command.baseCards;
    options.hours = command.hours;
    options.jobs = command.jobs;
    options.evaluation.localCards = command.localCards;
    if (!command.kinds.empty()) {
        options.kinds.clear();
        for (const std::string &name : command.kinds) {
            const auto kind = shapeKindNamed(name);
            if (!kind)
                return Error{fmt::format(
                    "--kinds: no shape {} (step, ramp, burst, double-burst, flash-crowd, quiet)",
                    name)};
            options.kinds.push_back(*kind);
        }
    }
    if (!command.policy.empty()) {
        auto policy = loadScalingPolicy(command.policy);
        if (!policy)
            return policy.error();
        options.evaluation.policy = policy.value();
    }
    for (const std::string &file : command.variants) {
        auto policy = loadScalingPolicy(file);
        if (!policy)
            return policy.error();
        options.variants.push_back(
            {fmt::format("meridian {}", std::filesystem::path(file).stem().string()),
             policy.value()});
    }
    return options;
}

}  // namespace

int runRobustness(const RobustnessCommand &command)
{
    // Written so that NaN, which passes the command line's range checks, fails here.
    if (!(command.baseCards >= 1 && command.baseCards <= 100'000))
        return refused("--base-cards must be 1..100000");
    if (!(command.localCards >= 0 && command.localCards <= 100'000))
        return refused("--local-cards must be 0..100000");
    if (!(command.hours > 0 && command.hours <= 24))
        return refused("--hours must be more than 0 and at most 24");
    auto read = robustnessOptions(command);
    if (!read)
        return refused(read.error().message);
    const RobustnessOptions &options = read.value();
    if (!command.csv.empty() && !std::ofstream(command.csv, std::ios::app))
        return refused(command.csv + ": cannot write (--csv)");
    size_t finished = 0;
    const size_t total = options.kinds.size() * static_cast<size_t>(options.seeds);
    auto cases = runShapeFamily(options, [&](const RobustnessCase &c) {
        const EvaluationResult *m = c.rows.empty() ? nullptr : &c.rows.front();
        fmt::print(stderr, "[{}/{}] {} {}: meridian {:.2f}%, {:.0f} card-h\n", ++finished, total,
                   c.trace, c.shape.description, m ? 100 * m->withinSloShare : 0.0,
                   m ? m->rentedCardHours : 0.0);
    });
    if (!cases)
        return refused(cases.error().message);
    fmt::print("{}", robustnessReport(cases.value()));
    if (!command.csv.empty()) {
        std::ofstream out(command.csv, std::ios::trunc);
        out << robustnessCsv(cases.value());
        if (!out) {
            fmt::print(stderr, "meridian-sim robustness: {}: cannot write\n", command.csv);
            return 1;
        }
    }
    return 0;
}

}  // namespace meridian

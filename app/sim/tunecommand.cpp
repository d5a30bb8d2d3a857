#include "tunecommand.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <thread>

#include "core/percentile.h"
#include "replay/evaluation.h"
#include "replay/policysearch.h"
#include "replay/robustness.h"

namespace meridian {

namespace {

// The candidates' figures, in the order of `policies`; actions per day of the trace (a
// trace shorter than a day counts as one).
std::vector<CandidateFigures> figuresOf(const EvaluationRun &run,
                                        const std::vector<ScalingPolicyConfig> &policies)
{
    const double days = std::max(1.0, static_cast<double>(run.minuteRps.size()) / 1440);
    std::vector<CandidateFigures> figures;
    for (size_t i = 0; i < policies.size(); ++i) {
        const EvaluationResult &r = run.results.at(i);
        figures.push_back({policies[i], r.withinSloShare, r.lowestWithinSloShare, r.rentedCardHours,
                           r.scaleActions / days, r.reversals});
    }
    return figures;
}

// Cheapest first; the chosen one marked.
std::string candidatesTable(const std::vector<CandidateFigures> &figures, size_t chosen)
{
    std::vector<size_t> order(figures.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return figures[a].rentedCardHours < figures[b].rentedCardHours;
    });
    std::string out = fmt::format("  {:<30} {:>8} {:>8} {:>11} {:>12} {:>10}\n", "candidate",
                                  "in SLO", "lowest", "rented c-h", "actions/day", "reversals");
    for (const size_t i : order) {
        const CandidateFigures &c = figures[i];
        out += fmt::format("{} {:<30} {:>7.2f}% {:>7.2f}% {:>11.0f} {:>12.1f} {:>10}\n",
                           i == chosen ? '*' : ' ', candidateName(c.policy), 100 * c.withinSloShare,
                           100 * c.lowestWithinSloShare, c.rentedCardHours, c.actionsPerDay,
                           c.reversals);
    }
    return out;
}

// Each surge cover on top of each finalist, replayed on the traffic as it is (what it
// costs) and on surges laid over it (what it buys, and what the surges cost).
Result<std::vector<CoverFigures>> measureCovers(const TuneCommand &command,
                                                const EvaluationOptions &options,
                                                const std::vector<CandidateFigures> &candidates,
                                                const std::vector<size_t> &finalists)
{
    std::vector<ScalingPolicyConfig> policies;
    std::vector<std::string> names;
    std::vector<size_t> candidateOf;
    RobustnessOptions surges;
    for (const size_t finalist : finalists) {
        for (const double cover : candidateCovers()) {
            ScalingPolicyConfig policy = candidates[finalist].policy;
            policy.surgeCover = cover;
            policies.push_back(policy);
            names.push_back(candidateName(policy));
            candidateOf.push_back(finalist);
            surges.variants.push_back({names.back(), policy});
        }
    }
    const auto asItIs = medianOfSeeds(
        command.replay, options,
        [&](RequestSource &trace, const std::string &name, const EvaluationOptions &o) {
            return replayPolicies(trace, name, o, policies, names);
        });
    if (!asItIs)
        return asItIs.error();
    surges.traces = {command.replay.trace};
    surges.kinds = {ShapeKind::Step, ShapeKind::Ramp, ShapeKind::Burst, ShapeKind::DoubleBurst,
                    ShapeKind::FlashCrowd};
    surges.seeds = command.shapes;
    surges.firstSeed = command.replay.seed;
    surges.baseCards = options.peakCards;
    surges.hours = command.replay.hours;
    surges.evaluation = options;
    surges.baselines = false;
    surges.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    const auto cases = runShapeFamily(surges);
    if (!cases)
        return cases.error();
    std::vector<CoverFigures> figures;
    for (size_t i = 0; i < policies.size(); ++i) {
        std::vector<double> shares, cardHours;
        for (const RobustnessCase &c : cases.value()) {
            for (const EvaluationResult &r : c.rows) {
                if (r.autoscaler == names[i]) {
                    shares.push_back(r.withinSloShare);
                    cardHours.push_back(r.rentedCardHours);
                }
            }
        }
        const EvaluationResult &own = asItIs->results.at(i);
        const double days = std::max(1.0, static_cast<double>(asItIs->minuteRps.size()) / 1440);
        figures.push_back({policies[i].surgeCover, own.rentedCardHours, own.withinSloShare,
                           nearestRankPercentile(shares, 0.5), nearestRankPercentile(shares, 0.1),
                           nearestRankPercentile(cardHours, 0.5), candidateOf[i],
                           own.scaleActions / days});
    }
    return figures;
}

std::string coversTable(const std::vector<CandidateFigures> &candidates,
                        const std::vector<CoverFigures> &covers, size_t chosen)
{
    std::string out =
        fmt::format("  {:<40} {:>11} {:>8} {:>14} {:>17} {:>13}\n", "candidate", "rented c-h",
                    "in SLO", "surges: median", "surges: worst 10%", "surges: c-h");
    for (size_t i = 0; i < covers.size(); ++i) {
        const CoverFigures &c = covers[i];
        ScalingPolicyConfig policy = candidates[c.candidate].policy;
        policy.surgeCover = c.cover;
        out += fmt::format("{} {:<40} {:>11.0f} {:>7.2f}% {:>13.2f}% {:>16.2f}% {:>13.0f}\n",
                           i == chosen ? '*' : ' ', candidateName(policy), c.rentedCardHours,
                           100 * c.withinSloShare, 100 * c.surgeMedianShare,
                           100 * c.surgeWorstDecileShare, c.surgeCardHoursMedian);
    }
    return out;
}

// The file's header quotes the figures of the candidate it holds, cover included, where
// each was measured, and whether the goals were met.
Status writePolicyFile(const TuneCommand &command, const EvaluationRun &run,
                       const CandidateFigures &chosen, const std::optional<CoverFigures> &cover,
                       const PolicyChoice &choice)
{
    std::string comment = fmt::format(
        "Chosen by meridian-sim tune from {} ({} seed(s)): on the traffic as it is {:.2f}% of "
        "requests inside the objective, {:.0f} rented card-hours, {:.1f} actions a day",
        run.trace, run.seeds, 100 * chosen.withinSloShare, chosen.rentedCardHours,
        chosen.actionsPerDay);
    if (cover)
        comment += fmt::format(
            "; on {} surges of each kind laid over it {:.2f}% (median) and {:.2f}% (worst "
            "tenth) inside, {:.0f} rented card-hours (median)",
            command.shapes, 100 * cover->surgeMedianShare, 100 * cover->surgeWorstDecileShare,
            cover->surgeCardHoursMedian);
    comment += choice.keepsObjective ? "." : ". " + choice.why + ".";
    auto text = policyFileText(chosen, command.replay.policy, comment);
    if (!text)
        return text.error();
    std::ofstream out(command.out);
    out << text.value();
    if (!out)
        return Error{command.out + ": cannot write"};
    return {};
}

// Whether `path` can be written: asked before the replays, which take up to an hour on a
// fortnight of traffic, not after them.
bool writable(const std::string &path)
{
    if (::access(path.c_str(), F_OK) == 0)
        return ::access(path.c_str(), W_OK) == 0;
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    return ::access(parent.empty() ? "." : parent.c_str(), W_OK) == 0;
}

// A mistake on the command line, said; the exit status for it.
int tuneRefused(const std::string &why)
{
    fmt::print(stderr, "meridian-sim tune: {}\n", why);
    return 2;
}

// The policy file written, where --out asks for one; the exit status.
int written(const TuneCommand &command, const EvaluationRun &run, const CandidateFigures &chosen,
            const std::optional<CoverFigures> &cover, const PolicyChoice &choice)
{
    if (command.out.empty())
        return 0;
    if (Status written = writePolicyFile(command, run, chosen, cover, choice); !written) {
        fmt::print(stderr, "meridian-sim tune: {}\n", written.message());
        return 1;
    }
    fmt::print("written to {}\n", command.out);
    return 0;
}

// With --shapes: the finalists, each with every surge cover, on the traffic as it is and on
// the family of surges laid over it; the chosen one written.
int tuneAcrossTheFamily(const TuneCommand &command, const EvaluationOptions &options,
                        const EvaluationRun &run, const std::vector<CandidateFigures> &figures,
                        const PolicyChoice &choice)
{
    std::vector<size_t> finalists = familyFinalists(
        figures, {.insideShare = command.insideShare, .actionsPerDay = command.actionsPerDay});
    if (std::find(finalists.begin(), finalists.end(), choice.index) == finalists.end())
        finalists.insert(finalists.begin(), choice.index);
    auto covers = measureCovers(command, options, figures, finalists);
    if (!covers)
        return tuneRefused(covers.error().message);
    const PolicyChoice cover = chooseCover(
        covers.value(), std::min(command.insideShare, figures[choice.index].withinSloShare),
        command.surgeInside);
    fmt::print(
        "across the family: the {} finalists with every surge cover, on the traffic as it "
        "is and on {} surges of each kind laid over it\n{}",
        finalists.size(), command.shapes, coversTable(figures, covers.value(), cover.index));
    const CoverFigures &picked = covers->at(cover.index);
    CandidateFigures kept = figures[picked.candidate];
    kept.policy.surgeCover = picked.cover;
    kept.rentedCardHours = picked.rentedCardHours;
    kept.withinSloShare = picked.withinSloShare;
    kept.actionsPerDay = picked.actionsPerDay;
    fmt::print("chosen: {}: {}\n", candidateName(kept.policy), cover.why);
    return written(command, run, kept, picked, cover);
}

}  // namespace

int runTune(const TuneCommand &command)
{
    // Written so that NaN, which passes the command line's range checks, fails here.
    if (!(command.insideShare >= 0.5 && command.insideShare <= 1))
        return tuneRefused("--inside must be 0.5..1");
    if (!(command.actionsPerDay >= 0 && command.actionsPerDay <= 100'000))
        return tuneRefused("--actions-per-day must be 0..100000");
    if (!(command.surgeInside >= 0.5 && command.surgeInside <= 1))
        return tuneRefused("--surge-inside must be 0.5..1");
    auto options = evaluationOptionsOf(command.replay);
    if (!options)
        return tuneRefused(options.error().message);
    if (!command.out.empty() && !writable(command.out))
        return tuneRefused(command.out + ": cannot write (--out)");
    const std::vector<ScalingPolicyConfig> policies = candidatePolicies(options->policy);
    std::vector<std::string> names;
    for (const ScalingPolicyConfig &p : policies)
        names.push_back(candidateName(p));
    const auto run = medianOfSeeds(
        command.replay, options.value(),
        [&](RequestSource &trace, const std::string &name, const EvaluationOptions &o) {
            return replayPolicies(trace, name, o, policies, names);
        });
    if (!run)
        return tuneRefused(run.error().message);
    std::vector<CandidateFigures> figures = figuresOf(*run, policies);
    const PolicyChoice choice = choosePolicy(
        figures, {.insideShare = command.insideShare, .actionsPerDay = command.actionsPerDay});
    fmt::print("{}: {} candidates, the median of {} seed(s)\n{}", run->trace, figures.size(),
               run->seeds, candidatesTable(figures, choice.index));
    fmt::print("chosen: {}: {}\n", names[choice.index], choice.why);
    if (command.shapes > 0)
        return tuneAcrossTheFamily(command, options.value(), *run, figures, choice);
    return written(command, *run, figures[choice.index], std::nullopt, choice);
}

}  // namespace meridian

#include "robustness.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <thread>

#include "core/percentile.h"
#include "replayrun.h"
#include "tracefile.h"

namespace meridian {

namespace {

// What a trace's own load is scaled by: its busiest minute then needs `baseCards`.
struct TraceScale {
    std::string name;
    double normaliser = 1;
    double durationS = 0;
    // The trace's own busiest minute, scaled: what an operator had seen before the shape
    // came, which a static schedule sized ahead of time is sized on.
    double pastPeakRps = 0;
};

Result<TraceScale> traceScale(const std::shared_ptr<const TraceLines> &lines,
                              const RobustnessOptions &options)
{
    auto trace = TraceFileSource::open(lines, options.hours * 3600, options.firstSeed);
    if (!trace)
        return trace.error();
    auto profile = profileTrace(**trace, (*trace)->name());
    if (!profile)
        return profile.error();
    const double rawPeak = *std::max_element(profile->rps.begin(), profile->rps.end());
    const EvaluationOptions &e = options.evaluation;
    const double normaliser =
        options.baseCards / e.cardsPerReplica * sustainedReplicaRps(profile.value(), e) / rawPeak;
    return TraceScale{(*trace)->name(), normaliser, profile->durationS, rawPeak * normaliser};
}

Result<RobustnessCase> runCase(const RobustnessOptions &options, const ShapeCase &shape,
                               const std::shared_ptr<const TraceLines> &lines,
                               const TraceScale &scale)
{
    auto trace = TraceFileSource::open(lines, options.hours * 3600, shape.seed);
    if (!trace)
        return trace.error();
    ScaledSource shaped(**trace, shape.shape.times(scale.normaliser), shape.seed);
    EvaluationOptions o = options.evaluation;
    o.seed = shape.seed;
    o.scaleFactor = 1.0;
    o.pastPeakRps = scale.pastPeakRps;
    o.yardsticks = Yardsticks::none();
    o.yardsticks.kubernetesBaselines = true;  // the family's table sets Meridian against them
    const std::string name = fmt::format("{} ({})", scale.name, shape.description);
    std::vector<ScalingPolicyConfig> policies;
    std::vector<std::string> names;
    if (!options.baselines && options.variants.empty()) {
        policies.push_back(o.policy);
        names.push_back(kMeridianRow);
    }
    for (const PolicyVariant &v : options.variants) {
        policies.push_back(v.policy);
        names.push_back(v.name);
    }
    auto run = options.baselines ? evaluateScaling(shaped, name, o) : EvaluationRun{};
    if (!run)
        return run.error();
    if (!policies.empty()) {
        auto more = replayPolicies(shaped, name, o, policies, names);
        if (!more)
            return more.error();
        if (!options.baselines)
            run = std::move(more);
        else
            for (EvaluationResult &r : more->results)
                run->results.push_back(std::move(r));
    }
    RobustnessCase c{shape, scale.name, run->localReplicas, 0, std::move(run->results)};
    const double peak = *std::max_element(run->minuteRps.begin(), run->minuteRps.end());
    c.peakReplicas = replicasAtOccupancy(peak, run->replicaRps, 1.0);
    return c;
}

// A row that is not one of Meridian's: the causal baselines and the foresight yardsticks.
bool isYardstick(const std::string &row)
{
    return isCausalBaseline(row) || row == kStaticPeakRow || row == "oracle";
}

// The rows of every case, by name, in the order the first case has them.
std::vector<std::string> rowNames(const std::vector<RobustnessCase> &cases)
{
    std::vector<std::string> names;
    for (const RobustnessCase &c : cases) {
        for (const EvaluationResult &r : c.rows) {
            if (std::find(names.begin(), names.end(), r.autoscaler) == names.end())
                names.push_back(r.autoscaler);
        }
    }
    return names;
}

const EvaluationResult *rowOf(const RobustnessCase &c, const std::string &name)
{
    for (const EvaluationResult &r : c.rows) {
        if (r.autoscaler == name)
            return &r;
    }
    return nullptr;
}

struct Summary {
    int cases = 0;
    double insideMedian = 0, insideWorstDecile = 0, insideLowest = 0;
    double cardHoursMedian = 0, cardHoursWorstDecile = 0;
    int dominated = 0;  // cases where a baseline keeps as many for as few card-hours
    std::map<std::string, int> dominatedBy;
};

Summary summarise(const std::vector<const RobustnessCase *> &cases, const std::string &row)
{
    Summary s;
    std::vector<double> inside, cardHours;
    for (const RobustnessCase *c : cases) {
        const EvaluationResult *r = rowOf(*c, row);
        if (!r)
            continue;
        ++s.cases;
        inside.push_back(r->withinSloShare);
        cardHours.push_back(r->rentedCardHours);
        bool beaten = false;
        for (const EvaluationResult &b : c->rows) {
            if (isCausalBaseline(b.autoscaler) && b.autoscaler != row && dominates(b, *r)) {
                ++s.dominatedBy[b.autoscaler];
                beaten = true;
            }
        }
        s.dominated += beaten;
    }
    if (s.cases == 0)
        return s;
    s.insideMedian = nearestRankPercentile(inside, 0.5);
    s.insideWorstDecile = nearestRankPercentile(inside, 0.1);
    s.insideLowest = *std::min_element(inside.begin(), inside.end());
    s.cardHoursMedian = nearestRankPercentile(cardHours, 0.5);
    s.cardHoursWorstDecile = nearestRankPercentile(cardHours, 0.9);
    return s;
}

std::string dominatedText(const Summary &s)
{
    if (s.dominated == 0)
        return "never";
    std::string by;
    for (const auto &[name, count] : s.dominatedBy)
        by += fmt::format("{}{} {}", by.empty() ? "" : ", ", name, count);
    return fmt::format("{} of {} ({})", s.dominated, s.cases, by);
}

std::string summaryTable(const std::vector<const RobustnessCase *> &cases,
                         const std::vector<std::string> &rows)
{
    std::string out =
        fmt::format("  {:<26} {:>9} {:>9} {:>9} {:>10} {:>10}  {}\n", "autoscaler", "in SLO",
                    "worst 10%", "lowest", "card-h", "worst 10%", "dominated by a causal baseline");
    for (const std::string &row : rows) {
        const Summary s = summarise(cases, row);
        if (s.cases == 0)
            continue;
        const std::string shown = row == kStaticPeakRow ? row + " (foresight)" : row;
        out += fmt::format("  {:<26} {:>8.2f}% {:>8.2f}% {:>8.2f}% {:>10.0f} {:>10.0f}  {}\n",
                           shown, 100 * s.insideMedian, 100 * s.insideWorstDecile,
                           100 * s.insideLowest, s.cardHoursMedian, s.cardHoursWorstDecile,
                           isYardstick(row) ? "" : dominatedText(s));
    }
    return out;
}

// How far a row is from the oracle over the whole family: its median card-hours against the
// oracle's (goal: within 1.5×), and its worst decile inside the objective against the
// oracle's.
std::string oracleDistance(const std::vector<RobustnessCase> &cases, const std::string &row)
{
    std::vector<const RobustnessCase *> all;
    for (const RobustnessCase &c : cases)
        all.push_back(&c);
    const Summary mine = summarise(all, row);
    const Summary oracle = summarise(all, "oracle");
    if (mine.cases == 0 || oracle.cases == 0 || oracle.cardHoursMedian <= 0)
        return {};
    const double times = mine.cardHoursMedian / oracle.cardHoursMedian;
    return fmt::format(
        "  {}: the whole family: median {:.0f} card-h, {:.2f}× the oracle's {:.0f} "
        "(goal ≤ 1.5×: {}); worst decile {:.2f}% inside against the oracle's "
        "{:.2f}%\n",
        row, mine.cardHoursMedian, times, oracle.cardHoursMedian, times <= 1.5 ? "met" : "missed",
        100 * mine.insideWorstDecile, 100 * oracle.insideWorstDecile);
}

// The goals' lines, for each of Meridian's rows: the lowest share inside the objective it
// keeps on ×3 steps (a rise of 2.5–3.5) and on rises its owned replicas cover, with the
// case named.
std::string goalLines(const std::vector<RobustnessCase> &cases,
                      const std::vector<std::string> &rows)
{
    struct Worst {
        double share = 2;
        std::string which;
        int count = 0;
    };
    std::string out;
    for (const std::string &row : rows) {
        if (row.rfind(kMeridianRow, 0) != 0)
            continue;
        Worst steps, owned;
        for (const RobustnessCase &c : cases) {
            const EvaluationResult *m = rowOf(c, row);
            if (!m)
                continue;
            const auto note = [&](Worst &w) {
                ++w.count;
                if (m->withinSloShare < w.share) {
                    w.share = m->withinSloShare;
                    w.which =
                        fmt::format("{}, {}, seed {}", c.trace, c.shape.description, c.shape.seed);
                }
            };
            if (c.shape.kind == ShapeKind::Step && c.shape.riseFactor >= 2.5 &&
                c.shape.riseFactor <= 3.5)
                note(steps);
            if (c.peakReplicas <= c.localReplicas)
                note(owned);
        }
        const auto line = [&](const char *what, const Worst &w, double goal) {
            if (w.count == 0)
                return;
            out += fmt::format(
                "  {}: {} ({} cases): lowest {:.2f}% inside the objective ({}), "
                "goal ≥ {:.0f}%: {}\n",
                row, what, w.count, 100 * w.share, w.which, 100 * goal,
                w.share >= goal ? "met" : "missed");
        };
        line("×3 steps (×2.5–×3.5)", steps, 0.95);
        line("rises within the owned replicas", owned, 0.99);
        out += oracleDistance(cases, row);
    }
    return out;
}

// Over the whole family: each row's median card-hours against its median and worst-decile
// share inside the objective, cheapest first, with the rows no other row dominates.
std::string paretoView(const std::vector<RobustnessCase> &cases,
                       const std::vector<std::string> &rows)
{
    std::vector<const RobustnessCase *> all;
    for (const RobustnessCase &c : cases)
        all.push_back(&c);
    std::vector<std::pair<std::string, Summary>> points;
    for (const std::string &row : rows) {
        Summary s = summarise(all, row);
        if (s.cases > 0)
            points.emplace_back(row, s);
    }
    std::sort(points.begin(), points.end(), [](const auto &a, const auto &b) {
        return a.second.cardHoursMedian < b.second.cardHoursMedian;
    });
    std::string out =
        fmt::format("  {:<26} {:>10} {:>9} {:>9}  {}\n", "autoscaler", "card-h", "in SLO",
                    "worst 10%", "on the frontier (no row keeps more for less)");
    for (const auto &[row, s] : points) {
        bool efficient = true;
        for (const auto &[other, o] : points) {
            if (other == row || other == "oracle" || other == kStaticPeakRow)
                continue;  // knowing the future is not a way to run
            const bool asMany = o.insideMedian >= s.insideMedian - kSameAttainment;
            const bool asCheap = o.cardHoursMedian <= s.cardHoursMedian;
            const bool better = o.insideMedian > s.insideMedian + kSameAttainment ||
                                o.cardHoursMedian < s.cardHoursMedian;
            efficient &= !(asMany && asCheap && better);
        }
        out += fmt::format("  {:<26} {:>10.0f} {:>8.2f}% {:>8.2f}%  {}\n", row, s.cardHoursMedian,
                           100 * s.insideMedian, 100 * s.insideWorstDecile,
                           row == "oracle" || row == kStaticPeakRow ? "(foresight)"
                           : efficient                              ? "yes"
                                                                    : "");
    }
    return out;
}

}  // namespace

bool dominates(const EvaluationResult &b, const EvaluationResult &a)
{
    const bool asMany = b.withinSloShare >= a.withinSloShare - kSameAttainment;
    const bool asCheap = b.rentedCardHours <= a.rentedCardHours;
    const bool better = b.withinSloShare > a.withinSloShare + kSameAttainment ||
                        b.rentedCardHours < a.rentedCardHours;
    return asMany && asCheap && better;
}

Result<std::vector<RobustnessCase>> runShapeFamily(
    const RobustnessOptions &options, const std::function<void(const RobustnessCase &)> &progress)
{
    if (options.traces.empty())
        return Error{"no trace to lay the shapes over"};
    // Each trace is read once for the whole family; every case replays what was read.
    std::vector<std::shared_ptr<const TraceLines>> traces;
    std::vector<TraceScale> scales;
    for (const std::string &path : options.traces) {
        auto lines = TraceLines::read(path);
        if (!lines)
            return lines.error();
        traces.push_back(std::move(lines).value());
        auto scale = traceScale(traces.back(), options);
        if (!scale)
            return scale.error();
        scales.push_back(scale.value());
    }
    const std::vector<ShapeCase> family =
        shapeFamily(options.kinds, scales.front().durationS, options.seeds, options.firstSeed);
    std::vector<std::optional<RobustnessCase>> done(family.size());
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::optional<Error> failed;
    const auto worker = [&] {
        for (size_t i = next++; i < family.size(); i = next++) {
            const size_t t = static_cast<size_t>(family[i].seed) % options.traces.size();
            auto c = runCase(options, family[i], traces[t], scales[t]);
            std::lock_guard lock(mutex);
            if (!c) {
                if (!failed)
                    failed = c.error();
                next = family.size();
                return;
            }
            if (progress)
                progress(c.value());
            done[i] = std::move(c.value());
        }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::max(1, options.jobs); ++j)
        threads.emplace_back(worker);
    for (std::thread &t : threads)
        t.join();
    if (failed)
        return *failed;
    std::vector<RobustnessCase> cases;
    for (auto &c : done)
        cases.push_back(std::move(*c));
    return cases;
}

std::string robustnessReport(const std::vector<RobustnessCase> &cases)
{
    if (cases.empty())
        return "no cases\n";
    const std::vector<std::string> rows = rowNames(cases);
    std::string out;
    for (const ShapeKind kind : allShapeKinds()) {
        std::vector<const RobustnessCase *> ofKind;
        for (const RobustnessCase &c : cases) {
            if (c.shape.kind == kind)
                ofKind.push_back(&c);
        }
        if (ofKind.empty())
            continue;
        out += fmt::format("{} ({} cases; median, worst decile and lowest):\n", shapeKindName(kind),
                           ofKind.size());
        out += summaryTable(ofKind, rows);
    }
    out += "\nGoals:\n" + goalLines(cases, rows);
    out += "\nThe whole family, cheapest first:\n" + paretoView(cases, rows);
    return out;
}

std::string robustnessCsv(const std::vector<RobustnessCase> &cases)
{
    std::string out =
        "kind,seed,trace,shape,local_replicas,peak_replicas,autoscaler,within_slo,"
        "rented_card_hours,actions,reversals,replica_start_s,queue_delay_p95_s,worst_minute_p95_"
        "s\n";
    for (const RobustnessCase &c : cases) {
        for (const EvaluationResult &r : c.rows) {
            out += fmt::format(
                "{},{},{},\"{}\",{},{},{},{:.5f},{:.1f},{},{},{:.0f},{:.2f},{:.2f}\n",
                shapeKindName(c.shape.kind), c.shape.seed, c.trace, c.shape.description,
                c.localReplicas, c.peakReplicas, r.autoscaler, r.withinSloShare, r.rentedCardHours,
                r.scaleActions, r.reversals, r.replicaStartS, r.queueDelayP95S, r.worstMinuteP95S);
        }
    }
    return out;
}

}  // namespace meridian

// The policy judged on a family of load shapes it has never seen (shapefamily.h), each
// laid over a real trace: every case replayed by Meridian (and any variants of its
// policy, for the cost/attainment curve), static peak, HPA-style, Knative-style and the
// oracle's headroom schedule, under the same replicas, billing and seed. What a person
// reads from it: per kind of shape, each autoscaler's median and worst decile; whether a
// baseline ever keeps as many requests for as few card-hours (Meridian dominated); the
// Pareto view of card-hours against attainment over the whole family.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "evaluation.h"
#include "shapefamily.h"

namespace meridian {

struct PolicyVariant {
    std::string name;  // its row's name: "meridian reserve 1.5"
    ScalingPolicyConfig policy;
};

struct RobustnessOptions {
    // Real traces the shapes are laid over: case i of a kind uses traces[i % size].
    std::vector<std::string> traces;
    std::vector<ShapeKind> kinds = allShapeKinds();
    int seeds = 20;
    uint64_t firstSeed = 1;
    // The trace as it came is scaled so its busiest minute needs this many cards; a
    // shape's ×3 then needs three times as many (64 cards by default, as the shared
    // traces' table is scaled).
    double baseCards = 64.0 / 3;
    double hours = 1;  // of each trace; 0: the whole of it (the first trace's length sets the
                       // shapes' minutes)
    // Local cards, policy and the replicas' performance; peakCards and the scale are set
    // per case.
    EvaluationOptions evaluation;
    std::vector<PolicyVariant> variants;  // replayed beside the policy, one row each
    // False: only the variants (or Meridian where there are none), no baselines or oracle:
    // a search for a policy file compares its candidates with each other.
    bool baselines = true;
    int jobs = 1;  // cases replayed at once
};

struct RobustnessCase {
    ShapeCase shape;
    std::string trace;
    int localReplicas = 0;
    int peakReplicas = 0;  // what the busiest minute needs at a replica's full rate
    std::vector<EvaluationResult> rows;
};

// Replays every case; `progress` (may be empty) is told each case as it finishes, in
// order of completion. Fails on the first trace that does not read.
Result<std::vector<RobustnessCase>> runShapeFamily(
    const RobustnessOptions &options,
    const std::function<void(const RobustnessCase &)> &progress = {});

// For a person: per kind, each row's median and worst decile (in SLO and rented
// card-hours), the cases where a baseline dominates Meridian, the goals' lines, and the
// Pareto view over the family.
std::string robustnessReport(const std::vector<RobustnessCase> &cases);
// One line per case and row, for a spreadsheet.
std::string robustnessCsv(const std::vector<RobustnessCase> &cases);

// Whether `b` keeps at least as many requests inside the objective (within
// kSameAttainment) for no more rented card-hours, and is better in one of the two.
bool dominates(const EvaluationResult &b, const EvaluationResult &a);

}  // namespace meridian

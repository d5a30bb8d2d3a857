#include "policysearch.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/yamlfile.h"

namespace meridian {

std::vector<ScalingPolicyConfig> candidatePolicies(const ScalingPolicyConfig &base)
{
    std::vector<ScalingPolicyConfig> candidates;
    for (const int64_t windowMs : {600'000, 3'600'000, 10'800'000}) {
        for (const double occupancy : {0.8, 0.85, 0.9, 1.0}) {
            ScalingPolicyConfig policy = base;
            policy.scaleDownWindowMs = windowMs;
            policy.targetOccupancy = occupancy;
            policy.targetOccupancyWithForecast = std::min(1.0, occupancy + 0.1);
            candidates.push_back(policy);
        }
    }
    return candidates;
}

std::string candidateName(const ScalingPolicyConfig &policy)
{
    const int64_t minutes = policy.scaleDownWindowMs / 60'000;
    const std::string window =
        minutes % 60 == 0 ? fmt::format("{} h", minutes / 60) : fmt::format("{} min", minutes);
    const std::string cover =
        policy.surgeCover > 1 ? fmt::format(", cover ×{:g}", policy.surgeCover) : "";
    return fmt::format("window {}, occupancy {:.2f}{}", window, policy.targetOccupancy, cover);
}

std::vector<double> candidateCovers()
{
    return {1, 1.5, 2, 3, 4, 5, 6};
}

PolicyChoice chooseCover(const std::vector<CoverFigures> &covers, double insideShare,
                         double surgeInside)
{
    const auto cheaper = [](const CoverFigures &a, const CoverFigures &b) {
        return a.rentedCardHours != b.rentedCardHours
                   ? a.rentedCardHours < b.rentedCardHours
                   : a.surgeCardHoursMedian < b.surgeCardHoursMedian;
    };
    int best = -1;
    for (size_t i = 0; i < covers.size(); ++i) {
        const CoverFigures &c = covers[i];
        if (c.surgeWorstDecileShare < surgeInside || c.withinSloShare < insideShare)
            continue;
        if (best < 0 || cheaper(c, covers[best]))
            best = static_cast<int>(i);
    }
    if (best >= 0)
        return {static_cast<size_t>(best), true, true,
                fmt::format("the cheapest whose worst tenth of surges keeps {:.1f}% inside the "
                            "objective and that keeps {:.1f}% on the traffic as it is",
                            100 * surgeInside, 100 * insideShare)};
    size_t most = 0;
    for (size_t i = 1; i < covers.size(); ++i) {
        const CoverFigures &c = covers[i], &m = covers[most];
        if (c.surgeWorstDecileShare > m.surgeWorstDecileShare + 1e-9 ||
            (c.surgeWorstDecileShare > m.surgeWorstDecileShare - 1e-9 &&
             c.surgeCardHoursMedian < m.surgeCardHoursMedian))
            most = i;
    }
    return {most, false, false,
            fmt::format("GOAL MISSED: none keeps {:.1f}% inside the objective on the worst tenth "
                        "of surges and {:.1f}% on the traffic as it is; this one keeps the most "
                        "on surges ({:.2f}%), for the fewest card-hours among those that do",
                        100 * surgeInside, 100 * insideShare,
                        100 * covers[most].surgeWorstDecileShare)};
}

namespace {

// The objective kept: the median over seeds, and no seed far below it.
bool keepsObjective(const CandidateFigures &c, const PolicyGoals &goals)
{
    return c.withinSloShare >= goals.insideShare &&
           c.lowestWithinSloShare >= goals.insideShare - goals.worstSeedSlack;
}

}  // namespace

std::vector<size_t> familyFinalists(const std::vector<CandidateFigures> &candidates,
                                    const PolicyGoals &goals, size_t count)
{
    std::vector<size_t> order(candidates.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto keeps = [&](const CandidateFigures &c) { return keepsObjective(c, goals); };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const CandidateFigures &x = candidates[a], &y = candidates[b];
        if (keeps(x) != keeps(y))
            return keeps(x);
        if (!keeps(x) && x.withinSloShare != y.withinSloShare)
            return x.withinSloShare > y.withinSloShare;
        return x.rentedCardHours < y.rentedCardHours;
    });
    std::vector<size_t> finalists;
    for (const size_t i : order) {
        const CandidateFigures &c = candidates[i];
        const bool same = std::any_of(finalists.begin(), finalists.end(), [&](size_t f) {
            const CandidateFigures &t = candidates[f];
            return t.withinSloShare == c.withinSloShare && t.rentedCardHours == c.rentedCardHours &&
                   t.actionsPerDay == c.actionsPerDay;
        });
        if (!same && finalists.size() < count)
            finalists.push_back(i);
    }
    return finalists;
}

namespace {

// The cheapest of those `fits` lets through, fewer actions breaking a tie; none: -1.
template <typename Fits>
int cheapest(const std::vector<CandidateFigures> &candidates, Fits fits)
{
    int best = -1;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const CandidateFigures &c = candidates[i];
        if (!fits(c))
            continue;
        if (best < 0 || c.rentedCardHours < candidates[best].rentedCardHours ||
            (c.rentedCardHours == candidates[best].rentedCardHours &&
             c.actionsPerDay < candidates[best].actionsPerDay))
            best = static_cast<int>(i);
    }
    return best;
}

}  // namespace

PolicyChoice choosePolicy(const std::vector<CandidateFigures> &candidates, const PolicyGoals &goals)
{
    const auto keeps = [&](const CandidateFigures &c) { return keepsObjective(c, goals); };
    const std::string objective =
        fmt::format("keeps {:.1f}% inside the objective (no seed below {:.1f}%)",
                    100 * goals.insideShare, 100 * (goals.insideShare - goals.worstSeedSlack));
    PolicyChoice choice;
    if (const int both = cheapest(candidates,
                                  [&](const CandidateFigures &c) {
                                      return keeps(c) && c.actionsPerDay <= goals.actionsPerDay;
                                  });
        both >= 0) {
        choice = {static_cast<size_t>(both), true, true,
                  fmt::format("the cheapest that {} with at most {:.0f} actions a day", objective,
                              goals.actionsPerDay)};
        return choice;
    }
    if (const int kept = cheapest(candidates, keeps); kept >= 0) {
        double fewest = candidates[kept].actionsPerDay;
        for (const CandidateFigures &c : candidates) {
            if (keeps(c))
                fewest = std::min(fewest, c.actionsPerDay);
        }
        choice = {static_cast<size_t>(kept), true, false,
                  fmt::format("the cheapest that {}; none that does takes at most {:.0f} "
                              "actions a day (the fewest: {:.1f})",
                              objective, goals.actionsPerDay, fewest)};
        return choice;
    }
    const auto most = std::max_element(candidates.begin(), candidates.end(),
                                       [](const CandidateFigures &a, const CandidateFigures &b) {
                                           return a.withinSloShare < b.withinSloShare;
                                       });
    choice = {static_cast<size_t>(most - candidates.begin()), false, false,
              fmt::format("none {}; this one keeps the most", objective)};
    return choice;
}

Result<std::string> policyFileText(const CandidateFigures &chosen, const std::string &baseFile,
                                   const std::string &comment)
{
    YAML::Node root(YAML::NodeType::Map);
    if (!baseFile.empty()) {
        auto base = loadYamlFile(baseFile);
        if (!base)
            return base.error();
        if (!base->IsMap())
            return yamlError(baseFile, base.value(), "expected keys such as target_occupancy: 0.8");
        root = base.value();
    }
    const ScalingPolicyConfig &p = chosen.policy;
    // As a person writes them: 0.9, not yaml-cpp's 0.90000000000000002.
    const auto number = [](double value) { return fmt::format("{:g}", value); };
    root["scale_down_window_seconds"] = number(static_cast<double>(p.scaleDownWindowMs) / 1000);
    root["target_occupancy"] = number(p.targetOccupancy);
    root["target_occupancy_with_forecast"] = number(p.targetOccupancyWithForecast);
    if (p.surgeCover > 1)
        root["surge_cover"] = number(p.surgeCover);
    else
        root.remove("surge_cover");
    YAML::Emitter out;
    out << YAML::Comment(comment) << YAML::Newline << root;
    return std::string(out.c_str()) + "\n";
}

}  // namespace meridian

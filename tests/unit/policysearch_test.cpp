// Choosing a service's policy file from its replayed candidates: the cheapest that keeps
// the objective and the actions goal, else the cheapest that keeps the objective (the
// miss said), else the one keeping the most; and the file written loads back, the base
// file's other settings kept.
#include <gtest/gtest.h>

#include <fstream>

#include "replay/policysearch.h"
#include "testsupport.h"

using namespace meridian;

namespace {

CandidateFigures candidate(double occupancy, int64_t windowMinutes, double inside, double cardHours,
                           double actionsPerDay)
{
    CandidateFigures c;
    c.policy.targetOccupancy = occupancy;
    c.policy.scaleDownWindowMs = windowMinutes * 60'000;
    c.withinSloShare = inside;
    c.lowestWithinSloShare = inside;
    c.rentedCardHours = cardHours;
    c.actionsPerDay = actionsPerDay;
    return c;
}

}  // namespace

TEST(PolicySearch, TheCandidatesSpanHeadroomAndWindowOnTopOfTheBase)
{
    ScalingPolicyConfig base;
    base.panicFactor = 2.0;
    const std::vector<ScalingPolicyConfig> all = candidatePolicies(base);
    ASSERT_EQ(all.size(), 12u);
    for (const ScalingPolicyConfig &p : all) {
        EXPECT_EQ(p.panicFactor, 2.0) << "the base's other settings are kept";
        EXPECT_LE(p.targetOccupancyWithForecast, 1.0);
        EXPECT_GE(p.targetOccupancyWithForecast, p.targetOccupancy);
    }
    EXPECT_EQ(candidateName(all.front()), "window 10 min, occupancy 0.80");
    EXPECT_EQ(candidateName(all.back()), "window 3 h, occupancy 1.00");
    EXPECT_EQ(all.back().targetOccupancyWithForecast, 1.0);
}

TEST(PolicySearch, TheCheapestThatMeetsBothGoalsIsChosen)
{
    // Like mm-image: the defaults are cheap but busy; an hour's window too busy; three
    // hours meet 20 a day, at 0.9 cheaper than at 0.8.
    const std::vector<CandidateFigures> figures = {
        candidate(0.8, 10, 1.0, 704, 59),     candidate(0.9, 10, 0.9919, 560, 52),
        candidate(0.9, 60, 0.9961, 660, 27),  candidate(0.8, 180, 1.0, 956, 18),
        candidate(0.9, 180, 0.9961, 784, 16), candidate(1.0, 180, 0.985, 700, 14),
    };
    const PolicyChoice choice = choosePolicy(figures, {});
    EXPECT_EQ(choice.index, 4u);
    EXPECT_TRUE(choice.keepsObjective);
    EXPECT_TRUE(choice.meetsActions);

    // Cheaper still, with a median over the line but one seed far under it: not chosen.
    std::vector<CandidateFigures> lucky = figures;
    lucky.push_back(candidate(1.0, 180, 0.9915, 672, 15));
    lucky.back().lowestWithinSloShare = 0.9844;
    EXPECT_EQ(choosePolicy(lucky, {}).index, 4u);
    lucky.back().lowestWithinSloShare = 0.9855;  // within half a point
    EXPECT_EQ(choosePolicy(lucky, {}).index, lucky.size() - 1);

    // Equal card-hours: the fewer actions.
    std::vector<CandidateFigures> tied = {candidate(0.9, 10, 0.995, 36, 3),
                                          candidate(1.0, 10, 0.995, 36, 2)};
    EXPECT_EQ(choosePolicy(tied, {}).index, 1u);
}

TEST(PolicySearch, WhereNoCandidateMeetsBothTheMissIsSaid)
{
    const std::vector<CandidateFigures> busy = {candidate(0.8, 10, 0.999, 900, 40),
                                                candidate(0.9, 10, 0.995, 700, 45),
                                                candidate(0.9, 180, 0.97, 600, 10)};
    const PolicyChoice kept = choosePolicy(busy, {.insideShare = 0.99, .actionsPerDay = 20});
    EXPECT_EQ(kept.index, 1u) << "the cheapest that keeps the objective";
    EXPECT_TRUE(kept.keepsObjective);
    EXPECT_FALSE(kept.meetsActions);
    EXPECT_NE(kept.why.find("the fewest: 40.0"), std::string::npos) << kept.why;

    const std::vector<CandidateFigures> hard = {candidate(0.8, 10, 0.92, 200, 5),
                                                candidate(0.9, 10, 0.91, 170, 5)};
    const PolicyChoice best = choosePolicy(hard, {.insideShare = 0.99, .actionsPerDay = 20});
    EXPECT_EQ(best.index, 0u) << "none keeps 99%: the one keeping the most";
    EXPECT_FALSE(best.keepsObjective);
    EXPECT_NE(best.why.find("none keeps 99.0% inside the objective (no seed below 98.5%)"),
              std::string::npos)
        << best.why;
}

TEST(PolicySearch, TheFileWrittenLoadsBackWithTheBasesOtherSettings)
{
    test::TempDir dir;
    const std::string base = dir.file("base.yaml");
    std::ofstream(base) << "panic_factor: 2\nscale_down_window_seconds: 300\n";
    const CandidateFigures chosen = [] {
        CandidateFigures c = candidate(0.9, 180, 0.996, 784, 16);
        c.policy.targetOccupancyWithForecast = 1.0;
        return c;
    }();
    const auto text = policyFileText(chosen, base, "chosen from mm-image");
    ASSERT_TRUE(text.ok()) << text.error().message;
    EXPECT_EQ(text->rfind("# chosen from mm-image", 0), 0u) << *text;
    EXPECT_NE(text->find("\ntarget_occupancy: 0.9\n"), std::string::npos)
        << "as a person writes it: " << *text;
    const std::string written = dir.file("chosen.yaml");
    std::ofstream(written) << *text;
    const auto loaded = loadScalingPolicy(written);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message << "\n" << *text;
    EXPECT_EQ(loaded->panicFactor, 2.0);
    EXPECT_EQ(loaded->scaleDownWindowMs, 10'800'000) << "the chosen window, not the base's";
    EXPECT_EQ(loaded->targetOccupancy, 0.9);
    EXPECT_EQ(loaded->targetOccupancyWithForecast, 1.0);

    std::ofstream(base) << "- a list\n";
    const auto broken = policyFileText(chosen, base, "x");
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().message.find("base.yaml:1"), std::string::npos)
        << broken.error().message;
}

// The family is tried on the cheapest candidates that keep the objective, one of each set
// of figures (windows a short trace cannot tell apart are one candidate); where fewer keep
// it, those keeping the most come next.
TEST(PolicySearch, TheFinalistsAreTheCheapestKeepersToldApartByTheirFigures)
{
    const std::vector<CandidateFigures> figures = {
        candidate(0.9, 10, 0.9979, 36, 3),  candidate(0.9, 60, 0.9979, 36, 3),
        candidate(0.85, 10, 0.9979, 44, 3), candidate(1.0, 10, 0.9178, 44, 3),
        candidate(0.8, 10, 0.9997, 48, 3),
    };
    EXPECT_EQ(familyFinalists(figures, {}), (std::vector<size_t>{0, 2, 4}));
    EXPECT_EQ(familyFinalists(figures, {}, 2), (std::vector<size_t>{0, 2}));
    // None keeps 99.99%: the most kept first, whatever they cost.
    EXPECT_EQ(familyFinalists(figures, {.insideShare = 0.9999}), (std::vector<size_t>{4, 0, 2}));
}

// Across finalists and covers: the cheapest on the traffic that keeps the surge goal, a tie
// going to the one cheaper on the surges; where none keeps it, the miss is said and the one
// keeping the most on surges (the cheaper on them, tied) is chosen.
TEST(PolicySearch, TheCoverChosenIsTheCheapestThatHoldsOnSurgesAndAMissIsSaid)
{
    const auto cover = [](double x, double cardHours, double worstTenth, double surgeCardHours) {
        CoverFigures c;
        c.cover = x;
        c.rentedCardHours = cardHours;
        c.withinSloShare = 1.0;
        c.surgeMedianShare = 1.0;
        c.surgeWorstDecileShare = worstTenth;
        c.surgeCardHoursMedian = surgeCardHours;
        return c;
    };
    const std::vector<CoverFigures> covers = {cover(1, 36, 0.66, 184), cover(4, 116, 0.88, 176),
                                              cover(5, 152, 0.983, 172), cover(5, 152, 1.0, 156),
                                              cover(6, 188, 0.983, 192)};
    const PolicyChoice chosen = chooseCover(covers, 0.99, 0.95);
    EXPECT_EQ(chosen.index, 3u) << "the same on the traffic, cheaper on the surges";
    EXPECT_TRUE(chosen.keepsObjective);

    std::vector<CoverFigures> fewer = covers;
    fewer.erase(fewer.begin() + 3);  // none keeps 99.9% on the worst tenth now
    const PolicyChoice missed = chooseCover(fewer, 0.99, 0.999);
    EXPECT_EQ(missed.index, 2u) << "×5 and ×6 keep as much; ×5 is cheaper on the surges";
    EXPECT_FALSE(missed.keepsObjective);
    EXPECT_EQ(missed.why.rfind("GOAL MISSED: none keeps 99.9%", 0), 0u) << missed.why;
}

// Load shapes laid over a trace: the factor between knots, a shaped source that keeps the
// trace as it is before a step and multiplies it after, shapes written by a person
// (refused by name where they do not read), and the family drawn from seeds: the same
// seed the same case, every case inside its kind's ranges.
#include <gtest/gtest.h>

#include <cmath>

#include "replay/loadshape.h"
#include "replay/requestsource.h"
#include "replay/robustness.h"
#include "replay/shapefamily.h"

using namespace meridian;

namespace {

// One request a second for `seconds`.
std::vector<TraceRequest> steadyLoad(int seconds)
{
    std::vector<TraceRequest> requests;
    for (int s = 0; s < seconds; ++s)
        requests.push_back({static_cast<double>(s), 100, 10, {}});
    return requests;
}

}  // namespace

TEST(LoadShape, FactorsFollowTheKnotsAndHoldBeyondThem)
{
    const LoadShape shape({{60, 1.0}, {120, 3.0}, {180, 3.0}, {240, 0.5}});
    EXPECT_DOUBLE_EQ(shape.factorAt(0), 1.0) << "held before the first knot";
    EXPECT_DOUBLE_EQ(shape.factorAt(90), 2.0) << "linear between knots";
    EXPECT_DOUBLE_EQ(shape.factorAt(150), 3.0);
    EXPECT_DOUBLE_EQ(shape.factorAt(1000), 0.5) << "held after the last";
    EXPECT_DOUBLE_EQ(shape.highest(), 3.0);
    EXPECT_DOUBLE_EQ(shape.times(2).factorAt(90), 4.0);
    EXPECT_DOUBLE_EQ(LoadShape({{0, -2.0}}).factorAt(5), 0.0) << "no negative load";
}

TEST(LoadShape, AShapedTraceIsTheTraceBeforeAStepAndThreeTimesItAfter)
{
    const std::vector<TraceRequest> requests = steadyLoad(1200);
    MemorySource base(requests);
    ScaledSource shaped(base, LoadShape({{600, 1.0}, {630, 3.0}}), 7);
    int before = 0, after = 0;
    double last = 0;
    TraceRequest r;
    while (shaped.next(r)) {
        EXPECT_GE(r.arrivalS, last) << "in arrival order";
        last = r.arrivalS;
        before += r.arrivalS < 600;
        after += r.arrivalS >= 631;  // past the rise, and past the copies' second of spread
    }
    EXPECT_EQ(before, 600) << "nothing dropped or repeated before the step";
    EXPECT_EQ(after, 3 * 569) << "every request after the step three times";
    // The same seed gives the same load on every pass.
    shaped.rewind();
    int again = 0;
    while (shaped.next(r))
        ++again;
    int first = 0;
    ScaledSource same(base, LoadShape({{600, 1.0}, {630, 3.0}}), 7);
    base.rewind();
    while (same.next(r))
        ++first;
    EXPECT_EQ(again, first);
}

TEST(LoadShape, ShapesWrittenByAPersonReadAndMistakesAreNamed)
{
    auto step = parseShape("step:3@20", 3600);
    ASSERT_TRUE(step.ok()) << step.error().message;
    EXPECT_EQ(step->kind, ShapeKind::Step);
    EXPECT_DOUBLE_EQ(step->shape.factorAt(20 * 60 - 1), 1.0);
    EXPECT_DOUBLE_EQ(step->shape.factorAt(21 * 60), 3.0);
    EXPECT_EQ(step->description, "step ×3 at minute 20");

    auto burst = parseShape("burst:2.5@10+4", 3600);
    ASSERT_TRUE(burst.ok()) << burst.error().message;
    EXPECT_DOUBLE_EQ(burst->shape.factorAt(12 * 60), 2.5);
    EXPECT_DOUBLE_EQ(burst->shape.factorAt(16 * 60), 1.0) << "over after 4 minutes and its edges";

    auto ramp = parseShape("ramp:3@10+10", 3600);
    ASSERT_TRUE(ramp.ok());
    EXPECT_DOUBLE_EQ(ramp->shape.factorAt(15 * 60), 2.0);

    auto member = parseShape("double-burst#7", 3600);
    ASSERT_TRUE(member.ok());
    EXPECT_EQ(member->description, drawShape(ShapeKind::DoubleBurst, 3600, 7).description);

    for (const char *bad :
         {"step", "step:3", "step:3@", "step:x@20", "step:3@20x", "step:50@20", "burst:3@20",
          "wave:3@20", "step#x", "step#", "tidal#3", "ramp:3@5+0"}) {
        auto refused = parseShape(bad, 3600);
        ASSERT_FALSE(refused.ok()) << bad;
        EXPECT_NE(refused.error().message.find(bad), std::string::npos)
            << "the spec is named: " << refused.error().message;
    }
}

TEST(ShapeFamily, EachCaseComesFromItsSeedAndStaysInsideItsKindsRanges)
{
    const double hour = 3600;
    const std::vector<ShapeCase> family = shapeFamily(allShapeKinds(), hour, 25, 1);
    ASSERT_EQ(family.size(), 6u * 25);
    for (const ShapeCase &c : family) {
        EXPECT_EQ(drawShape(c.kind, hour, c.seed).description, c.description)
            << "the same seed, the same case";
        switch (c.kind) {
        case ShapeKind::Step:
        case ShapeKind::Ramp:
            EXPECT_GE(c.riseFactor, 1.5) << c.description;
            EXPECT_LE(c.riseFactor, 4) << c.description;
            EXPECT_DOUBLE_EQ(c.shape.factorAt(hour), c.riseFactor) << "held to the end";
            break;
        case ShapeKind::Burst:
        case ShapeKind::DoubleBurst:
            EXPECT_GE(c.riseFactor, 2) << c.description;
            EXPECT_LE(c.riseFactor, 4) << c.description;
            EXPECT_DOUBLE_EQ(c.shape.factorAt(0), 1.0) << c.description;
            break;
        case ShapeKind::FlashCrowd:
            EXPECT_GE(c.riseFactor, 3) << c.description;
            EXPECT_LE(c.riseFactor, 6) << c.description;
            EXPECT_LT(c.shape.factorAt(hour * 2), 1.1) << "the crowd has gone";
            break;
        case ShapeKind::Quiet:
            EXPECT_LE(c.riseFactor, 0.7) << c.description;
            EXPECT_GE(c.riseFactor, 0.3) << c.description;
            break;
        }
    }
    // Different seeds give different cases: the policy cannot know the minute.
    EXPECT_NE(drawShape(ShapeKind::Step, hour, 1).description,
              drawShape(ShapeKind::Step, hour, 2).description);
}

TEST(ShapeFamily, ABaselineDominatesOnlyWhenItKeepsAsManyForNoMore)
{
    EvaluationResult meridian, cheaper, better, both, worse;
    meridian.withinSloShare = 0.95;
    meridian.rentedCardHours = 40;
    cheaper = meridian;
    cheaper.rentedCardHours = 36;
    better = meridian;
    better.withinSloShare = 0.97;
    both = better;
    both.rentedCardHours = 36;
    worse = cheaper;
    worse.withinSloShare = 0.90;
    EXPECT_TRUE(dominates(cheaper, meridian));
    EXPECT_TRUE(dominates(better, meridian));
    EXPECT_TRUE(dominates(both, meridian));
    EXPECT_FALSE(dominates(worse, meridian)) << "cheaper but keeps fewer";
    EXPECT_FALSE(dominates(meridian, meridian)) << "the same point";
    EvaluationResult nearly = cheaper;
    nearly.withinSloShare = 0.9495;  // within 0.1 points is as many
    EXPECT_TRUE(dominates(nearly, meridian));
}

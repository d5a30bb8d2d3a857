// Which roll-ups answer a period: whole days from days, whole hours from hours, the rest
// from minutes, and the next coarser grain where a finer one is past retention.
#include <gtest/gtest.h>

#include "history/rollupplan.h"
#include "testsupport.h"

using namespace meridian;

namespace {

using test::kDay;
using test::kHour;
using test::kJuly1;

}  // namespace

TEST(RollupPlan, WholeDaysAndHoursComeFromRollupsTheEdgesFromMinutes)
{
    const int64_t from = kJuly1 + 10 * kHour + 30 * 60;  // 10:30 on the 1st
    const int64_t to = kJuly1 + 2 * kDay + 2 * kHour;    // 02:00 on the 3rd
    const std::vector<RollupRead> expected = {
        {Grain::Minute, from, kJuly1 + 11 * kHour},
        {Grain::Hour, kJuly1 + 11 * kHour, kJuly1 + kDay},
        {Grain::Day, kJuly1 + kDay, kJuly1 + 2 * kDay},
        {Grain::Hour, kJuly1 + 2 * kDay, to},
    };
    EXPECT_EQ(planRollupReads(from, to, {}), expected);
    // A whole month is whole days only.
    const std::vector<RollupRead> month = {{Grain::Day, kJuly1, kJuly1 + 31 * kDay}};
    EXPECT_EQ(planRollupReads(kJuly1, kJuly1 + 31 * kDay, {}), month);
}

TEST(RollupPlan, PastRetentionTheCoarserGrainAnswersByRowStart)
{
    const int64_t from = kJuly1 + 10 * kHour + 30 * 60;
    const int64_t to = kJuly1 + 12 * kHour + 15 * 60;
    // Minutes gone before the 3rd: the edges come from hour rows that start inside them.
    KeptRange kept{kJuly1 + 2 * kDay, 0};
    const std::vector<RollupRead> hours = {
        {Grain::Hour, from, kJuly1 + 11 * kHour},
        {Grain::Hour, kJuly1 + 11 * kHour, kJuly1 + 12 * kHour},
        {Grain::Hour, kJuly1 + 12 * kHour, to},
    };
    EXPECT_EQ(planRollupReads(from, to, kept), hours);
    // Hours gone too: only a day row could answer, and none starts inside the period.
    kept.hoursFromUnixS = kJuly1 + kDay;
    for (const RollupRead &read : planRollupReads(from, to, kept))
        EXPECT_EQ(read.grain, Grain::Day);
    // Minutes kept from 11:00 on: the part before comes from hours, the rest from minutes.
    kept = {kJuly1 + 11 * kHour, 0};
    const std::vector<RollupRead> split = planRollupReads(from, kJuly1 + 11 * kHour + 600, kept);
    const std::vector<RollupRead> splitExpected = {
        {Grain::Hour, from, kJuly1 + 11 * kHour},
        {Grain::Minute, kJuly1 + 11 * kHour, kJuly1 + 11 * kHour + 600},
    };
    EXPECT_EQ(split, splitExpected);
}

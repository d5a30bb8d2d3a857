// The paced schedule is the cheapest with at most so many changes: checked against every
// schedule there is on short needs, and on a need long enough to be planned in blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "replay/pacedschedule.h"

using namespace meridian;

namespace {

int changes(const std::vector<int> &schedule)
{
    int n = 0;
    for (size_t m = 1; m < schedule.size(); ++m)
        n += schedule[m] != schedule[m - 1];
    return n;
}

int64_t rentedMinutes(const std::vector<int> &schedule, int freeReplicas)
{
    int64_t sum = 0;
    for (const int replicas : schedule)
        sum += std::max(0, replicas - freeReplicas);
    return sum;
}

bool covers(const std::vector<int> &schedule, const std::vector<int> &need)
{
    if (schedule.size() != need.size())
        return false;
    for (size_t m = 0; m < need.size(); ++m) {
        if (schedule[m] < need[m])
            return false;
    }
    return true;
}

// Every way of cutting the need into at most maxChanges + 1 runs, each at its highest
// minute: the cheapest of them, by brute force.
int64_t cheapestByEveryCut(const std::vector<int> &need, int freeReplicas, int maxChanges)
{
    const size_t cuts = need.size() - 1;
    int64_t best = INT64_MAX;
    for (uint32_t mask = 0; mask < (1u << cuts); ++mask) {
        if (__builtin_popcount(mask) > maxChanges)
            continue;
        int64_t cost = 0;
        size_t start = 0;
        for (size_t end = 1; end <= need.size(); ++end) {
            if (end < need.size() && !(mask & (1u << (end - 1))))
                continue;
            const int top = *std::max_element(need.begin() + static_cast<long>(start),
                                              need.begin() + static_cast<long>(end));
            cost += static_cast<int64_t>(std::max(0, top - freeReplicas)) *
                    static_cast<int64_t>(end - start);
            start = end;
        }
        best = std::min(best, cost);
    }
    return best;
}

}  // namespace

TEST(PacedSchedule, IsTheCheapestWithSoFewChanges)
{
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> replicas(0, 12), length(1, 12), budget(0, 4), owned(0, 5);
    for (int round = 0; round < 300; ++round) {
        std::vector<int> need(static_cast<size_t>(length(rng)));
        for (int &n : need)
            n = replicas(rng);
        const int maxChanges = budget(rng), freeReplicas = owned(rng);
        const std::vector<int> schedule = pacedSchedule(need, freeReplicas, maxChanges);
        ASSERT_TRUE(covers(schedule, need)) << "round " << round;
        EXPECT_LE(changes(schedule), maxChanges) << "round " << round;
        EXPECT_EQ(rentedMinutes(schedule, freeReplicas),
                  cheapestByEveryCut(need, freeReplicas, maxChanges))
            << "round " << round;
    }
}

TEST(PacedSchedule, HoldsThroughAShortDipAndDropsForALongOne)
{
    // Two bursts to 10 over a floor of 2, a 3-minute dip between them, then 22 minutes
    // at the floor before a third.
    std::vector<int> need(40, 2);
    for (const size_t m : {5u, 6u, 10u, 11u, 34u, 35u})
        need[m] = 10;
    const std::vector<int> paced = pacedSchedule(need, 0, 4);
    EXPECT_EQ(paced[8], 10) << "the short dip is held";
    EXPECT_EQ(paced[20], 2) << "the long one is taken";
    EXPECT_EQ(paced[39], 2);
    EXPECT_EQ(changes(paced), 4);
    // With two changes, the long dip is still worth both: the bursts are held from the
    // start and to the end instead.
    std::vector<int> twoChanges(40, 10);
    std::fill(twoChanges.begin() + 12, twoChanges.begin() + 34, 2);
    EXPECT_EQ(pacedSchedule(need, 0, 2), twoChanges);
    // No change allowed: the whole need's peak, throughout.
    EXPECT_EQ(pacedSchedule(need, 0, 0), std::vector<int>(40, 10));
    // Owned replicas cost nothing, so below them nothing is worth a change.
    EXPECT_EQ(changes(pacedSchedule(need, 10, 4)), 0);
    EXPECT_TRUE(pacedSchedule({}, 0, 3).empty());
}

TEST(PacedSchedule, PlansTwoWeeksInBlocks)
{
    // Fourteen days of a daily shape with a short burst each afternoon, 280 changes.
    std::vector<int> need(14 * 1440);
    for (size_t m = 0; m < need.size(); ++m) {
        const size_t minuteOfDay = m % 1440;
        need[m] = minuteOfDay >= 480 && minuteOfDay < 1200 ? 12 : 4;
        if (minuteOfDay >= 900 && minuteOfDay < 903)
            need[m] = 20;
    }
    const std::vector<int> paced = pacedSchedule(need, 4, 280);
    ASSERT_TRUE(covers(paced, need));
    EXPECT_LE(changes(paced), 280);
    // Each day's night is let go: the schedule costs what the day needs, and the bursts
    // cost at most a 5-minute block each on top of it.
    EXPECT_EQ(paced[14 * 1440 - 1], 4);
    EXPECT_LE(rentedMinutes(paced, 4), rentedMinutes(need, 4) + 14 * 5 * 16);
}

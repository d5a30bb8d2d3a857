#include "pacedschedule.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace meridian {

namespace {

// The search costs segments × blocks² / 2 steps: three days of minutes with 60 changes
// plan in about a second.
constexpr size_t kMostBlocks = 3 * 1440;

}  // namespace

namespace {

struct Blocks {
    std::vector<int> level;            // the most any minute of the block needs
    std::vector<int64_t> startMinute;  // of each block, and the end
};

// The need in at most kMostBlocks blocks of whole minutes, so the search stays quadratic
// in blocks, not in minutes.
Blocks blocksOf(const std::vector<int> &need)
{
    const size_t minutes = need.size();
    const size_t width = (minutes + kMostBlocks - 1) / kMostBlocks;
    const size_t blocks = (minutes + width - 1) / width;
    Blocks b{std::vector<int>(blocks, 0), std::vector<int64_t>(blocks + 1, 0)};
    for (size_t m = 0; m < minutes; ++m)
        b.level[m / width] = std::max(b.level[m / width], need[m]);
    for (size_t i = 0; i <= blocks; ++i)
        b.startMinute[i] = static_cast<int64_t>(std::min(i * width, minutes));
    return b;
}

}  // namespace

std::vector<int> pacedSchedule(const std::vector<int> &need, int freeReplicas, int maxChanges)
{
    const size_t minutes = need.size();
    if (minutes == 0)
        return {};
    const auto [level, startMinute] = blocksOf(need);
    const size_t blocks = level.size();
    // More segments than the need has runs of one level cannot cost less.
    size_t runs = 1;
    for (size_t b = 1; b < blocks; ++b)
        runs += level[b] != level[b - 1];
    const size_t segments = std::min(runs, static_cast<size_t>(std::max(0, maxChanges)) + 1);

    // cheapest[j]: the fewest replica-minutes covering blocks [0, j) with the segments so
    // far; lastStart[s][j]: where the last of s + 1 segments starts in that cover.
    constexpr int64_t kNone = std::numeric_limits<int64_t>::max() / 4;
    std::vector<int64_t> cheapest(blocks + 1, kNone), next(blocks + 1, kNone);
    cheapest[0] = 0;
    std::vector<std::vector<uint32_t>> lastStart(segments, std::vector<uint32_t>(blocks + 1, 0));
    int64_t bestCost = kNone;
    size_t bestSegments = 0;
    for (size_t s = 0; s < segments; ++s) {
        std::fill(next.begin(), next.end(), kNone);
        for (size_t j = s + 1; j <= blocks; ++j) {
            int top = 0;
            for (size_t i = j; i-- > s;) {
                top = std::max(top, level[i]);
                if (cheapest[i] >= kNone)
                    continue;
                const int64_t cost =
                    cheapest[i] + static_cast<int64_t>(std::max(0, top - freeReplicas)) *
                                      (startMinute[j] - startMinute[i]);
                if (cost < next[j]) {
                    next[j] = cost;
                    lastStart[s][j] = static_cast<uint32_t>(i);
                }
            }
        }
        if (next[blocks] < bestCost) {
            bestCost = next[blocks];
            bestSegments = s + 1;
        }
        std::swap(cheapest, next);
    }

    std::vector<int> schedule(minutes, 0);
    size_t end = blocks;
    for (size_t s = bestSegments; s-- > 0;) {
        const size_t start = lastStart[s][end];
        const int top = *std::max_element(level.begin() + static_cast<long>(start),
                                          level.begin() + static_cast<long>(end));
        std::fill(schedule.begin() + startMinute[start], schedule.begin() + startMinute[end], top);
        end = start;
    }
    return schedule;
}

}  // namespace meridian

#include "rollupplan.h"

#include <algorithm>
#include <limits>

namespace meridian {

int64_t grainSeconds(Grain grain)
{
    switch (grain) {
    case Grain::Day: return 86400;
    case Grain::Hour: return 3600;
    case Grain::Minute: return 60;
    }
    return 60;
}

namespace {

int64_t keptFrom(Grain grain, const KeptRange &kept)
{
    switch (grain) {
    case Grain::Day: return std::numeric_limits<int64_t>::min();  // days are kept forever
    case Grain::Hour: return kept.hoursFromUnixS;
    case Grain::Minute: return kept.minutesFromUnixS;
    }
    return 0;
}

Grain coarser(Grain grain)
{
    return grain == Grain::Minute ? Grain::Hour : Grain::Day;
}
Grain finer(Grain grain)
{
    return grain == Grain::Day ? Grain::Hour : Grain::Minute;
}

// Rows of `grain` starting in [from, to); the part its rows no longer cover goes coarser.
void read(Grain grain, int64_t from, int64_t to, const KeptRange &kept,
          std::vector<RollupRead> &out)
{
    if (from >= to)
        return;
    if (const int64_t kf = keptFrom(grain, kept); from < kf) {
        read(coarser(grain), from, std::min(to, kf), kept, out);
        from = kf;
        if (from >= to)
            return;
    }
    out.push_back({grain, from, to});
}

void cover(Grain grain, int64_t from, int64_t to, const KeptRange &kept,
           std::vector<RollupRead> &out)
{
    if (from >= to)
        return;
    if (grain == Grain::Minute) {
        read(grain, from, to, kept, out);
        return;
    }
    const int64_t size = grainSeconds(grain);
    const int64_t firstWhole = (from + size - 1) / size * size;
    const int64_t endWhole = to / size * size;
    if (firstWhole >= endWhole) {
        cover(finer(grain), from, to, kept, out);
        return;
    }
    cover(finer(grain), from, firstWhole, kept, out);
    read(grain, firstWhole, endWhole, kept, out);
    cover(finer(grain), endWhole, to, kept, out);
}

}  // namespace

std::vector<RollupRead> planRollupReads(int64_t fromUnixS, int64_t toUnixS, KeptRange kept)
{
    std::vector<RollupRead> out;
    cover(Grain::Day, fromUnixS, toUnixS, kept, out);
    return out;
}

}  // namespace meridian

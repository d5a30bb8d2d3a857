#include "shapefamily.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace meridian {

namespace {

constexpr double kEdgeS = 30;  // how long a rise or a fall takes

struct KindName {
    ShapeKind kind;
    const char *name;
};
constexpr KindName kKindNames[] = {
    {ShapeKind::Step, "step"},
    {ShapeKind::Ramp, "ramp"},
    {ShapeKind::Burst, "burst"},
    {ShapeKind::DoubleBurst, "double-burst"},
    {ShapeKind::FlashCrowd, "flash-crowd"},
    {ShapeKind::Quiet, "quiet"},
};

class Draw {
public:
    explicit Draw(uint64_t seed) : m_rng(seed * 0x9E3779B97F4A7C15ULL + 0x51ED27) {}
    double uniform(double low, double high)
    {
        return std::uniform_real_distribution<double>(low, high)(m_rng);
    }

private:
    std::mt19937_64 m_rng;
};

// Knots of a burst of `factor` from `startS` for `lengthS`, back to 1 after.
void addBurst(std::vector<std::pair<double, double>> &knots, double startS, double lengthS,
              double factor)
{
    knots.emplace_back(startS, 1.0);
    knots.emplace_back(startS + kEdgeS, factor);
    knots.emplace_back(startS + kEdgeS + lengthS, factor);
    knots.emplace_back(startS + 2 * kEdgeS + lengthS, 1.0);
}

double nearestMinute(double seconds)
{
    return std::round(seconds / 60);
}

// Two bursts of their own heights and lengths, a gap apart, both inside the run.
std::string doubleBurst(Draw &draw, double durationS, std::vector<std::pair<double, double>> &knots)
{
    const double first = draw.uniform(2, 4), second = draw.uniform(2, 4);
    const double firstLengthS = 60 * draw.uniform(1, 10);
    const double secondLengthS = 60 * draw.uniform(1, 10);
    const double gapS = 60 * draw.uniform(3, 15);
    const double span = firstLengthS + gapS + secondLengthS + 4 * kEdgeS;
    const double at =
        std::max(0.1 * durationS, draw.uniform(0.1, 0.9) * std::max(0.0, durationS - span));
    addBurst(knots, at, firstLengthS, first);
    const double secondAt = at + 2 * kEdgeS + firstLengthS + gapS;
    addBurst(knots, secondAt, secondLengthS, second);
    return fmt::format("bursts ×{:.1f} at minute {:.0f} and ×{:.1f} at minute {:.0f}", first,
                       nearestMinute(at), second, nearestMinute(secondAt));
}

// A jump whose excess over the usual load halves every half-life: knots every 30 s.
std::string flashCrowd(Draw &draw, double durationS, std::vector<std::pair<double, double>> &knots)
{
    const double factor = draw.uniform(3, 6);
    const double at = durationS * draw.uniform(0.15, 0.7);
    const double halfLifeS = 60 * draw.uniform(1, 5);
    knots.emplace_back(at, 1.0);
    for (double t = 0; t <= 6 * halfLifeS; t += 30)
        knots.emplace_back(at + kEdgeS + t, 1 + (factor - 1) * std::exp2(-t / halfLifeS));
    return fmt::format("flash crowd ×{:.1f} at minute {:.0f}, halving every {:.1f} min", factor,
                       nearestMinute(at), halfLifeS / 60);
}

}  // namespace

std::string_view shapeKindName(ShapeKind kind)
{
    for (const KindName &k : kKindNames) {
        if (k.kind == kind)
            return k.name;
    }
    return "step";
}

std::optional<ShapeKind> shapeKindNamed(std::string_view name)
{
    for (const KindName &k : kKindNames) {
        if (name == k.name)
            return k.kind;
    }
    return std::nullopt;
}

const std::vector<ShapeKind> &allShapeKinds()
{
    static const std::vector<ShapeKind> kinds = [] {
        std::vector<ShapeKind> all;
        for (const KindName &k : kKindNames)
            all.push_back(k.kind);
        return all;
    }();
    return kinds;
}

ShapeCase drawShape(ShapeKind kind, double durationS, uint64_t seed)
{
    Draw draw(seed * 8 + static_cast<uint64_t>(kind));
    ShapeCase c;
    c.kind = kind;
    c.seed = seed;
    std::vector<std::pair<double, double>> knots;
    switch (kind) {
    case ShapeKind::Step: {
        const double factor = draw.uniform(1.5, 4);
        const double at = durationS * draw.uniform(0.15, 0.7);
        knots = {{at, 1.0}, {at + kEdgeS, factor}};
        c.description = fmt::format("step ×{:.1f} at minute {:.0f}", factor, nearestMinute(at));
        break;
    }
    case ShapeKind::Ramp: {
        const double factor = draw.uniform(1.5, 4);
        const double at = durationS * draw.uniform(0.1, 0.5);
        const double lengthS = 60 * draw.uniform(5, 20);
        knots = {{at, 1.0}, {at + lengthS, factor}};
        c.description = fmt::format("ramp to ×{:.1f} over {:.0f} min from minute {:.0f}", factor,
                                    lengthS / 60, nearestMinute(at));
        break;
    }
    case ShapeKind::Burst: {
        const double factor = draw.uniform(2, 4);
        const double at = durationS * draw.uniform(0.15, 0.8);
        const double lengthS = 60 * draw.uniform(1, 10);
        addBurst(knots, at, lengthS, factor);
        c.description = fmt::format("burst ×{:.1f} for {:.0f} min at minute {:.0f}", factor,
                                    lengthS / 60, nearestMinute(at));
        break;
    }
    case ShapeKind::DoubleBurst: c.description = doubleBurst(draw, durationS, knots); break;
    case ShapeKind::FlashCrowd: c.description = flashCrowd(draw, durationS, knots); break;
    case ShapeKind::Quiet: {
        const double factor = draw.uniform(0.3, 0.7);
        knots = {{0.0, factor}};
        c.description = fmt::format("quiet ×{:.2f} all along", factor);
        break;
    }
    }
    c.shape = LoadShape(std::move(knots));
    c.riseFactor = c.shape.highest();
    return c;
}

Result<ShapeCase> parseShape(const std::string &spec, double durationS)
{
    const auto refused = [&] {
        return Error{fmt::format(
            "shape {}: expected step:F@MINUTE, ramp:F@MINUTE+MINUTES, burst:F@MINUTE+MINUTES "
            "(F from 0.1 to 20) or KIND#SEED (KIND: step, ramp, burst, double-burst, "
            "flash-crowd, quiet)",
            spec)};
    };
    if (const size_t hash = spec.find('#'); hash != std::string::npos) {
        const auto kind = shapeKindNamed(spec.substr(0, hash));
        const std::string seed = spec.substr(hash + 1);
        if (!kind || seed.empty() || seed.size() > 9 ||
            seed.find_first_not_of("0123456789") != std::string::npos)
            return refused();
        return drawShape(*kind, durationS, std::stoull(seed));
    }
    const size_t colon = spec.find(':');
    if (colon == std::string::npos)
        return refused();
    const std::string kindName = spec.substr(0, colon);
    double factor = 0, minute = 0, length = 0;
    char extra = 0;
    const std::string rest = spec.substr(colon + 1);
    const bool withLength = kindName == "ramp" || kindName == "burst";
    const int read =
        withLength ? std::sscanf(rest.c_str(), "%lf@%lf+%lf%c", &factor, &minute, &length, &extra)
                   : std::sscanf(rest.c_str(), "%lf@%lf%c", &factor, &minute, &extra);
    if (read != (withLength ? 3 : 2) || !(factor >= 0.1 && factor <= 20) ||
        !(minute >= 0 && minute <= 1e6) || (withLength && !(length > 0 && length <= 1e6)))
        return refused();
    ShapeCase c;
    const double at = minute * 60, lengthS = length * 60;
    std::vector<std::pair<double, double>> knots;
    if (kindName == "step") {
        c.kind = ShapeKind::Step;
        knots = {{at, 1.0}, {at + kEdgeS, factor}};
        c.description = fmt::format("step ×{:g} at minute {:g}", factor, minute);
    } else if (kindName == "ramp") {
        c.kind = ShapeKind::Ramp;
        knots = {{at, 1.0}, {at + lengthS, factor}};
        c.description =
            fmt::format("ramp to ×{:g} over {:g} min from minute {:g}", factor, length, minute);
    } else if (kindName == "burst") {
        c.kind = ShapeKind::Burst;
        addBurst(knots, at, lengthS, factor);
        c.description =
            fmt::format("burst ×{:g} for {:g} min at minute {:g}", factor, length, minute);
    } else {
        return refused();
    }
    c.shape = LoadShape(std::move(knots));
    c.riseFactor = c.shape.highest();
    return c;
}

std::vector<ShapeCase> shapeFamily(const std::vector<ShapeKind> &kinds, double durationS, int seeds,
                                   uint64_t firstSeed)
{
    std::vector<ShapeCase> family;
    for (const ShapeKind kind : kinds) {
        for (int i = 0; i < seeds; ++i)
            family.push_back(drawShape(kind, durationS, firstSeed + static_cast<uint64_t>(i)));
    }
    return family;
}

}  // namespace meridian

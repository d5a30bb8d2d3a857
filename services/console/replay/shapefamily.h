// The load shapes a policy is judged on besides the traces as they came: steps, ramps,
// bursts, double bursts, flash crowds and quiet days, each drawn from a seed (factor,
// minute, length), laid over a real trace so its own burstiness stays. A policy is
// improved on the family, never on one of its members: the minutes and factors of a
// case are not known to the policy, and a new seed is a case it has never seen.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "loadshape.h"

namespace meridian {

enum class ShapeKind { Step, Ramp, Burst, DoubleBurst, FlashCrowd, Quiet };

struct ShapeCase {
    ShapeKind kind = ShapeKind::Step;
    uint64_t seed = 0;
    LoadShape shape = LoadShape::flat(1);
    std::string description;  // "step ×3.1 at minute 24"
    double riseFactor = 1;    // the highest factor the shape reaches
};

std::string_view shapeKindName(ShapeKind kind);  // "step", "double-burst", …
std::optional<ShapeKind> shapeKindNamed(std::string_view name);
const std::vector<ShapeKind> &allShapeKinds();

// One case of `kind` over a trace of `durationS`, its parameters drawn from `seed`:
// - step: ×1.5–×4 at a minute between 15% and 70% of the trace, held to the end;
// - ramp: to ×1.5–×4 over 5–20 minutes, from a minute between 10% and 50%;
// - burst: ×2–×4 for 1–10 minutes, at a minute between 15% and 80%;
// - double burst: two such bursts, 3–15 minutes apart;
// - flash crowd: ×3–×6 at once, halving every 1–5 minutes;
// - quiet: ×0.3–×0.7 all along (nothing happens; nothing should be rented).
// Every rise and fall takes 30 s, as a real crowd arrives.
ShapeCase drawShape(ShapeKind kind, double durationS, uint64_t seed);

// A shape as a person writes it: `step:3@20` (×3 from minute 20), `ramp:3@20+10` (to ×3
// over 10 minutes from minute 20), `burst:3@20+5` (×3 for 5 minutes from minute 20), or
// `KIND#SEED` (that case of the family, drawn over `durationS`: `double-burst#7`). A
// spec that does not read is refused with what was expected.
Result<ShapeCase> parseShape(const std::string &spec, double durationS);

// `seeds` cases of each kind, seeds firstSeed, firstSeed + 1, ….
std::vector<ShapeCase> shapeFamily(const std::vector<ShapeKind> &kinds, double durationS, int seeds,
                                   uint64_t firstSeed);

}  // namespace meridian

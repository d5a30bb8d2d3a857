// A pool provider is a program, in the style of Slurm's ResumeProgram: the pool runs
// COMMAND lease|release|list with a JSON object on stdin and reads a JSON object from
// its stdout (docs/pool.md has the contract). Exit status 0 is success; anything else,
// a timeout, or output that is not a JSON object is an error naming the provider and
// the verb, with the program's own words.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "core/result.h"
#include "poolconfig.h"

namespace meridian {

Result<nlohmann::json> callProvider(const ProviderConfig &provider, const std::string &verb,
                                    const nlohmann::json &input);

// How the pool asks a provider: callProvider runs its command; the simulator answers in its
// own process (sim/simcloudprovider.h), on the same contract.
using ProviderCall = std::function<Result<nlohmann::json>(
    const ProviderConfig &provider, const std::string &verb, const nlohmann::json &input)>;

}  // namespace meridian

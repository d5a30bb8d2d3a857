// The inference servers a replica can be: each names its metrics differently
// (telemetry/replicametrics.h), and a service declares which one it runs.
#pragma once

#include <optional>
#include <string_view>

namespace meridian {

enum class ServingEngine { Vllm, MindIe, Tgi, LlamaCpp };

// "vllm", "mindie", "tgi", "llamacpp" (or "llama.cpp"); anything else: no engine.
std::optional<ServingEngine> servingEngineNamed(std::string_view name);
std::string_view servingEngineName(ServingEngine engine);

}  // namespace meridian

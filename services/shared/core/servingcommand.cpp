#include "servingcommand.h"

namespace meridian {

std::optional<ServingEngine> servingEngineNamed(std::string_view name)
{
    if (name == "vllm")
        return ServingEngine::Vllm;
    if (name == "mindie")
        return ServingEngine::MindIe;
    if (name == "tgi")
        return ServingEngine::Tgi;
    if (name == "llamacpp" || name == "llama.cpp")
        return ServingEngine::LlamaCpp;
    return std::nullopt;
}

std::string_view servingEngineName(ServingEngine engine)
{
    switch (engine) {
    case ServingEngine::Vllm: return "vllm";
    case ServingEngine::MindIe: return "mindie";
    case ServingEngine::Tgi: return "tgi";
    case ServingEngine::LlamaCpp: return "llamacpp";
    }
    return "vllm";
}

}  // namespace meridian

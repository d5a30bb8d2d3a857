#include "providerplugin.h"

#include <fmt/format.h>

#include "core/toolrunner.h"

namespace meridian {

Result<nlohmann::json> callProvider(const ProviderConfig &provider, const std::string &verb,
                                    const nlohmann::json &input)
{
    ToolRun run;
    run.argv = provider.command;
    run.argv.push_back(verb);
    run.timeoutMs = provider.timeoutSeconds * 1000;
    run.maxOutputBytes = 4 * 1024 * 1024;
    run.input = input.dump();
    auto output = runTool(run);
    if (!output)
        return Error{
            fmt::format("provider {}: {}: {}", provider.name, verb, output.error().message)};
    const auto answer = nlohmann::json::parse(*output, nullptr, false);
    if (answer.is_discarded() || !answer.is_object())
        return Error{fmt::format("provider {}: {}: answered with no JSON object: '{}'",
                                 provider.name, verb, output->substr(0, 120))};
    return answer;
}

}  // namespace meridian

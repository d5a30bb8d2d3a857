#include "yamlfile.h"

#include <fmt/format.h>

#include "telemetry/toolrunner.h"

namespace meridian {

Result<YAML::Node> loadYamlFile(const std::string &path, size_t maxBytes)
{
    auto text = readTextFile(path, maxBytes);
    if (!text)
        return text.error();
    try {
        return YAML::Load(text.value());
    } catch (const YAML::ParserException &e) {
        return Error{fmt::format("{}:{}: {}", path, e.mark.line + 1, e.msg)};
    }
}

Error yamlError(const std::string &path, const YAML::Node &node, std::string_view what)
{
    const YAML::Mark mark = node.Mark();
    if (mark.line < 0)
        return Error{fmt::format("{}: {}", path, what)};
    return Error{fmt::format("{}:{}: {}", path, mark.line + 1, what)};
}

}  // namespace meridian

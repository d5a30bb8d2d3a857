#include "yamlfile.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace meridian {

Result<YAML::Node> loadYamlFile(const std::string &path, size_t maxBytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{fmt::format("{}: cannot open: {}", path, std::strerror(errno))};
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().size() > maxBytes)
        return Error{
            fmt::format("{}: more than {} bytes; not a file a person writes", path, maxBytes)};
    try {
        return YAML::Load(text.str());
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

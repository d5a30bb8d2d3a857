#include "yamlfile.h"

#include <fmt/format.h>

#include <yaml-cpp/depthguard.h>

#include <filesystem>

#include "core/cardcatalog.h"
#include "core/textfile.h"

namespace meridian {

std::string besideFile(const std::string &file, const std::string &path)
{
    if (path.empty() || std::filesystem::path(path).is_absolute())
        return path;
    return (std::filesystem::path(file).parent_path() / path).string();
}

Result<YAML::Node> loadYamlFile(const std::string &path, size_t maxBytes)
{
    auto text = readTextFile(path, maxBytes);
    if (!text)
        return text.error();
    try {
        return YAML::Load(text.value());
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
}

Error yamlError(const std::string &path, const YAML::Exception &exception)
{
    // yaml-cpp's own words for its depth limit are "bad file".
    const auto *deep = dynamic_cast<const YAML::DeepRecursion *>(&exception);
    const std::string what =
        deep ? fmt::format("nested {} levels deep; no Meridian file nests more than a few",
                           deep->depth())
             : exception.msg;
    if (exception.mark.is_null())
        return Error{fmt::format("{}: {}", path, what)};
    return Error{fmt::format("{}:{}: {}", path, exception.mark.line + 1, what)};
}

namespace {

std::string knownCardModel(const YAML::Node &value, const std::string &named)
{
    if (!lookupCardModel(named)) {
        throw YAML::Exception(value.Mark(),
                              fmt::format("card model '{}' is not one Meridian knows ({})", named,
                                          knownCardModels()));
    }
    return canonicalCardModel(named);
}

}  // namespace

std::string yamlCardModel(const YAML::Node &value)
{
    return knownCardModel(value, yamlScalar<std::string>(value, "a card model"));
}

std::string yamlCardModel(const YAML::Node &parent, std::string_view key)
{
    const std::string named = yamlValue<std::string>(parent, key, "");
    return named.empty() ? named : knownCardModel(parent[std::string(key)], named);
}

Status checkKeys(const std::string &path, const YAML::Node &map, const std::set<std::string> &known)
{
    if (!map.IsMap())
        return yamlError(path, map, "expected a mapping of settings here");
    for (const auto &entry : map) {
        const std::string key = entry.first.as<std::string>();
        if (!known.count(key))
            return yamlError(path, entry.first, fmt::format("unknown key '{}'", key));
    }
    return {};
}

void throwBadYamlValue(const YAML::Node &node, std::string_view key, std::string_view expected)
{
    std::string shown;
    if (node.IsScalar())
        shown = fmt::format(" ('{}')", node.Scalar().substr(0, 60));
    throw YAML::Exception(node.Mark(), fmt::format("{} must be {}{}", key, expected, shown));
}

Error yamlError(const std::string &path, const YAML::Node &node, std::string_view what)
{
    const YAML::Mark mark = node.Mark();
    if (mark.line < 0)
        return Error{fmt::format("{}: {}", path, what)};
    return Error{fmt::format("{}:{}: {}", path, mark.line + 1, what)};
}

void throwNotAMapping(const YAML::Node &node, std::string_view key)
{
    const char *found = node.IsSequence() ? "a list"
                        : node.IsScalar() ? "a single value"
                                          : "nothing";
    throw YAML::Exception(node.Mark(),
                          fmt::format("expected a mapping with {}: here, found {}", key, found));
}

}  // namespace meridian

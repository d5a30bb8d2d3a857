// YAML inputs a person writes (agent config, scenarios, inventories): loading, and
// errors that name the file and the line.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/result.h"

namespace meridian {

template <typename T>
constexpr std::string_view yamlTypeName()
{
    if constexpr (std::is_same_v<T, bool>)
        return "true or false";
    else if constexpr (std::is_integral_v<T>)
        return "a whole number";
    else if constexpr (std::is_floating_point_v<T>)
        return "a number";
    else
        return "text";
}

// A path written in `file`: relative paths are relative to the file, as a person writing
// it expects; empty and absolute ones are kept.
std::string besideFile(const std::string &file, const std::string &path);

Result<YAML::Node> loadYamlFile(const std::string &path, size_t maxBytes = 4 << 20);

// A service's configuration file (agent, pool, meridian-scaled): loads `path` (at most
// 1 MiB) and hands its root to `read(root)`, which returns a Status; a yaml-cpp exception
// it lets through becomes an error naming the file and line.
template <typename Read>
Status readYamlConfig(const std::string &path, Read read);

// "FILE:LINE: what" for the node's place in the file.
Error yamlError(const std::string &path, const YAML::Node &node, std::string_view what);

// "FILE:LINE: what" for an exception a reader let through (a scalar where a mapping
// belongs, `tls: yes`), so no yaml-cpp exception ever leaves a reader.
Error yamlError(const std::string &path, const YAML::Exception &exception);

// A card model named by a config file, in the catalogue's name (cardcatalog.h); empty
// when the key is absent. A model the catalogue does not know is thrown (as a
// YAML::Exception, with its line): placement compares names, so a name nothing reports
// would leave cards idle without a word.
std::string yamlCardModel(const YAML::Node &parent, std::string_view key);
std::string yamlCardModel(const YAML::Node &value);

// A mapping whose keys must all be known; the first unknown one is named with its line.
Status checkKeys(const std::string &path, const YAML::Node &map,
                 const std::set<std::string> &known);

// Thrown (as a YAML::Exception, caught by the reader) for a value that is there but
// wrong: it names the key and what was expected.
[[noreturn]] void throwBadYamlValue(const YAML::Node &node, std::string_view key,
                                    std::string_view expected);
// Thrown where a mapping holding `key` was expected and something else stands.
[[noreturn]] void throwNotAMapping(const YAML::Node &node, std::string_view key);

// The scalar at `node` as T. Unlike yaml-cpp's as<T>(fallback), a value that does not
// convert (cards_per_replica: eight) or a number that is not finite (.nan, .inf) is an
// error naming the key, never a silent default.
template <typename T>
T yamlScalar(const YAML::Node &node, std::string_view key)
{
    T value{};
    if (!node.IsScalar() || !YAML::convert<T>::decode(node, value))
        throwBadYamlValue(node, key, yamlTypeName<T>());
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(value))
            throwBadYamlValue(node, key, "a finite number");
    }
    return value;
}

// parent[key] as T, or `fallback` only when the key is absent (or null).
template <typename T>
T yamlValue(const YAML::Node &parent, std::string_view key, T fallback)
{
    if (!parent.IsMap() && !parent.IsNull())
        throwNotAMapping(parent, key);
    const YAML::Node node = parent[std::string(key)];
    if (!node || node.IsNull())
        return fallback;
    return yamlScalar<T>(node, key);
}

// Sets `out` from parent[key] when the key is there, and leaves it as it is when not (a
// default set before, or a value an earlier file gave). A value of the wrong type
// throws, for the reader's catch to report with its line.
template <typename T>
void yamlRead(const YAML::Node &parent, std::string_view key, T &out)
{
    out = yamlValue<T>(parent, key, out);
}

template <typename Read>
Status readYamlConfig(const std::string &path, Read read)
{
    auto loaded = loadYamlFile(path, 1 << 20);
    if (!loaded)
        return loaded.error();
    try {
        return read(loaded.value());
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
}

}  // namespace meridian

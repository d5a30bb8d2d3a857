// YAML inputs a person writes (agent config, scenarios, inventories): loading, and
// errors that name the file and the line.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "core/result.h"

namespace meridian {

Result<YAML::Node> loadYamlFile(const std::string &path, size_t maxBytes = 4 << 20);

// "FILE:LINE: what" for the node's place in the file.
Error yamlError(const std::string &path, const YAML::Node &node, std::string_view what);

}  // namespace meridian

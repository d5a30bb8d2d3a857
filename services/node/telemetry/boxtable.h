// Helpers for the box-drawn tables npu-smi and cnmon print ("| a | b | c |").
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace meridian {

// The cells of a "| a | b |" row, trimmed; empty when the line is not such a row.
std::vector<std::string_view> boxCells(std::string_view line);

// "0000:C1:00.0" and "00000000:01:00.0".
bool looksLikePciBusId(std::string_view text);

// "107 W/ 250 W" or "29954/ 65536": the two sides of a slash, trimmed.
std::optional<std::pair<std::string_view, std::string_view>> splitRatio(std::string_view text);

}  // namespace meridian

// Guards every parser runs before it looks at tool output: hostile or broken output
// (binary garbage, a 10 MB line, a runaway card count) becomes an error that names the
// line, never a crash or a huge allocation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.h"

namespace meridian {

constexpr size_t kMaxToolOutputBytes = 16 * 1024 * 1024;
constexpr size_t kMaxLineBytes = 1024 * 1024;
constexpr size_t kMaxCardsPerNode = 256;
constexpr size_t kMaxNicsPerNode = 256;

Error lineError(size_t lineNumber, std::string_view what);

// Checks size, line length and that the text is text. Line numbers are 1-based.
Status checkToolOutput(std::string_view text);

}  // namespace meridian

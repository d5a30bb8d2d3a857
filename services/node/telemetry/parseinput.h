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
// Real lldpctl JSON nests about ten deep and nvidia-smi XML five; a tree deeper than
// this is hostile, and deep trees are what overflow a stack.
constexpr size_t kMaxNestingDepth = 64;
// nvidia-smi -q -x prints ~25 KB a GPU; each element costs the DOM ~50 bytes, so the
// cap bounds what a parse can allocate.
constexpr size_t kMaxXmlBytes = 2 * 1024 * 1024;

Error lineError(size_t lineNumber, std::string_view what);

// Checks size, line length and that the text is text. Line numbers are 1-based.
Status checkToolOutput(std::string_view text);

// Refuses JSON whose arrays and objects nest deeper than kMaxNestingDepth, naming the
// line, before any parser builds the tree.
Status checkJsonNesting(std::string_view text);

// The same for XML elements, and XML over kMaxXmlBytes.
Status checkXmlShape(std::string_view text);

}  // namespace meridian

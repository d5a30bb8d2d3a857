// How deep a JSON text nests, found by a scan before any parser builds a tree of it: deep
// trees are what overflow a stack (a parser may be iterative, but copying and freeing the
// tree it built are not), and hostile peers send them on purpose.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace meridian {

// The line (1-based) where the text's arrays and objects first nest deeper than
// `maxDepth`; none when they never do. Brackets inside strings do not count.
std::optional<size_t> lineNestedDeeperThan(std::string_view text, size_t maxDepth);

}  // namespace meridian

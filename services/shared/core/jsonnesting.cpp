#include "jsonnesting.h"

namespace meridian {

std::optional<size_t> lineNestedDeeperThan(std::string_view text, size_t maxDepth)
{
    size_t depth = 0;
    size_t line = 1;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
        } else if (inString) {
            if (c == '\\')
                ++i;  // an escaped character, possibly a quote
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return line;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

}  // namespace meridian

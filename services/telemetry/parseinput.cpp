#include "parseinput.h"

#include <fmt/format.h>

namespace meridian {

Error lineError(size_t lineNumber, std::string_view what)
{
    return Error{fmt::format("line {}: {}", lineNumber, what)};
}

Status checkToolOutput(std::string_view text)
{
    if (text.size() > kMaxToolOutputBytes) {
        return Error{
            fmt::format("output is {} bytes; more than the {} bytes any vendor tool prints",
                        text.size(), kMaxToolOutputBytes)};
    }
    size_t line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            lineStart = i + 1;
            continue;
        }
        if (i - lineStart > kMaxLineBytes) {
            return lineError(line, fmt::format("line longer than {} bytes; the output is not "
                                               "what the tool prints",
                                               kMaxLineBytes));
        }
        if (c < 0x20 && c != '\t' && c != '\r' && c != 0x1b) {
            return lineError(line, fmt::format("binary data (byte 0x{:02x} at column {})", c,
                                               i - lineStart + 1));
        }
    }
    return {};
}

}  // namespace meridian

#include "parseinput.h"

#include <fmt/format.h>

#include "core/jsonnesting.h"

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

namespace {

Error tooDeep(size_t line)
{
    return lineError(
        line, fmt::format("nested more than {} deep; not what the tool prints", kMaxNestingDepth));
}

}  // namespace

Status checkJsonNesting(std::string_view text)
{
    if (const auto line = lineNestedDeeperThan(text, kMaxNestingDepth))
        return tooDeep(*line);
    return {};
}

Status checkXmlShape(std::string_view text)
{
    if (text.size() > kMaxXmlBytes) {
        return Error{fmt::format("XML of {} bytes; more than the {} nvidia-smi prints for a node",
                                 text.size(), kMaxXmlBytes)};
    }
    size_t depth = 0;
    size_t line = 1;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            continue;
        }
        if (text[i] != '<' || i + 1 >= text.size())
            continue;
        const char next = text[i + 1];
        if (next == '/') {
            depth -= depth > 0 ? 1 : 0;
        } else if (next != '!' && next != '?') {
            const size_t close = text.find('>', i);
            const bool selfClosing = close != std::string_view::npos && text[close - 1] == '/';
            if (!selfClosing && ++depth > kMaxNestingDepth)
                return tooDeep(line);
        }
    }
    return {};
}

}  // namespace meridian

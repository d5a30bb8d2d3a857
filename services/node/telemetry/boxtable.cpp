#include "boxtable.h"

#include <cctype>

#include "core/textutil.h"

namespace meridian {

std::vector<std::string_view> boxCells(std::string_view line)
{
    line = trim(line);
    if (line.size() < 2 || line.front() != '|' || line.back() != '|')
        return {};
    std::vector<std::string_view> cells = split(line.substr(1, line.size() - 2), '|');
    for (auto &cell : cells)
        cell = trim(cell);
    return cells;
}

bool looksLikePciBusId(std::string_view text)
{
    text = trim(text);
    const size_t colon = text.rfind(':');
    const size_t dot = text.rfind('.');
    if (colon == std::string_view::npos || dot == std::string_view::npos || dot < colon ||
        text.size() < 7) {
        return false;
    }
    for (char c : text) {
        if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.')
            return false;
    }
    return true;
}

std::optional<std::pair<std::string_view, std::string_view>> splitRatio(std::string_view text)
{
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    return std::make_pair(trim(text.substr(0, slash)), trim(text.substr(slash + 1)));
}

}  // namespace meridian

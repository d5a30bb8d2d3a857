#include "textutil.h"

#include <absl/time/time.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace meridian {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

}  // namespace

std::string_view trim(std::string_view text)
{
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> split(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    size_t start = 0;
    while (true) {
        const size_t pos = text.find(separator, start);
        if (pos == std::string_view::npos) {
            parts.push_back(text.substr(start));
            return parts;
        }
        parts.push_back(text.substr(start, pos - start));
        start = pos + 1;
    }
}

std::vector<std::string_view> splitWhitespace(std::string_view text)
{
    std::vector<std::string_view> parts;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSpace(text[i]))
            ++i;
        const size_t start = i;
        while (i < text.size() && !isSpace(text[i]))
            ++i;
        if (i > start)
            parts.push_back(text.substr(start, i - start));
    }
    return parts;
}

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines = split(text, '\n');
    if (!lines.empty() && lines.back().empty())
        lines.pop_back();
    for (auto &line : lines) {
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
    }
    return lines;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

std::string toLower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool isNotAvailable(std::string_view text)
{
    text = trim(text);
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
        text = trim(text.substr(1, text.size() - 2));
    return text.empty() || text == "-" || text == "--" || equalsIgnoreCase(text, "N/A") ||
           equalsIgnoreCase(text, "NA") || equalsIgnoreCase(text, "Not Supported") ||
           equalsIgnoreCase(text, "Unknown Error") || contains(text, "deprecated") ||
           contains(text, "Not Available") || contains(text, "Insufficient Permissions");
}

std::optional<double> parseNumber(std::string_view text, std::string_view unit, bool allowThousands)
{
    text = trim(text);
    if (isNotAvailable(text))
        return std::nullopt;
    if (!unit.empty() && text.size() >= unit.size() &&
        equalsIgnoreCase(text.substr(text.size() - unit.size()), unit)) {
        text = trim(text.substr(0, text.size() - unit.size()));
    }
    std::string digits;
    digits.reserve(text.size());
    for (char c : text) {
        if (c == ',' && allowThousands)
            continue;
        digits.push_back(c);
    }
    if (digits.empty() || digits.size() > 64)
        return std::nullopt;
    double value = 0;
    const char *begin = digits.data();
    const char *end = digits.data() + digits.size();
    if (*begin == '+')
        ++begin;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<uint64_t> parseUnsigned(std::string_view text, std::string_view unit,
                                      bool allowThousands)
{
    const auto value = parseNumber(text, unit, allowThousands);
    if (!value || *value < 0 || *value > 1.8e19 || std::floor(*value) != *value)
        return std::nullopt;
    return static_cast<uint64_t>(*value);
}

std::optional<uint64_t> parseMemoryBytes(std::string_view text)
{
    struct Unit {
        std::string_view suffix;
        double factor;
    };
    static constexpr Unit units[] = {{"GiB", 1024.0 * 1024 * 1024},
                                     {"MiB", 1024.0 * 1024},
                                     {"KiB", 1024.0},
                                     {"GB", 1024.0 * 1024 * 1024},
                                     {"MB", 1024.0 * 1024},
                                     {"KB", 1024.0},
                                     {"B", 1.0}};
    text = trim(text);
    for (const Unit &unit : units) {
        if (text.size() > unit.suffix.size() &&
            equalsIgnoreCase(text.substr(text.size() - unit.suffix.size()), unit.suffix)) {
            const auto value = parseNumber(text, unit.suffix);
            if (!value || *value < 0 || *value * unit.factor > 1.8e19)
                return std::nullopt;
            return static_cast<uint64_t>(std::llround(*value * unit.factor));
        }
    }
    return std::nullopt;
}

std::optional<int64_t> parseUtcTime(std::string_view input)
{
    // absl's parser checks each field's range (no 31 February, no hour 24) and reads the
    // offset in every form people write it: Z, +08:00, -0500. Without one, UTC.
    static const std::vector<std::string> kFormats = [] {
        std::vector<std::string> formats{"%Y-%m-%d"};
        for (const char *separator : {"%ET", " "}) {
            for (const char *seconds : {"", ":%E*S"}) {
                for (const char *offset : {"", "%Ez"})
                    formats.push_back(std::string("%Y-%m-%d") + separator + "%H:%M" + seconds +
                                      offset);
            }
        }
        return formats;
    }();
    const std::string text(trim(input));
    for (const std::string &format : kFormats) {
        absl::Time time;
        std::string error;
        if (absl::ParseTime(format, text, absl::UTCTimeZone(), &time, &error))
            return absl::ToUnixSeconds(time);
    }
    return std::nullopt;
}

std::optional<int64_t> parsePeriodEnd(std::string_view input)
{
    const std::optional<int64_t> at = parseUtcTime(input);
    absl::Time day;
    std::string error;
    const bool aDate =
        absl::ParseTime("%Y-%m-%d", std::string(trim(input)), absl::UTCTimeZone(), &day, &error);
    return at && aDate ? std::optional<int64_t>(*at + 86400) : at;
}

bool naturalLess(std::string_view a, std::string_view b)
{
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            size_t ei = i, ej = j;
            while (ei < a.size() && isDigit(a[ei]))
                ++ei;
            while (ej < b.size() && isDigit(b[ej]))
                ++ej;
            // Compare the numbers by value: leading zeros aside, the longer is larger.
            std::string_view x = a.substr(i, ei - i), y = b.substr(j, ej - j);
            while (x.size() > 1 && x.front() == '0')
                x.remove_prefix(1);
            while (y.size() > 1 && y.front() == '0')
                y.remove_prefix(1);
            if (x.size() != y.size())
                return x.size() < y.size();
            if (x != y)
                return x < y;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

std::string formatUtcTime(int64_t unixS)
{
    const auto t = static_cast<time_t>(unixS);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    if (unixS % 86400 == 0)
        std::strftime(text, sizeof text, "%Y-%m-%d", &tm);
    else
        std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

std::string stripAnsi(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
            i += 2;
            while (i < text.size() && !(text[i] >= '@' && text[i] <= '~'))
                ++i;
            continue;
        }
        out.push_back(text[i]);
    }
    return out;
}

}  // namespace meridian

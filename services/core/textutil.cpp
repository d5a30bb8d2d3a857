#include "textutil.h"

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

// timegm would quietly roll 2026-02-31 over into March.
static int daysInMonth(int year, int month)
{
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

std::optional<int64_t> parseUtcTime(std::string_view input)
{
    const std::string_view text = trim(input);
    size_t at = 0;
    // Exactly `width` digits at the cursor.
    const auto digits = [&](size_t width) -> std::optional<int> {
        if (at + width > text.size())
            return std::nullopt;
        int value = 0;
        for (size_t i = 0; i < width; ++i) {
            const char c = text[at + i];
            if (c < '0' || c > '9')
                return std::nullopt;
            value = value * 10 + (c - '0');
        }
        at += width;
        return value;
    };
    const auto expect = [&](char c) {
        if (at < text.size() && text[at] == c) {
            ++at;
            return true;
        }
        return false;
    };
    const auto y = digits(4);
    if (!y || !expect('-'))
        return std::nullopt;
    const auto mo = digits(2);
    if (!mo || !expect('-'))
        return std::nullopt;
    const auto d = digits(2);
    if (!d)
        return std::nullopt;
    int h = 0, mi = 0, s = 0, offsetSeconds = 0;
    if (at < text.size()) {
        if (!expect('T') && !expect(' '))
            return std::nullopt;
        const auto hh = digits(2);
        if (!hh || !expect(':'))
            return std::nullopt;
        const auto mm = digits(2);
        if (!mm)
            return std::nullopt;
        h = *hh;
        mi = *mm;
        if (expect(':')) {
            const auto ss = digits(2);
            if (!ss)
                return std::nullopt;
            s = *ss;
            if (expect('.')) {  // fractions of a second: read, not kept
                const size_t first = at;
                while (at < text.size() && text[at] >= '0' && text[at] <= '9')
                    ++at;
                if (at == first)
                    return std::nullopt;
            }
        }
        // UTC unless the time says otherwise: Z, +08:00, -0500.
        if (!expect('Z') && at < text.size()) {
            const char sign = text[at];
            if (sign != '+' && sign != '-')
                return std::nullopt;
            ++at;
            const auto oh = digits(2);
            expect(':');
            const auto om = digits(2);
            if (!oh || !om || *oh > 14 || *om > 59)
                return std::nullopt;
            offsetSeconds = (sign == '+' ? 1 : -1) * (*oh * 3600 + *om * 60);
        }
        if (at != text.size())
            return std::nullopt;
    }
    if (*mo < 1 || *mo > 12 || *d < 1 || *d > daysInMonth(*y, *mo) || h > 23 || mi > 59 || s > 60)
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = *y - 1900;
    tm.tm_mon = *mo - 1;
    tm.tm_mday = *d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    return static_cast<int64_t>(timegm(&tm)) - offsetSeconds;
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

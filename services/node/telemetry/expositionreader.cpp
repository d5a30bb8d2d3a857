#include "expositionreader.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "core/textutil.h"

namespace meridian {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

std::optional<double> sampleValue(std::string_view text)
{
    if (text == "NaN" || text == "Nan" || text == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    if (text == "+Inf" || text == "Inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-Inf")
        return -std::numeric_limits<double>::infinity();
    // strtod reads what parseNumber would refuse (exponents such as 1.5e+06).
    const std::string copy(text);
    char *end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    if (copy.empty() || end != copy.c_str() + copy.size())
        return std::nullopt;
    return value;
}

// `{key="value",...}` from `at`; moves `at` past the closing brace.
std::optional<std::string> readLabels(std::string_view line, size_t &at,
                                      std::vector<std::pair<std::string, std::string>> &labels)
{
    ++at;  // '{'
    while (true) {
        while (at < line.size() && (line[at] == ' ' || line[at] == ','))
            ++at;
        if (at < line.size() && line[at] == '}') {
            ++at;
            return std::nullopt;
        }
        const size_t keyStart = at;
        while (at < line.size() && isNameChar(line[at]))
            ++at;
        if (at == keyStart || at >= line.size() || line[at] != '=')
            return "a label name and = expected";
        std::string key(line.substr(keyStart, at - keyStart));
        ++at;
        if (at >= line.size() || line[at] != '"')
            return fmt::format("label {}: a quoted value expected", key);
        ++at;
        std::string value;
        while (at < line.size() && line[at] != '"') {
            if (line[at] == '\\' && at + 1 < line.size()) {
                const char escaped = line[++at];
                value += escaped == 'n' ? '\n' : escaped;
            } else {
                value += line[at];
            }
            ++at;
        }
        if (at >= line.size())
            return fmt::format("label {}: the value is not closed", key);
        ++at;  // closing quote
        labels.emplace_back(std::move(key), std::move(value));
    }
}

}  // namespace

std::string_view ExpositionSample::label(std::string_view key) const
{
    for (const auto &[k, v] : labels) {
        if (k == key)
            return v;
    }
    return {};
}

Result<std::vector<ExpositionSample>> readExposition(std::string_view text, std::string_view source)
{
    std::vector<ExpositionSample> samples;
    size_t number = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = trim(text.substr(start, end - start));
        start = end + 1;
        ++number;
        if (line.empty() || line.front() == '#')
            continue;
        const auto problem = [&](const std::string &what) {
            return Error{fmt::format("{}:{}: {}", source, number, what)};
        };
        if (!isNameStart(line.front()))
            return problem("not a metric sample (a metric name expected)");
        ExpositionSample sample;
        size_t at = 0;
        while (at < line.size() && isNameChar(line[at]))
            ++at;
        sample.name = std::string(line.substr(0, at));
        if (at < line.size() && line[at] == '{') {
            if (auto error = readLabels(line, at, sample.labels))
                return problem(*error);
        }
        const auto fields = splitWhitespace(line.substr(at));
        if (fields.empty() || fields.size() > 2)
            return problem(
                fmt::format("{}: a value (and at most a timestamp) expected", sample.name));
        const auto value = sampleValue(trim(fields[0]));
        if (!value)
            return problem(fmt::format("{}: '{}' is not a number", sample.name, fields[0]));
        sample.value = *value;
        samples.push_back(std::move(sample));
    }
    return samples;
}

}  // namespace meridian

#include "labelmatcher.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>

namespace meridian {

Result<LabelMatcher> LabelMatcher::make(std::string name, std::string value, bool isRegex,
                                        bool isEqual)
{
    LabelMatcher m;
    m.m_name = std::move(name);
    m.m_value = std::move(value);
    m.m_equal = isEqual;
    if (isRegex) {
        RE2::Options options;
        options.set_log_errors(false);
        options.set_max_mem(1 << 20);  // a hostile pattern is refused, not compiled huge
        auto regex = std::make_shared<RE2>("^(?:" + m.m_value + ")$", options);
        if (!regex->ok())
            return Error{fmt::format("matcher {}{}\"{}\": {}", m.m_name, isEqual ? "=~" : "!~",
                                     m.m_value, regex->error())};
        m.m_regex = std::move(regex);
    }
    return m;
}

bool LabelMatcher::matches(const AlertLabels &labels) const
{
    const auto it = labels.find(m_name);
    const std::string &value = it == labels.end() ? std::string() : it->second;
    const bool hit = m_regex ? RE2::FullMatch(value, *m_regex) : value == m_value;
    return hit == m_equal;
}

std::string LabelMatcher::text() const
{
    const char *op = m_regex ? (m_equal ? "=~" : "!~") : (m_equal ? "=" : "!=");
    return fmt::format("{}{}\"{}\"", m_name, op, m_value);
}

bool allMatch(const std::vector<LabelMatcher> &matchers, const AlertLabels &labels)
{
    return std::all_of(matchers.begin(), matchers.end(),
                       [&](const LabelMatcher &m) { return m.matches(labels); });
}

}  // namespace meridian

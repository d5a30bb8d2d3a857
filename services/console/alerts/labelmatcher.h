// A label matcher as Alertmanager reads one in a silence, matched as Alertmanager matches
// it: `name=value`, `name!=value`, `name=~regex`, `name!~regex`; a label the alert lacks
// is the empty string (so `node=""` matches alerts without a node, and `node!=""` those
// with one); a regex must match the whole value (Alertmanager anchors it), in RE2's
// syntax, which is Go's. A silence applies where every one of its matchers does.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace re2 {
class RE2;
}

namespace meridian {

using AlertLabels = std::map<std::string, std::string>;

class LabelMatcher {
public:
    // A regex that does not compile is refused with the matcher named.
    static Result<LabelMatcher> make(std::string name, std::string value, bool isRegex,
                                     bool isEqual);

    bool matches(const AlertLabels &labels) const;
    const std::string &name() const { return m_name; }
    const std::string &value() const { return m_value; }
    bool isRegex() const { return m_regex != nullptr; }
    bool isEqual() const { return m_equal; }
    // As amtool writes it: node!="", alertname=~"Xid.*".
    std::string text() const;

private:
    std::string m_name;
    std::string m_value;
    bool m_equal = true;
    std::shared_ptr<const re2::RE2> m_regex;  // shared: a silence is copied to every pass
};

bool allMatch(const std::vector<LabelMatcher> &matchers, const AlertLabels &labels);

}  // namespace meridian

// Which alerts the receivers were told are firing, and not yet that they resolved, by any
// console on the history file: the file's word as last read, with what this console told
// them since a read that may not hold it yet (its writes land after the read was asked).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace meridian {

class DeliveredFiring {
public:
    bool contains(const std::string &key) const { return m_keys.count(key) > 0; }
    const std::set<std::string> &keys() const { return m_keys; }
    // This console told the receivers, `readsAsked` reads having been asked by then;
    // `shared`: it is written to a file that later reads bring back.
    void record(const std::string &key, bool firing, uint64_t readsAsked, bool shared);
    // The read asked as number `sequence` found `delivered` in the file.
    void take(std::set<std::string> delivered, uint64_t sequence);

private:
    void apply(const std::string &key, bool firing);

    struct Change {
        std::string key;
        bool firing = false;
        uint64_t readsAskedBefore = 0;
    };
    std::set<std::string> m_keys;
    std::vector<Change> m_changes;  // kept until a read asked after them is taken
};

}  // namespace meridian

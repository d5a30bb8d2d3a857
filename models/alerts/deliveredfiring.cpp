#include "deliveredfiring.h"

namespace meridian {

void DeliveredFiring::apply(const std::string &key, bool firing)
{
    if (firing)
        m_keys.insert(key);
    else
        m_keys.erase(key);
}

void DeliveredFiring::record(const std::string &key, bool firing, uint64_t readsAsked, bool shared)
{
    apply(key, firing);
    if (shared)
        m_changes.push_back({key, firing, readsAsked});
}

void DeliveredFiring::take(std::set<std::string> delivered, uint64_t sequence)
{
    // The file's word, with what this console recorded after the read was asked; older
    // local changes are in the file. Another console's resolution reaches the set too.
    m_keys = std::move(delivered);
    std::erase_if(m_changes, [&](const Change &c) { return c.readsAskedBefore < sequence; });
    for (const Change &c : m_changes)
        apply(c.key, c.firing);
}

}  // namespace meridian

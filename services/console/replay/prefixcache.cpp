#include "prefixcache.h"

namespace meridian {

size_t PrefixCache::cachedPrefix(const std::vector<uint64_t> &blocks) const
{
    size_t cached = 0;
    while (cached < blocks.size() && m_index.count(blocks[cached]))
        ++cached;
    return cached;
}

void PrefixCache::insert(const std::vector<uint64_t> &blocks)
{
    if (m_capacity == 0)
        return;
    // The prompt's first block last, so that it is the most recently used: a prefix is
    // only of use while its first blocks are kept.
    for (auto block = blocks.rbegin(); block != blocks.rend(); ++block) {
        const auto found = m_index.find(*block);
        if (found != m_index.end()) {
            m_recency.splice(m_recency.begin(), m_recency, found->second);
            continue;
        }
        m_recency.push_front(*block);
        m_index.emplace(*block, m_recency.begin());
        if (m_index.size() > m_capacity) {
            m_index.erase(m_recency.back());
            m_recency.pop_back();
        }
    }
}

}  // namespace meridian

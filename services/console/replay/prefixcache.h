// A replica's cache of prompt prefixes, as vLLM's automatic prefix caching keeps the KV
// blocks of prompts it has computed: a prompt whose first blocks are still cached skips
// their prefill. Blocks are named by the hashes a trace gives (Mooncake's hash_ids, each
// over 512 tokens and everything before it, so a block can only be reused after the same
// prefix); the least recently used go when the cache is full.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

namespace meridian {

class PrefixCache {
public:
    explicit PrefixCache(size_t capacityBlocks) : m_capacity(capacityBlocks) {}
    // Its index points into its own list: a copy's would point into the original's.
    PrefixCache(const PrefixCache &) = delete;
    PrefixCache &operator=(const PrefixCache &) = delete;
    PrefixCache(PrefixCache &&) noexcept = default;
    PrefixCache &operator=(PrefixCache &&) noexcept = default;

    // How many of `blocks`, from the first, are cached.
    size_t cachedPrefix(const std::vector<uint64_t> &blocks) const;
    // `blocks` become the most recently used; the least recently used beyond the
    // capacity are dropped.
    void insert(const std::vector<uint64_t> &blocks);
    size_t size() const { return m_index.size(); }

private:
    size_t m_capacity;
    std::list<uint64_t> m_recency;  // most recently used first
    std::unordered_map<uint64_t, std::list<uint64_t>::iterator> m_index;
};

}  // namespace meridian

// Small records a node keeps across agent restarts, by kind and key: the workloads it
// runs, the answers it gave to idempotency keys, the replica processes it supervises.
// The agent's SQLite file holds them (agent/agentledger.h); tests use memory.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace meridian {

class NodeRecords {
public:
    virtual ~NodeRecords() = default;
    virtual Status put(const std::string &kind, const std::string &key,
                       const std::string &value) = 0;
    virtual Status remove(const std::string &kind, const std::string &key) = 0;
    // (key, value) of every record of the kind, by key.
    virtual Result<std::vector<std::pair<std::string, std::string>>> all(
        const std::string &kind) = 0;
};

// For tests, and an agent started without a data directory.
class MemoryNodeRecords final : public NodeRecords {
public:
    Status put(const std::string &kind, const std::string &key, const std::string &value) override
    {
        std::lock_guard lock(m_mutex);
        m_records[kind][key] = value;
        return {};
    }
    Status remove(const std::string &kind, const std::string &key) override
    {
        std::lock_guard lock(m_mutex);
        m_records[kind].erase(key);
        return {};
    }
    Result<std::vector<std::pair<std::string, std::string>>> all(const std::string &kind) override
    {
        std::lock_guard lock(m_mutex);
        const auto &records = m_records[kind];
        return std::vector<std::pair<std::string, std::string>>(records.begin(), records.end());
    }

private:
    std::mutex m_mutex;
    std::map<std::string, std::map<std::string, std::string>> m_records;
};

}  // namespace meridian

#include "localprovider.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "core/clock.h"
#include "core/yamlfile.h"
#include "core/toolrunner.h"

namespace meridian {

namespace {

struct SpareNode {
    std::string nodeId;
    std::string agentAddress;
    std::vector<std::string> powerOn;
    std::vector<std::string> powerOff;
};

struct SpareNodes {
    int readyTimeoutSeconds = 600;
    std::vector<SpareNode> nodes;
};

Result<SpareNodes> loadSpareNodes(const std::string &path)
{
    auto loaded = loadYamlFile(path, 1 << 20);
    if (!loaded)
        return loaded.error();
    try {
        const YAML::Node root = loaded.value();
        SpareNodes spare;
        spare.readyTimeoutSeconds = yamlValue<int>(root, "ready_timeout_seconds", 600);
        if (!root["nodes"] || !root["nodes"].IsSequence())
            return yamlError(path, root, "nodes: a list of {node_id, agent_address, power_on}");
        for (const YAML::Node &n : root["nodes"]) {
            SpareNode node;
            node.nodeId = yamlValue<std::string>(n, "node_id", "");
            node.agentAddress = yamlValue<std::string>(n, "agent_address", "");
            if (n["power_on"])
                node.powerOn = n["power_on"].as<std::vector<std::string>>();
            if (n["power_off"])
                node.powerOff = n["power_off"].as<std::vector<std::string>>();
            if (node.nodeId.empty() || node.agentAddress.find(':') == std::string::npos)
                return yamlError(path, n, "a node needs node_id and agent_address (host:port)");
            spare.nodes.push_back(std::move(node));
        }
        return spare;
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
}

// The state file under an exclusive lock for as long as this lives.
class LockedState {
public:
    explicit LockedState(const std::string &path) : m_path(path)
    {
        m_lock = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0640);
        if (m_lock >= 0)
            ::flock(m_lock, LOCK_EX);
        std::ifstream in(path);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        state = nlohmann::json::parse(text.empty() ? "{}" : text, nullptr, false);
        if (state.is_discarded() || !state.is_object())
            state = nlohmann::json::object();
        if (!state.contains("leases") || !state["leases"].is_object())
            state["leases"] = nlohmann::json::object();
    }
    ~LockedState()
    {
        if (m_lock >= 0)
            ::close(m_lock);
    }
    bool ok() const { return m_lock >= 0; }
    bool save()
    {
        const std::string temporary = m_path + ".new";
        {
            std::ofstream out(temporary);
            out << state.dump(2);
            out.flush();
            if (!out)
                return false;
        }
        std::error_code ec;
        std::filesystem::rename(temporary, m_path, ec);
        return !ec;
    }
    nlohmann::json state;

private:
    std::string m_path;
    int m_lock = -1;
};

bool agentAnswers(const std::string &address)
{
    const size_t colon = address.rfind(':');
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    if (::getaddrinfo(address.substr(0, colon).c_str(), address.substr(colon + 1).c_str(), &hints,
                      &found) != 0)
        return false;
    bool connected = false;
    for (addrinfo *a = found; a && !connected; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0)
            continue;
        connected = ::connect(fd, a->ai_addr, a->ai_addrlen) == 0;
        ::close(fd);
    }
    ::freeaddrinfo(found);
    return connected;
}

const SpareNode *nodeNamed(const SpareNodes &spare, const std::string &id)
{
    for (const SpareNode &n : spare.nodes) {
        if (n.nodeId == id)
            return &n;
    }
    return nullptr;
}

nlohmann::json describe(const SpareNodes &spare, const nlohmann::json &ids)
{
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto &id : ids) {
        const SpareNode *n = nodeNamed(spare, id.get<std::string>());
        nodes.push_back({{"node_id", id}, {"agent_address", n ? n->agentAddress : ""}});
    }
    return nodes;
}

}  // namespace

int runLocalProvider(const std::string &nodesFile, const std::string &stateFile,
                     const std::string &verb, std::istream &in, std::ostream &out,
                     std::ostream &err)
{
    auto spare = loadSpareNodes(nodesFile);
    if (!spare) {
        err << spare.error().message << "\n";
        return 2;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    const auto request = nlohmann::json::parse(text.empty() ? "{}" : text, nullptr, false);
    if (request.is_discarded() || !request.is_object()) {
        err << "the request on stdin is not a JSON object\n";
        return 2;
    }
    if (verb == "list") {
        LockedState locked(stateFile);
        nlohmann::json leases = nlohmann::json::array();
        for (const auto &[id, lease] : locked.state["leases"].items())
            leases.push_back({{"lease_id", id},
                              {"owner", lease.value("owner", "")},
                              {"nodes", describe(*spare, lease["nodes"])}});
        out << nlohmann::json({{"leases", leases}}).dump() << "\n";
        return 0;
    }
    const std::string leaseId = request.value("lease_id", "");
    if (leaseId.empty()) {
        err << "lease_id is required\n";
        return 2;
    }
    if (verb == "lease") {
        const int wanted = request.value("nodes", 1);
        nlohmann::json ids;
        {
            LockedState locked(stateFile);
            if (!locked.ok()) {
                err << stateFile << ": cannot lock it\n";
                return 2;
            }
            auto &leases = locked.state["leases"];
            if (leases.contains(leaseId)) {
                ids = leases[leaseId]["nodes"];  // asked again: the same nodes
            } else {
                std::set<std::string> taken;
                for (const auto &[id, lease] : leases.items()) {
                    for (const auto &n : lease["nodes"])
                        taken.insert(n.get<std::string>());
                }
                ids = nlohmann::json::array();
                for (const SpareNode &n : spare->nodes) {
                    if (static_cast<int>(ids.size()) < wanted && !taken.count(n.nodeId))
                        ids.push_back(n.nodeId);
                }
                if (static_cast<int>(ids.size()) < wanted) {
                    err << fmt::format("only {} of {} spare nodes are free", ids.size(), wanted)
                        << "\n";
                    return 3;
                }
                leases[leaseId] = {{"owner", request.value("owner", "")},
                                   {"idempotency_key", request.value("idempotency_key", "")},
                                   {"nodes", ids}};
                // Kept before any node is powered on: a retry finds these same nodes.
                if (!locked.save()) {
                    err << stateFile << ": cannot write it\n";
                    return 2;
                }
            }
        }
        for (const auto &id : ids) {
            const SpareNode *node = nodeNamed(*spare, id.get<std::string>());
            if (!node)
                continue;
            if (!node->powerOn.empty()) {
                if (auto on = runTool({node->powerOn, 120'000}); !on) {
                    err << fmt::format("{}: power on: {}", node->nodeId, on.error().message)
                        << "\n";
                    return 4;
                }
            }
            const Clock &clock = SystemClock::instance();
            const int64_t deadlineMs = clock.steadyMs() + spare->readyTimeoutSeconds * 1000LL;
            while (!agentAnswers(node->agentAddress)) {
                if (clock.steadyMs() > deadlineMs) {
                    err << fmt::format("{}: its agent did not answer at {} within {} s",
                                       node->nodeId, node->agentAddress, spare->readyTimeoutSeconds)
                        << "\n";
                    return 4;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(500));
            }
        }
        out << nlohmann::json({{"nodes", describe(*spare, ids)}}).dump() << "\n";
        return 0;
    }
    if (verb == "release") {
        nlohmann::json ids = nlohmann::json::array();
        {
            LockedState locked(stateFile);
            if (locked.state["leases"].contains(leaseId))
                ids = locked.state["leases"][leaseId]["nodes"];
        }
        for (const auto &id : ids) {
            const SpareNode *node = nodeNamed(*spare, id.get<std::string>());
            if (node && !node->powerOff.empty()) {
                if (auto off = runTool({node->powerOff, 120'000}); !off) {
                    err << fmt::format("{}: power off: {}", node->nodeId, off.error().message)
                        << "\n";
                    return 4;
                }
            }
        }
        LockedState locked(stateFile);
        locked.state["leases"].erase(leaseId);
        if (!locked.save()) {
            err << stateFile << ": cannot write it\n";
            return 2;
        }
        out << "{}\n";
        return 0;
    }
    err << fmt::format("unknown verb '{}': lease, release or list", verb) << "\n";
    return 2;
}

}  // namespace meridian

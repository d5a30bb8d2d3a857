#include "localprovider.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <thread>
#include <variant>

#include "core/clock.h"
#include "core/durablefile.h"
#include "core/jsonnesting.h"
#include "core/textfile.h"
#include "core/toolrunner.h"
#include "core/yamlfile.h"

namespace meridian {

namespace {

struct SpareNode {
    std::string nodeId;
    std::string agentAddress;
    std::vector<std::string> powerOn;
    std::vector<std::string> powerOff;
    std::vector<std::string> prepare;  // for standby: puts the services' weights on its disk
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
            if (n["prepare"])
                node.prepare = n["prepare"].as<std::vector<std::string>>();
            if (node.nodeId.empty() || node.agentAddress.find(':') == std::string::npos)
                return yamlError(path, n, "a node needs node_id and agent_address (host:port)");
            spare.nodes.push_back(std::move(node));
        }
        return spare;
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
}

// The state file under an exclusive lock for as long as this lives. A state file that
// cannot be read whole is refused, never taken for "no leases": that would hand a node
// leased before to the next caller. It is missing only before the first call; past that
// a missing one is refused too. Whether a call came before is read under the lock, from
// the lock file's own words (each save writes them): the lock file's mere presence would
// be seen by a call that took the lock between the first call making the file and locking
// it, which then refused a fresh state as lost.
class LockedState {
public:
    static Result<std::unique_ptr<LockedState>> open(const std::string &path)
    {
        const std::string lockPath = path + ".lock";
        std::unique_ptr<LockedState> self(new LockedState(path));
        self->m_lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0640);
        if (self->m_lock < 0 || ::flock(self->m_lock, LOCK_EX) != 0)
            return Error{fmt::format("{}: cannot lock it: {}", lockPath, std::strerror(errno))};
        struct stat lockFile {};
        const bool usedBefore = ::fstat(self->m_lock, &lockFile) == 0 && lockFile.st_size > 0;
        if (!std::filesystem::exists(path)) {
            if (usedBefore)
                return Error{fmt::format(
                    "{}: missing, though leases were kept here before ({} is there); refused, "
                    "so that no node is leased twice: restore it, or remove the lock file to "
                    "start with no leases",
                    path, lockPath)};
            self->state = {{"leases", nlohmann::json::object()}};
            if (Status saved = self->save(); !saved)
                return saved.error();
            return self;
        }
        auto text = readTextFile(path, 16 * 1024 * 1024);
        if (!text)
            return text.error();
        if (Status read = self->take(text.value()); !read)
            return Error{
                fmt::format("{}: damaged ({}); refused, so that no node is leased "
                            "twice: restore it from a backup",
                            path, read.message())};
        // A lock file from before it was marked: marked now, so the state is guarded.
        if (!usedBefore)
            if (Status marked = self->markKept(); !marked)
                return marked.error();
        return self;
    }
    ~LockedState()
    {
        if (m_lock >= 0)
            ::close(m_lock);
    }
    Status save()
    {
        if (Status saved = writeFileDurably(m_path, state.dump(2)); !saved)
            return saved;
        return markKept();
    }
    nlohmann::json state;

private:
    explicit LockedState(std::string path) : m_path(std::move(path)) {}
    // Leases are kept from now on: a state file missing later is refused, not made anew.
    Status markKept()
    {
        static constexpr std::string_view kKept = "leases are kept in the state file\n";
        if (::pwrite(m_lock, kKept.data(), kKept.size(), 0) != static_cast<ssize_t>(kKept.size()))
            return Error{fmt::format("{}.lock: cannot mark it: {}", m_path, std::strerror(errno))};
        return {};
    }
    Status take(const std::string &text)
    {
        if (text.empty())
            return Error{"empty"};
        if (lineNestedDeeperThan(text, 8))
            return Error{"nested too deep"};
        state = nlohmann::json::parse(text, nullptr, false);
        if (state.is_discarded())
            return Error{"not JSON"};
        if (!state.is_object() || !state.contains("leases") || !state["leases"].is_object())
            return Error{"no leases object"};
        for (const auto &[id, lease] : state["leases"].items()) {
            if (!lease.is_object() || !lease.contains("nodes") || !lease["nodes"].is_array())
                return Error{fmt::format("lease {} has no list of nodes", id)};
            for (const auto &node : lease["nodes"]) {
                if (!node.is_string())
                    return Error{fmt::format("lease {} names a node that is not a name", id)};
            }
        }
        return {};
    }

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

// One call of the provider: the spare nodes, the state file, the request on stdin, and
// where its answer and its complaints go.
struct Call {
    const SpareNodes &spare;
    const std::string &stateFile;
    const nlohmann::json &request;
    std::ostream &out;
    std::ostream &err;

    int fail(int status, const std::string &why) const
    {
        err << why << "\n";
        return status;
    }
};

int listLeases(const Call &call)
{
    auto locked = LockedState::open(call.stateFile);
    if (!locked)
        return call.fail(2, locked.error().message);
    nlohmann::json leases = nlohmann::json::array();
    for (const auto &[id, lease] : (*locked)->state["leases"].items())
        leases.push_back({{"lease_id", id},
                          {"owner", lease.value("owner", "")},
                          {"nodes", describe(call.spare, lease["nodes"])}});
    call.out << nlohmann::json({{"leases", leases}}).dump() << "\n";
    return 0;
}

// The nodes of the lease: those it was given before (a retry), or free ones written down
// before any is powered on, so a retry finds the same ones. An exit status on failure.
std::variant<nlohmann::json, int> chooseNodes(const Call &call, const std::string &leaseId)
{
    const int wanted = call.request.value("nodes", 1);
    auto locked = LockedState::open(call.stateFile);
    if (!locked)
        return call.fail(2, locked.error().message);
    auto &leases = (*locked)->state["leases"];
    if (leases.contains(leaseId))
        return leases[leaseId]["nodes"];  // asked again: the same nodes
    std::set<std::string> taken;
    for (const auto &[id, lease] : leases.items()) {
        for (const auto &n : lease["nodes"])
            taken.insert(n.get<std::string>());
    }
    nlohmann::json ids = nlohmann::json::array();
    for (const SpareNode &n : call.spare.nodes) {
        if (static_cast<int>(ids.size()) < wanted && !taken.count(n.nodeId))
            ids.push_back(n.nodeId);
    }
    if (static_cast<int>(ids.size()) < wanted)
        return call.fail(3, fmt::format("only {} of {} spare nodes are free", ids.size(), wanted));
    leases[leaseId] = {{"owner", call.request.value("owner", "")},
                       {"idempotency_key", call.request.value("idempotency_key", "")},
                       {"nodes", ids}};
    if (Status saved = (*locked)->save(); !saved)
        return call.fail(2, saved.message());
    return ids;
}

// Powers the node on and waits for its agent to answer; an exit status on failure.
int bringUp(const Call &call, const SpareNode &node)
{
    if (!node.powerOn.empty()) {
        if (auto on = runTool({node.powerOn, 120'000}); !on)
            return call.fail(4, fmt::format("{}: power on: {}", node.nodeId, on.error().message));
    }
    const Clock &clock = SystemClock::instance();
    const int64_t deadlineMs = clock.steadyMs() + call.spare.readyTimeoutSeconds * 1000LL;
    while (!agentAnswers(node.agentAddress)) {
        if (clock.steadyMs() > deadlineMs)
            return call.fail(
                4, fmt::format("{}: its agent did not answer at {} within {} s", node.nodeId,
                               node.agentAddress, call.spare.readyTimeoutSeconds));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    // A standby node waits with the weights on its own disk, so a replica started there
    // loads them instead of fetching them.
    if (call.request.value("standby", false) && !node.prepare.empty()) {
        if (auto prepared = runTool({node.prepare, call.spare.readyTimeoutSeconds * 1000});
            !prepared)
            return call.fail(4,
                             fmt::format("{}: prepare: {}", node.nodeId, prepared.error().message));
    }
    return 0;
}

int leaseNodes(const Call &call, const std::string &leaseId)
{
    auto chosen = chooseNodes(call, leaseId);
    if (const int *status = std::get_if<int>(&chosen))
        return *status;
    const nlohmann::json &ids = std::get<nlohmann::json>(chosen);
    for (const auto &id : ids) {
        if (const SpareNode *node = nodeNamed(call.spare, id.get<std::string>())) {
            if (const int status = bringUp(call, *node); status != 0)
                return status;
        }
    }
    call.out << nlohmann::json({{"nodes", describe(call.spare, ids)}}).dump() << "\n";
    return 0;
}

int releaseNodes(const Call &call, const std::string &leaseId)
{
    nlohmann::json ids = nlohmann::json::array();
    {
        auto locked = LockedState::open(call.stateFile);
        if (!locked)
            return call.fail(2, locked.error().message);
        if ((*locked)->state["leases"].contains(leaseId))
            ids = (*locked)->state["leases"][leaseId]["nodes"];
    }
    for (const auto &id : ids) {
        const SpareNode *node = nodeNamed(call.spare, id.get<std::string>());
        if (node && !node->powerOff.empty()) {
            if (auto off = runTool({node->powerOff, 120'000}); !off)
                return call.fail(
                    4, fmt::format("{}: power off: {}", node->nodeId, off.error().message));
        }
    }
    auto locked = LockedState::open(call.stateFile);
    if (!locked)
        return call.fail(2, locked.error().message);
    (*locked)->state["leases"].erase(leaseId);
    if (Status saved = (*locked)->save(); !saved)
        return call.fail(2, saved.message());
    call.out << "{}\n";
    return 0;
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
    const Call call{spare.value(), stateFile, request, out, err};
    if (verb == "list")
        return listLeases(call);
    const std::string leaseId = request.value("lease_id", "");
    if (leaseId.empty())
        return call.fail(2, "lease_id is required");
    if (verb == "lease")
        return leaseNodes(call, leaseId);
    if (verb == "release")
        return releaseNodes(call, leaseId);
    return call.fail(2, fmt::format("unknown verb '{}': lease, release or list", verb));
}

}  // namespace meridian

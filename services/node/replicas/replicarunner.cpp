#include "replicarunner.h"

#include <fmt/format.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/toolrunner.h"
#include "replicalaunch.h"
#include "telemetry/expositionreader.h"

namespace meridian {

namespace {

const std::string kProcessRecord = "replica-process";

// The variable that pins a process to some of a vendor's cards.
const char *visibleDevicesVariable(Vendor vendor)
{
    switch (vendor) {
    case Vendor::Nvidia: return "CUDA_VISIBLE_DEVICES";
    case Vendor::Huawei: return "ASCEND_RT_VISIBLE_DEVICES";
    case Vendor::Cambricon: return "MLU_VISIBLE_DEVICES";
    case Vendor::Hygon: return "HIP_VISIBLE_DEVICES";
    case Vendor::Unknown: break;
    }
    return nullptr;
}

std::string replace(std::string text, const std::string &from, const std::string &to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

bool portIsFree(const std::string &host, int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(host == "127.0.0.1" ? INADDR_LOOPBACK : INADDR_ANY);
    const bool free = ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
    ::close(fd);
    return free;
}

// A replica id as a file or unit name: ids may hold '/' (the controller's "step/r1").
std::string safeName(const std::string &replicaId)
{
    std::string name;
    for (char c : replicaId)
        name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
    return name;
}

// A unit name systemd accepts, one per start so a restart never meets the old unit.
std::string unitName(const std::string &replicaId, int restarts)
{
    return "meridian-replica-" + safeName(replicaId) + "-" + std::to_string(restarts);
}

bool useSystemd(const ReplicaRunnerOptions &options)
{
    using Launcher = ReplicaRunnerOptions::Launcher;
    if (options.launcher != Launcher::Auto)
        return options.launcher == Launcher::Systemd;
    std::error_code ec;
    return ::geteuid() == 0 && std::filesystem::exists("/run/systemd/system", ec) &&
           toolOnPath(options.systemdRun);
}

}  // namespace

ReplicaRunner::ReplicaRunner(ReplicaRunnerOptions options, std::vector<CardInfo> cards,
                             NodeRecords &records, const Clock &clock)
    : m_options(std::move(options)), m_cards(std::move(cards)), m_records(records), m_clock(clock)
{
    adopt();
}

ReplicaRunner::~ReplicaRunner() = default;

void ReplicaRunner::setEventSink(std::function<void(const Event &)> sink)
{
    std::lock_guard lock(m_mutex);
    m_events = std::move(sink);
}

void ReplicaRunner::emit(const Replica &replica, Severity severity, const std::string &message)
{
    if (!m_events)
        return;
    Event event;
    event.timeUnixMs = m_clock.nowUnixMs();
    event.kind = EventKind::Workload;
    event.severity = severity;
    if (!replica.workload.cardIndices.empty())
        event.cardIndex = replica.workload.cardIndices.front();
    event.message = fmt::format("replica {} ({}): {}", replica.workload.replicaId,
                                replica.workload.service, message);
    m_events(event);
}

void ReplicaRunner::keep(const Replica &r)
{
    const nlohmann::json record = {{"workload", workloadToJson(r.workload)},
                                   {"port", r.port},
                                   {"pid", r.pid},
                                   {"start_ticks", r.startTicks},
                                   {"phase", static_cast<int>(r.phase)},
                                   {"phase_since_unix_ms", r.phaseSinceMs},
                                   {"restarts", r.restarts},
                                   {"unit", r.unit},
                                   {"failure", r.failure}};
    (void)m_records.put(kProcessRecord, r.workload.replicaId, record.dump());
}

void ReplicaRunner::adopt()
{
    auto saved = m_records.all(kProcessRecord);
    if (!saved)
        return;
    for (const auto &[id, text] : *saved) {
        // A damaged record (cut short, edited by hand, from a node with other cards)
        // costs that replica only: it is not adopted, and the rest are.
        const auto j = nlohmann::json::parse(text, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("workload") ||
            !j["workload"].is_string())
            continue;
        const auto workload = workloadFromJson(j["workload"].get<std::string>());
        if (!workload || workload->cardIndices.empty() ||
            std::any_of(workload->cardIndices.begin(), workload->cardIndices.end(),
                        [&](uint32_t card) { return card >= m_cards.size(); }))
            continue;
        try {
            Replica r;
            r.workload = *workload;
            r.port = j.value("port", 0);
            r.pid = j.value("pid", 0);
            r.startTicks = j.value("start_ticks", uint64_t{0});
            r.phase = static_cast<Phase>(std::clamp(j.value("phase", 0), 0, 3));
            r.phaseSinceMs = j.value("phase_since_unix_ms", int64_t{0});
            r.restarts = j.value("restarts", 0);
            r.unit = j.value("unit", "");
            r.failure = j.value("failure", "");
            // Whether it still runs is the next check's question: a replica that died
            // while the agent was away is restarted (or failed) like any other crash.
            m_replicas.emplace(id, std::move(r));
        } catch (const nlohmann::json::exception &) {
            continue;
        }
    }
}

const ServingCommand *ReplicaRunner::commandOf(const Replica &replica) const
{
    const auto it = m_options.services.find(replica.workload.service);
    return it == m_options.services.end() ? nullptr : &it->second;
}

int ReplicaRunner::freePort(int basePort) const
{
    for (int port = basePort; port < basePort + 256 && port <= 65'535; ++port) {
        const bool ours = std::any_of(m_replicas.begin(), m_replicas.end(),
                                      [&](const auto &entry) { return entry.second.port == port; });
        if (!ours && portIsFree(m_options.host, port))
            return port;
    }
    return 0;
}

Status ReplicaRunner::spawn(Replica &replica)
{
    const ServingCommand *command = commandOf(replica);
    if (!command)
        return Error{fmt::format("service {} has no serving: section in this agent's services file",
                                 replica.workload.service)};
    ReplicaLaunch launch;
    for (const std::string &part : command->command) {
        std::string filled = replace(part, "{model}", replica.workload.model);
        filled = replace(filled, "{port}", std::to_string(replica.port));
        filled = replace(filled, "{cards}", std::to_string(replica.workload.cardIndices.size()));
        launch.argv.push_back(replace(filled, "{replica}", replica.workload.replicaId));
    }
    launch.variables = command->environment;
    std::string cards;
    for (uint32_t card : replica.workload.cardIndices)
        cards += (cards.empty() ? "" : ",") + std::to_string(card);
    const Vendor vendor = m_cards.at(replica.workload.cardIndices.front()).vendor;
    if (const char *variable = visibleDevicesVariable(vendor))
        launch.variables[variable] = cards;
    launch.variables["MERIDIAN_REPLICA_ID"] = replica.workload.replicaId;
    std::error_code ec;
    std::filesystem::create_directories(m_options.logDirectory, ec);
    launch.logPath = (std::filesystem::path(m_options.logDirectory) /
                      (safeName(replica.workload.replicaId) + ".log"))
                         .string();
    launch.unit = unitName(replica.workload.replicaId, replica.restarts);
    launch.graceSeconds = command->drainGraceSeconds;
    auto launched = useSystemd(m_options)
                        ? launchAsUnit(launch, m_options.systemdRun, m_options.systemctl)
                        : launchAsChild(launch);
    if (!launched)
        return launched.error();
    replica.pid = launched->pid;
    replica.unit = launched->unit;
    replica.startTicks = processStartTicks(replica.pid);
    replica.phase = Phase::Starting;
    replica.phaseSinceMs = m_clock.nowUnixMs();
    replica.tracker = {};
    replica.latest.reset();
    keep(replica);
    return {};
}

Status ReplicaRunner::startReplica(const Workload &workload)
{
    std::lock_guard lock(m_mutex);
    if (const auto it = m_replicas.find(workload.replicaId); it != m_replicas.end()) {
        if (it->second.phase != Phase::Failed)
            return Error{fmt::format("replica {} is already running", workload.replicaId)};
        m_replicas.erase(it);
    }
    Vendor vendor = Vendor::Unknown;
    for (uint32_t card : workload.cardIndices) {
        if (card >= m_cards.size())
            return Error{fmt::format("start: card {} does not exist on this node", card)};
        if (vendor != Vendor::Unknown && m_cards[card].vendor != vendor)
            return Error{"start: one replica's cards must be of one vendor"};
        vendor = m_cards[card].vendor;
    }
    Replica replica;
    replica.workload = workload;
    const auto command = m_options.services.find(workload.service);
    if (command == m_options.services.end())
        return Error{fmt::format("service {} has no serving: section in this agent's services file",
                                 workload.service)};
    replica.port = freePort(command->second.port);
    if (replica.port == 0)
        return Error{fmt::format("no free port from {} for replica {}", command->second.port,
                                 workload.replicaId)};
    if (Status started = spawn(replica); !started)
        return started;
    emit(replica, Severity::Info,
         fmt::format("started on port {} (pid {})", replica.port, replica.pid));
    m_replicas.emplace(workload.replicaId, std::move(replica));
    return {};
}

Status ReplicaRunner::stopReplica(const std::string &replicaId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(replicaId);
    if (it == m_replicas.end())
        return {};  // gone already: stopping it again is done
    Replica &r = it->second;
    if (r.phase == Phase::Failed || r.pid <= 0) {
        (void)m_records.remove(kProcessRecord, replicaId);
        m_replicas.erase(it);
        return {};
    }
    if (r.phase != Phase::Draining) {
        signalReplica(r.pid, r.unit, SIGTERM, m_options.systemctl);
        r.phase = Phase::Draining;
        r.phaseSinceMs = m_clock.nowUnixMs();
        keep(r);
    }
    return {};
}

bool ReplicaRunner::replicaServing(const std::string &replicaId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(replicaId);
    return it != m_replicas.end() && it->second.phase == Phase::Serving;
}

std::optional<std::string> ReplicaRunner::replicaFailure(const std::string &replicaId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(replicaId);
    if (it == m_replicas.end() || it->second.phase != Phase::Failed)
        return std::nullopt;
    return it->second.failure;
}

bool ReplicaRunner::replicaDraining(const std::string &replicaId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(replicaId);
    return it != m_replicas.end() && it->second.phase == Phase::Draining;
}

int ReplicaRunner::portOf(const std::string &replicaId) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(replicaId);
    return it == m_replicas.end() ? 0 : it->second.port;
}

bool ReplicaRunner::alive(Replica &r, std::string &howItEnded)
{
    if (r.pid <= 0) {
        howItEnded = "is not running";
        return false;
    }
    // Reaped when it is this process's child: started by this agent, or by an earlier
    // runner in the same process.
    int status = 0;
    const pid_t reaped = ::waitpid(r.pid, &status, WNOHANG);
    if (reaped == r.pid) {
        howItEnded = describeExit(status);
        r.pid = 0;
        return false;
    }
    if (reaped == 0)
        return true;
    // Adopted from an earlier agent: alive if the pid runs and is still the same process.
    if ((::kill(r.pid, 0) == 0 || errno == EPERM) && r.startTicks != 0 &&
        processStartTicks(r.pid) == r.startTicks)
        return true;
    // systemd, not the agent, is a unit's parent: its exit status is in the journal.
    howItEnded = r.unit.empty() ? "ended while the agent was not watching"
                                : fmt::format("ended; journalctl -u {} says how", r.unit);
    r.pid = 0;
    return false;
}

void ReplicaRunner::tick()
{
    std::vector<Probe> probes;
    const int64_t now = m_clock.nowUnixMs();
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_replicas.begin(); it != m_replicas.end();) {
            if (checkProcess(it->first, it->second, now, probes))
                ++it;
            else
                it = m_replicas.erase(it);
        }
    }
    // The replicas are asked outside the lock: a slow one does not hold up start or stop.
    for (const Probe &probe : probes)
        ask(probe);
}

bool ReplicaRunner::checkProcess(const std::string &id, Replica &r, int64_t now,
                                 std::vector<Probe> &probes)
{
    const ServingCommand *command = commandOf(r);
    if (r.phase == Phase::Failed) {
        if (r.pid > 0 && ::waitpid(r.pid, nullptr, WNOHANG) == r.pid)
            r.pid = 0;  // reaped: no zombie is left behind
        return true;
    }
    std::string howItEnded;
    const bool running = alive(r, howItEnded);
    if (r.phase == Phase::Draining) {
        if (!running) {
            emit(r, Severity::Info, "drained and stopped");
            (void)m_records.remove(kProcessRecord, r.workload.replicaId);
            return false;
        }
        const double grace = command ? command->drainGraceSeconds : 30;
        if (now - r.phaseSinceMs > grace * 1000)
            signalReplica(r.pid, r.unit, SIGKILL, m_options.systemctl);
        return true;
    }
    if (!running) {
        restartOrFail(r, howItEnded);
        return true;
    }
    if (r.phase == Phase::Starting && command &&
        now - r.phaseSinceMs > command->startupTimeoutSeconds * 1000) {
        signalReplica(r.pid, r.unit, SIGKILL, m_options.systemctl);
        r.phase = Phase::Failed;
        r.failure = fmt::format("did not answer {} within {:.0f} s of starting",
                                command->healthPath, command->startupTimeoutSeconds);
        keep(r);
        emit(r, Severity::Critical, r.failure);
        return true;
    }
    if (command) {
        const std::string url = fmt::format("http://{}:{}", m_options.host, r.port);
        const bool starting = r.phase == Phase::Starting;
        probes.push_back({id, url, starting ? command->healthPath : command->metricsPath, starting,
                          command->engine});
    }
    return true;
}

void ReplicaRunner::restartOrFail(Replica &r, const std::string &howItEnded)
{
    const ServingCommand *command = commandOf(r);
    const int limit = command ? command->restartLimit : 0;
    if (r.restarts < limit) {
        ++r.restarts;
        const Status restarted = spawn(r);
        emit(r, Severity::Warning,
             restarted ? fmt::format("{}; restarted ({} of {})", howItEnded, r.restarts, limit)
                       : fmt::format("{}; cannot restart: {}", howItEnded, restarted.message()));
        if (!restarted) {
            r.phase = Phase::Failed;
            r.failure = restarted.message();
            keep(r);
        }
        return;
    }
    r.phase = Phase::Failed;
    r.failure =
        r.restarts > 0 ? fmt::format("{} after {} restarts", howItEnded, r.restarts) : howItEnded;
    r.latest.reset();
    keep(r);
    emit(r, Severity::Critical, r.failure);
}

void ReplicaRunner::ask(const Probe &probe)
{
    httplib::Client client(probe.url);
    client.set_connection_timeout(1);
    client.set_read_timeout(2);
    const auto answer = client.Get(probe.path);
    std::lock_guard lock(m_mutex);
    const auto it = m_replicas.find(probe.id);
    if (it == m_replicas.end())
        return;
    Replica &r = it->second;
    if (probe.health) {
        if (answer && answer->status == 200 && r.phase == Phase::Starting) {
            r.phase = Phase::Serving;
            r.phaseSinceMs = m_clock.nowUnixMs();
            keep(r);
            emit(r, Severity::Info, "serving");
        }
        return;
    }
    if (!answer || answer->status != 200 || r.phase != Phase::Serving)
        return;
    auto samples = readExposition(answer->body, probe.url + probe.path);
    if (!samples)
        return;  // the replica still serves; only its signals are missing this round
    ReplicaSignals signals =
        r.tracker.update(readReplicaScrape(*samples, probe.engine), m_clock.nowUnixMs());
    signals.replicaId = r.workload.replicaId;
    signals.service = r.workload.service;
    signals.servingPort = static_cast<uint32_t>(r.port);
    r.latest = std::move(signals);
}

std::vector<ReplicaSignals> ReplicaRunner::signals() const
{
    std::lock_guard lock(m_mutex);
    std::vector<ReplicaSignals> out;
    for (const auto &[id, r] : m_replicas) {
        if (r.phase == Phase::Serving && r.latest)
            out.push_back(*r.latest);
    }
    return out;
}

}  // namespace meridian

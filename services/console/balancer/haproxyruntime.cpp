#include "haproxyruntime.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "core/clock.h"
#include "core/textutil.h"
#include "wire/hostport.h"

namespace meridian {

namespace {

// A server list of a few hundred lines is a few tens of KiB; past this it is not one.
constexpr size_t kMaxAnswerBytes = 4 << 20;

// Socket deadlines measure real time by nature.
int64_t steadyMs()
{
    return SystemClock::instance().steadyMs();
}

class Socket {
public:
    explicit Socket(int fd) : m_fd(fd) {}
    ~Socket()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    int fd() const { return m_fd; }

private:
    int m_fd;
};

bool waitFor(int fd, short events, int64_t deadline)
{
    for (;;) {
        const int64_t left = deadline - steadyMs();
        if (left <= 0)
            return false;
        pollfd p{fd, events, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left));
        if (ready > 0)
            return true;
        if (ready < 0 && errno != EINTR)
            return false;
    }
}

Result<int> connectBy(const std::string &address, int64_t deadline)
{
    auto resolved = resolveTcp(address);
    if (!resolved)
        return resolved.error();
    const addrinfo *a = resolved->get();
    const int fd = ::socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return Error{std::strerror(errno)};
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        return Error{why};
    }
    int failure = 0;
    socklen_t length = sizeof failure;
    if (!waitFor(fd, POLLOUT, deadline) ||
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 || failure != 0) {
        ::close(fd);
        return Error{failure ? std::strerror(failure) : "no answer in time"};
    }
    return fd;
}

// "# pxname,svname,qcur,…" then a row per proxy and server.
std::vector<std::map<std::string, std::string>> readStatCsv(const std::string &text)
{
    std::vector<std::map<std::string, std::string>> rows;
    std::vector<std::string_view> header;
    for (const std::string_view line : splitLines(text)) {
        if (startsWith(line, "# ")) {
            header = split(line.substr(2), ',');
            continue;
        }
        if (line.empty() || header.empty())
            continue;
        const std::vector<std::string_view> cells = split(line, ',');
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size() && i < cells.size(); ++i)
            row[std::string(header[i])] = std::string(cells[i]);
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace

bool BalancedServer::draining() const
{
    // A checked server says where its checks stand too: "DRAIN 1/3", "MAINT (via …)".
    return status.rfind("DRAIN", 0) == 0 || status.rfind("MAINT", 0) == 0;
}

HaproxyRuntime::HaproxyRuntime(std::string runtimeApi, int timeoutMs)
    : m_runtimeApi(std::move(runtimeApi)), m_timeoutMs(timeoutMs)
{}

Result<std::string> HaproxyRuntime::command(const std::string &line) const
{
    const std::string place = fmt::format("HAProxy runtime API {}", m_runtimeApi);
    const int64_t deadline = steadyMs() + m_timeoutMs;
    auto connected = connectBy(m_runtimeApi, deadline);
    if (!connected)
        return Error{fmt::format("{}: {}", place, connected.error().message)};
    const Socket socket(connected.value());
    const std::string sent = line + "\n";
    if (::send(socket.fd(), sent.data(), sent.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(sent.size()))
        return Error{fmt::format("{}: cannot send '{}'", place, line)};
    std::string answer;
    char chunk[16384];
    for (;;) {
        if (!waitFor(socket.fd(), POLLIN, deadline))
            return Error{
                fmt::format("{}: no whole answer to '{}' within {} ms", place, line, m_timeoutMs)};
        const ssize_t n = ::recv(socket.fd(), chunk, sizeof chunk, 0);
        if (n == 0)
            return answer;  // HAProxy closes after one command
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return Error{fmt::format("{}: {}", place, std::strerror(errno))};
        if (n > 0)
            answer.append(chunk, static_cast<size_t>(n));
        if (answer.size() > kMaxAnswerBytes)
            return Error{fmt::format("{}: the answer to '{}' passed {} MiB", place, line,
                                     kMaxAnswerBytes >> 20)};
    }
}

Status HaproxyRuntime::expectQuiet(const std::string &line) const
{
    auto answer = command(line);
    if (!answer)
        return answer.error();
    const std::string said(trim(answer.value()));
    // Commands that worked say nothing, or one of these.
    if (said.empty() || said == "New server registered." || said == "Server deleted.")
        return {};
    return Error{fmt::format("HAProxy runtime API {}: '{}': {}", m_runtimeApi, line, said)};
}

Result<BackendState> backendFromStatistics(const std::string &answer, const std::string &backend,
                                           const std::string &place)
{
    if (answer.rfind("# pxname,", 0) != 0)
        return Error{
            fmt::format("{}: 'show stat' answered '{}', not statistics (is it HAProxy's "
                        "stats socket, at level admin?)",
                        place, std::string(trim(answer.substr(0, 80))))};
    // Counts past these are not a balancer's: read as absent rather than believed.
    constexpr uint64_t kMostHeld = 1'000'000;
    const auto held = [&](const std::string &cell) {
        const auto n = parseUnsigned(cell);
        return static_cast<int>(n && *n <= kMostHeld ? *n : 0);
    };
    BackendState out;
    bool found = false;
    for (auto &row : readStatCsv(answer)) {
        if (row["pxname"] != backend || row["svname"] == "FRONTEND")
            continue;
        found = true;
        // Queued at the backend itself, or at a server (a full one that a request is
        // bound to): either way waiting at the balancer.
        out.queued += held(row["qcur"]);
        if (row["svname"] == "BACKEND") {
            // HTTP requests where HAProxy counts them, sessions otherwise.
            const auto requests = parseUnsigned(row["req_tot"]);
            out.requestsTotal = requests ? requests : parseUnsigned(row["stot"]);
            out.open = held(row["scur"]);
            continue;
        }
        out.servers.push_back({row["svname"], row["addr"], row["status"], held(row["scur"])});
    }
    if (!found)
        return Error{fmt::format("{}: no backend named {}", place, backend)};
    return out;
}

Result<BackendState> HaproxyRuntime::backend(const std::string &backend) const
{
    auto answer = command("show stat");
    if (!answer)
        return answer.error();
    return backendFromStatistics(answer.value(), backend,
                                 fmt::format("HAProxy runtime API {}", m_runtimeApi));
}

Result<std::vector<BalancedServer>> HaproxyRuntime::servers(const std::string &backend) const
{
    auto state = this->backend(backend);
    if (!state)
        return state.error();
    return std::move(state->servers);
}

Status HaproxyRuntime::addServer(const std::string &backend, const std::string &name,
                                 const std::string &address, const std::string &options) const
{
    const std::string server = backend + "/" + name;
    // Checked by HAProxy itself (the backend's `option httpchk`, else a TCP connect): a
    // replica that dies is out of rotation within its checks, not at the next pass.
    if (Status added = expectQuiet(fmt::format("add server {} {} check{}{}", server, address,
                                               options.empty() ? "" : " ", options));
        !added)
        return added;
    if (Status checked = expectQuiet("enable health " + server); !checked)
        return checked;
    return expectQuiet("enable server " + server);
}

Status HaproxyRuntime::drainServer(const std::string &backend, const std::string &name) const
{
    return expectQuiet(fmt::format("set server {}/{} state drain", backend, name));
}

Status HaproxyRuntime::readyServer(const std::string &backend, const std::string &name) const
{
    return expectQuiet(fmt::format("set server {}/{} state ready", backend, name));
}

Status HaproxyRuntime::deleteServer(const std::string &backend, const std::string &name) const
{
    const std::string server = backend + "/" + name;
    if (Status down = expectQuiet(fmt::format("set server {} state maint", server)); !down)
        return down;
    return expectQuiet("del server " + server);
}

}  // namespace meridian

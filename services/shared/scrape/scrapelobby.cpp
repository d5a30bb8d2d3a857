#include "scrapelobby.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tuple>
#include <vector>

#include "core/clock.h"
#include "wire/hostport.h"

namespace meridian {

namespace {

// A peer's silence is real time on the machine.
int64_t lobbyClockMs()
{
    return SystemClock::instance().steadyMs();
}

}  // namespace

ScrapeLobby::ScrapeLobby(LobbyLimits limits, std::function<void(int fd)> speaks)
    : m_limits(limits)
    , m_speaks(std::move(speaks))
    , m_epoll(::epoll_create1(EPOLL_CLOEXEC))
    , m_wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{
    epoll_event wake{};
    wake.events = EPOLLIN;
    wake.data.fd = m_wake;
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &wake);
    m_thread = std::thread([this] { run(); });
}

ScrapeLobby::~ScrapeLobby()
{
    m_stopping = true;
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t woke = ::write(m_wake, &one, sizeof one);
    m_thread.join();
    const std::lock_guard lock(m_mutex);
    while (!m_waiting.empty())
        closeLocked(m_waiting.begin());
    ::close(m_wake);
    ::close(m_epoll);
}

void ScrapeLobby::admit(int fd)
{
    const std::string network = fairShareNetworkOf(peerIpOf(fd));
    const std::lock_guard lock(m_mutex);
    if (m_stopping) {
        ::close(fd);
        return;
    }
    makeRoomLocked(network);
    m_waiting.push_back({fd, network, lobbyClockMs()});
    m_byFd[fd] = std::prev(m_waiting.end());
    ++m_perNetwork[network];
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
    event.data.fd = fd;
    if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event) != 0)
        closeLocked(m_byFd[fd]);
}

size_t ScrapeLobby::waiting() const
{
    const std::lock_guard lock(m_mutex);
    return m_waiting.size();
}

void ScrapeLobby::makeRoomLocked(const std::string &network)
{
    // The newcomer's own network gives way first, so churn from one place cannot push
    // out a client from elsewhere; past the whole lobby's size, the network with most.
    if (m_perNetwork[network] >= m_limits.maxWaitingPerNetwork) {
        for (auto it = m_waiting.begin(); it != m_waiting.end(); ++it) {
            if (it->network == network) {
                closeLocked(it);
                break;
            }
        }
    }
    if (m_waiting.size() < m_limits.maxWaiting)
        return;
    std::string most;
    size_t mostCount = 0;
    for (const auto &[net, count] : m_perNetwork) {
        if (count > mostCount)
            std::tie(most, mostCount) = std::tie(net, count);
    }
    for (auto it = m_waiting.begin(); it != m_waiting.end(); ++it) {
        if (it->network == most) {
            closeLocked(it);
            return;
        }
    }
}

void ScrapeLobby::closeLocked(std::list<Waiting>::iterator it)
{
    ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, it->fd, nullptr);
    ::shutdown(it->fd, SHUT_RDWR);
    ::close(it->fd);
    if (--m_perNetwork[it->network] == 0)
        m_perNetwork.erase(it->network);
    m_byFd.erase(it->fd);
    m_waiting.erase(it);
}

void ScrapeLobby::expireLocked(int64_t nowMs)
{
    while (!m_waiting.empty() && nowMs - m_waiting.front().sinceMs >= m_limits.silentForMs)
        closeLocked(m_waiting.begin());
}

void ScrapeLobby::run()
{
    constexpr int kMaxEvents = 64;
    epoll_event events[kMaxEvents];
    while (!m_stopping) {
        // Woken at least every second to close the connections silent too long.
        const int ready = ::epoll_wait(m_epoll, events, kMaxEvents, 1000);
        std::vector<int> speaking;
        {
            const std::lock_guard lock(m_mutex);
            for (int i = 0; i < ready; ++i) {
                const int fd = events[i].data.fd;
                const auto it = m_byFd.find(fd);
                if (fd == m_wake || it == m_byFd.end())
                    continue;
                ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
                if (--m_perNetwork[it->second->network] == 0)
                    m_perNetwork.erase(it->second->network);
                m_waiting.erase(it->second);
                m_byFd.erase(it);
                speaking.push_back(fd);
            }
            expireLocked(lobbyClockMs());
        }
        for (const int fd : speaking) {
            if (m_stopping)
                ::close(fd);
            else
                m_speaks(fd);  // a peer that closed is read as closed by its worker
        }
    }
}

}  // namespace meridian

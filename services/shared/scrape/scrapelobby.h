// Where an HTTP endpoint's accepted connections wait until they send their first byte,
// holding no worker: one thread watches them all (epoll) and hands each that speaks to
// the workers. So hundreds of idle or half-open connections (a scanner, a broken client,
// an attack) cost a file each, not the scrapes and triage behind them. The lobby is
// bounded: past its share a network's oldest waiting connection is closed, past its size
// the oldest of the network holding the most, and any that stays silent past the
// deadline is closed too.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace meridian {

struct LobbyLimits {
    size_t maxWaiting = 1024;
    size_t maxWaitingPerNetwork = 64;  // an IPv4 /24, an IPv6 /64
    int silentForMs = 10'000;          // from accepting to the first byte
};

class ScrapeLobby {
public:
    // `speaks` takes a connection that has bytes to read (it then owns the socket).
    ScrapeLobby(LobbyLimits limits, std::function<void(int fd)> speaks);
    ~ScrapeLobby();  // closes every connection still waiting
    ScrapeLobby(const ScrapeLobby &) = delete;
    ScrapeLobby &operator=(const ScrapeLobby &) = delete;

    // Takes the socket; it leaves the lobby to `speaks`, or closed.
    void admit(int fd);
    size_t waiting() const;

private:
    struct Waiting {
        int fd;
        std::string network;
        int64_t sinceMs;
    };
    void run();
    void closeLocked(std::list<Waiting>::iterator it);
    void makeRoomLocked(const std::string &network);
    void expireLocked(int64_t nowMs);

    LobbyLimits m_limits;
    std::function<void(int)> m_speaks;
    int m_epoll = -1;
    int m_wake = -1;  // an eventfd that ends the thread's wait
    mutable std::mutex m_mutex;
    std::list<Waiting> m_waiting;  // oldest first
    std::map<int, std::list<Waiting>::iterator> m_byFd;
    std::map<std::string, size_t> m_perNetwork;
    std::atomic<bool> m_stopping{false};
    std::thread m_thread;
};

}  // namespace meridian

// An HTTP server on loopback that answers the way a broken or hostile receiver does: a
// reply that never ends (chunks as fast as the socket takes them), or one that promises
// 100 MB and sends a byte a second. For tests that prove a client bounds what it reads
// and how long it waits.
#pragma once

#include <atomic>
#include <list>
#include <mutex>
#include <string>
#include <thread>

namespace meridian::test {

enum class HostileReply { Endless, DripAByteASecond };

class HostileHttpServer {
public:
    explicit HostileHttpServer(HostileReply reply);
    ~HostileHttpServer();

    int port() const { return m_port; }
    std::string url(const std::string &path = "/") const;
    int requests() const { return m_requests; }

private:
    void acceptLoop();
    void answer(int fd);

    HostileReply m_reply;
    int m_listening = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_requests{0};
    std::mutex m_mutex;
    std::list<std::thread> m_answers;
    std::thread m_acceptor;
};

}  // namespace meridian::test

#include "hostilehttp.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "core/brokenpipes.h"

namespace meridian::test {

namespace {

// Sends it all unless the client goes or the server stops; a client that stops reading
// is waited for (the socket's send timeout lets the stop be seen).
bool sendAll(int fd, const std::string &bytes, const std::atomic<bool> &stop)
{
    size_t sent = 0;
    while (sent < bytes.size() && !stop) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n > 0)
            sent += static_cast<size_t>(n);
        else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return false;
    }
    return sent == bytes.size();
}

// Reads the request's head (its body, if any, is left unread).
bool readHead(int fd, const std::atomic<bool> &stop)
{
    std::string head;
    char chunk[4096];
    while (!stop && head.find("\r\n\r\n") == std::string::npos && head.size() < (1 << 20)) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0)
            return false;
        head.append(chunk, static_cast<size_t>(n));
    }
    return !stop;
}

}  // namespace

HostileHttpServer::HostileHttpServer(HostileReply reply) : m_reply(reply)
{
    ignoreBrokenPipes();
    m_listening = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(m_listening, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 &&
        ::listen(m_listening, 64) == 0 &&
        ::getsockname(m_listening, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        m_port = ntohs(address.sin_port);
    m_acceptor = std::thread([this] { acceptLoop(); });
}

HostileHttpServer::~HostileHttpServer()
{
    m_stop = true;
    m_acceptor.join();
    for (std::thread &t : m_answers)
        t.join();
    ::close(m_listening);
}

std::string HostileHttpServer::url(const std::string &path) const
{
    return "http://127.0.0.1:" + std::to_string(m_port) + path;
}

void HostileHttpServer::acceptLoop()
{
    while (!m_stop) {
        pollfd p{m_listening, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const int fd = ::accept4(m_listening, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        const timeval slice{0, 200'000};
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &slice, sizeof slice);
        std::lock_guard lock(m_mutex);
        m_answers.emplace_back([this, fd] {
            answer(fd);
            ::close(fd);
        });
    }
}

void HostileHttpServer::answer(int fd)
{
    if (!readHead(fd, m_stop))
        return;
    ++m_requests;
    if (m_reply == HostileReply::Endless) {
        const std::string chunk = "4000\r\n" + std::string(0x4000, 'x') + "\r\n";
        if (!sendAll(fd,
                     "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n",
                     m_stop))
            return;
        while (!m_stop && sendAll(fd, chunk, m_stop)) {
        }
        return;
    }
    if (!sendAll(fd,
                 "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                 "Content-Length: 100000000\r\n\r\n{",
                 m_stop))
        return;
    for (int second = 0; !m_stop && sendAll(fd, " ", m_stop); ++second) {
        for (int slice = 0; slice < 10 && !m_stop; ++slice)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

}  // namespace meridian::test

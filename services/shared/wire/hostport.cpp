#include "hostport.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <charconv>

#include "core/textutil.h"

namespace meridian {

namespace {

bool isLoopback(const sockaddr *address)
{
    if (address->sa_family == AF_INET) {
        const auto *v4 = reinterpret_cast<const sockaddr_in *>(address);
        return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
    }
    if (address->sa_family == AF_INET6) {
        const auto *v6 = reinterpret_cast<const sockaddr_in6 *>(address);
        if (IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr))
            return true;
        // ::ffff:127.x.y.z
        return IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr) && v6->sin6_addr.s6_addr[12] == 127;
    }
    return false;
}

}  // namespace

Result<HostPort> parseHostPort(std::string_view address)
{
    HostPort parsed;
    std::string_view portText;
    if (startsWith(address, "[")) {
        const size_t close = address.find(']');
        if (close == std::string_view::npos || close + 1 >= address.size() ||
            address[close + 1] != ':')
            return Error{fmt::format("'{}' is not [ipv6]:port", address)};
        parsed.host = std::string(address.substr(1, close - 1));
        portText = address.substr(close + 2);
    } else {
        const size_t colon = address.rfind(':');
        if (colon == std::string_view::npos || colon == 0)
            return Error{fmt::format("'{}' is not host:port", address)};
        parsed.host = std::string(address.substr(0, colon));
        portText = address.substr(colon + 1);
        if (parsed.host.find(':') != std::string::npos)
            return Error{fmt::format("'{}': write an IPv6 address as [addr]:port", address)};
    }
    const auto [end, ec] =
        std::from_chars(portText.data(), portText.data() + portText.size(), parsed.port);
    if (portText.empty() || ec != std::errc() || end != portText.data() + portText.size() ||
        parsed.port < 0 || parsed.port > 65535)
        return Error{fmt::format("'{}': the port must be a number 0..65535", address)};
    if (parsed.host.empty())
        return Error{fmt::format("'{}' names no host", address)};
    return parsed;
}

Result<ResolvedAddresses> resolveTcp(const std::string &address)
{
    auto hostPort = parseHostPort(address);
    if (!hostPort)
        return hostPort.error();
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo *found = nullptr;
    const std::string port = std::to_string(hostPort->port);
    if (const int failed = getaddrinfo(hostPort->host.c_str(), port.c_str(), &hints, &found))
        return Error{fmt::format("cannot resolve '{}': {}", hostPort->host, gai_strerror(failed))};
    return ResolvedAddresses(found, freeaddrinfo);
}

Result<bool> isLoopbackHost(const std::string &address)
{
    if (startsWith(address, "unix:"))
        return true;
    auto resolved = resolveTcp(address);
    if (!resolved)
        return resolved.error();
    bool allLoopback = resolved->get() != nullptr;
    for (const addrinfo *a = resolved->get(); a; a = a->ai_next)
        allLoopback = allLoopback && isLoopback(a->ai_addr);
    return allLoopback;
}

std::string fairShareNetworkOf(const std::string &ip)
{
    in_addr v4{};
    in6_addr v6{};
    if (::inet_pton(AF_INET, ip.c_str(), &v4) == 1) {
        const uint32_t host = ntohl(v4.s_addr);
        return fmt::format("{}.{}.{}.0/24", host >> 24, (host >> 16) & 0xff, (host >> 8) & 0xff);
    }
    if (::inet_pton(AF_INET6, ip.c_str(), &v6) != 1)
        return ip;
    const uint8_t *b = v6.s6_addr;
    if (IN6_IS_ADDR_V4MAPPED(&v6))
        return fmt::format("{}.{}.{}.0/24", b[12], b[13], b[14]);
    return fmt::format("{:02x}{:02x}:{:02x}{:02x}:{:02x}{:02x}:{:02x}{:02x}::/64", b[0], b[1], b[2],
                       b[3], b[4], b[5], b[6], b[7]);
}

std::string ipTextOf(const sockaddr_storage &address)
{
    char host[INET6_ADDRSTRLEN] = "?";
    if (address.ss_family == AF_INET)
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in *>(&address)->sin_addr, host,
                    sizeof host);
    else if (address.ss_family == AF_INET6)
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6 *>(&address)->sin6_addr, host,
                    sizeof host);
    return host;
}

std::string peerIpOf(int fd)
{
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return "?";
    return ipTextOf(address);
}

}  // namespace meridian

// "host:port" addresses as people write them in inventories and --listen, and what
// such a host really is: loopback is decided by what the name resolves to, never by
// how it is spelt ("127.evil.example" is not loopback).
#pragma once

#include <sys/socket.h>

#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"

struct addrinfo;  // <netdb.h>

namespace meridian {

struct HostPort {
    std::string host;  // without brackets for IPv6
    int port = 0;
};

// "host:port" or "[v6]:port", port 0..65535; an error says what is wrong with it.
Result<HostPort> parseHostPort(std::string_view address);

// What "host:port" resolves to, for TCP (freed with its owner), or an error naming it.
using ResolvedAddresses = std::unique_ptr<addrinfo, void (*)(addrinfo *)>;
Result<ResolvedAddresses> resolveTcp(const std::string &address);

// True when every address the host resolves to is a loopback address (127.0.0.0/8,
// ::1); false when any is not; an error when it does not resolve at all. "unix:"
// addresses are local by nature.
Result<bool> isLoopbackHost(const std::string &address);

// The network an IP address ("10.1.2.3", "2001:db8::7") counts in when clients are shared
// out fairly: its /24 for IPv4 (an IPv4-mapped IPv6 address too), its /64 for IPv6, the
// blocks one party usually holds whole. Text that is no address is its own network.
std::string fairShareNetworkOf(const std::string &ip);

// An accepted socket's peer address as text ("127.0.0.1", "::1"); "?" where it has none.
std::string peerIpOf(int fd);
// The same for an address already read (accept's, getpeername's).
std::string ipTextOf(const sockaddr_storage &address);

}  // namespace meridian

// meridian-pool: the capacity pool as a daemon of its own.
//   meridian-pool --config /etc/meridian/pool.yaml
//   meridian-pool local-provider --nodes FILE --state FILE lease|release|list
#include <fmt/format.h>
#include <grpcpp/server.h>
#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "core/brokenpipes.h"
#include "core/clock.h"
#include "core/exitnow.h"
#include "core/openfiles.h"
#include "pool/leasebook.h"
#include "pool/localprovider.h"
#include "pool/poolconfig.h"
#include "pool/poolservice.h"
#include "wire/grpcserver.h"

namespace {

volatile std::sig_atomic_t g_stop = 0;
void onSignal(int)
{
    g_stop = 1;
}

int servePool(const std::string &configFile, const std::string &listen)
{
    using namespace meridian;
    PoolConfig config;
    if (Status s = loadPoolConfig(configFile, config); !s) {
        fmt::print(stderr, "meridian-pool: {}\n", s.message());
        return 2;
    }
    if (!listen.empty())
        config.listen = listen;
    auto book = LeaseBook::open(config.dataDir);
    if (!book) {
        fmt::print(stderr, "meridian-pool: {}\n", book.error().message);
        return 2;
    }
    const ServerSecurity security = config.security;
    const std::string address = config.listen;
    PoolService service(std::move(config), **book, SystemClock::instance());
    if (Status s = service.resume(); !s) {
        fmt::print(stderr, "meridian-pool: {}\n", s.message());
        return 2;
    }
    int port = 0;
    auto server = startGuardedGrpcServer({{address, &port}}, security, {&service});
    if (!server) {
        fmt::print(stderr, "meridian-pool: {}\n", server.error().message);
        return 2;
    }
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    fmt::print(
        "meridian-pool: serving on {}:{}{}; books {}\n", address.substr(0, address.rfind(':')),
        port, security.tlsEnabled() ? " with TLS" : " (plaintext, loopback only)", (*book)->path());
    std::fflush(stdout);
    while (!g_stop)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    fmt::print("meridian-pool: stopping\n");
    server.value()->stop(2000);
    // A provider may be minutes into a lease; the books already say what is owed, and the
    // next start takes it up, so the pool leaves without waiting for it.
    std::fflush(stdout);
    meridian::exitNow(0);
}

}  // namespace

int main(int argc, char **argv)
{
    meridian::ignoreBrokenPipes();  // a client gone mid-TLS costs a connection, not us
    meridian::raiseOpenFileLimit();
    CLI::App app{"Meridian capacity pool: leases nodes from its providers over gRPC"};
    std::string configFile = "/etc/meridian/pool.yaml";
    std::string listen;
    app.add_option("--config", configFile, "YAML configuration file");
    app.add_option("--listen", listen, "address to serve on (overrides the file's listen:)");
    auto *local = app.add_subcommand(
        "local-provider", "the provider of spare local nodes, as the pool runs it (stdin: JSON)");
    std::string nodesFile, stateFile, verb;
    local->add_option("--nodes", nodesFile, "the spare nodes (YAML)")->required();
    local->add_option("--state", stateFile, "which node holds which lease (JSON)")->required();
    local->add_option("verb", verb, "lease, release or list")->required();
    CLI11_PARSE(app, argc, argv);
    if (*local)
        return meridian::runLocalProvider(nodesFile, stateFile, verb, std::cin, std::cout,
                                          std::cerr);
    return servePool(configFile, listen);
}

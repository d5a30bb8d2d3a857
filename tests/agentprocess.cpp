#include "agentprocess.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "core/brokenpipes.h"
#include "testsupport.h"

extern char **environ;

using namespace std::chrono_literals;

namespace meridian::test {

int freePort()
{
    // Ports below the kernel's ephemeral range (32768 and up), so no outgoing connection
    // of another test takes one between this check and the bind of whoever asked; each
    // held by a file lock that this process keeps until it exits, so tests running side
    // by side never hand out the same one.
    constexpr int kFirst = 20000;
    constexpr int kCount = 12000;
    static std::mutex mutex;
    static int next = kFirst + static_cast<int>(getpid() * 7919 % kCount);
    std::lock_guard lock(mutex);
    const std::filesystem::path locks =
        std::filesystem::temp_directory_path() / "meridian-test-ports";
    std::error_code ec;
    std::filesystem::create_directories(locks, ec);
    for (int tried = 0; tried < kCount; ++tried) {
        const int port = next;
        next = kFirst + (next - kFirst + 1) % kCount;
        const std::string lockFile = (locks / std::to_string(port)).string();
        const int held = ::open(lockFile.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (held < 0)
            continue;
        if (::flock(held, LOCK_EX | LOCK_NB) != 0) {
            ::close(held);  // another test process has it
            continue;
        }
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_ANY);
        addr.sin_port = htons(static_cast<uint16_t>(port));
        const bool free = bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
        ::close(fd);
        if (free)
            return port;  // the lock stays held: this process's port from now on
        ::close(held);
    }
    ADD_FAILURE() << "no free port between " << kFirst << " and " << kFirst + kCount;
    return 0;
}

bool makeLocalhostCertificate(const std::string &keyFile, const std::string &certFile)
{
    // An EC P-256 key: made in a millisecond where RSA 2048 takes 0.1-0.6 s of CPU, and
    // each handshake signs in a tenth of the time (the front door's cases make
    // thousands). The mutual-TLS case keeps RSA, so both kinds are served.
    const std::string command =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 "
        "-subj /CN=localhost "
        "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
        keyFile + " -out " + certFile + " >/dev/null 2>&1";
    return std::system(command.c_str()) == 0;
}

namespace {

// A TCP socket connected to 127.0.0.1:port, or -1 (none is left open then).
int connectedToLoopback(int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

}  // namespace

bool handshakeAndReset(int port, const std::string &caFile)
{
    const int fd = connectedToLoopback(port);
    if (fd < 0)
        return false;
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    SSL_CTX_load_verify_locations(context, caFile.c_str(), nullptr);
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    SSL *tls = SSL_new(context);
    SSL_set_fd(tls, fd);
    const bool done = SSL_connect(tls) == 1;
    const linger reset{1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    SSL_free(tls);
    ::close(fd);
    SSL_CTX_free(context);
    return done;
}

std::string writeTlsAgentConfig(const TempDir &dir, const std::string &moreYaml)
{
    const std::string key = dir.file("agent.key");
    const std::string cert = dir.file("agent.crt");
    if (!makeLocalhostCertificate(key, cert))
        return {};
    const std::string path = dir.file("agent.yaml");
    std::ofstream(path) << "collector: sim\ndata_dir: " << dir.file("data")
                        << "\ntls: {cert_file: " << cert << ", key_file: " << key << "}\n"
                        << moreYaml;
    return path;
}

AgentProcess::AgentProcess(std::vector<std::string> args, AgentLimits limits)
{
    // posix_spawn, not fork: gRPC's fork handlers would disturb this process's channels.
    // prlimit (util-linux) sets the limit and then execs the agent, so the pid is its.
    std::vector<std::string> command;
    if (limits.threads > 0)
        command = {"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
    if (limits.openFiles > 0 || limits.threads > 0) {
        command.push_back("prlimit");
        if (limits.openFiles > 0)
            command.push_back(fmt::format("--nofile={}:{}", limits.openFiles, limits.openFiles));
        if (limits.threads > 0)
            command.push_back(fmt::format("--nproc={}", limits.threads));
        command.push_back("--");
    }
    std::string binary = MERIDIAN_AGENT_BIN;
    if (limits.threads > 0) {
        const std::string copy = limits.scratchDir + "/meridian-agent";
        std::filesystem::copy_file(binary, copy, std::filesystem::copy_options::overwrite_existing);
        ::chmod(copy.c_str(), 0755);
        binary = copy;
    }
    command.push_back(binary);
    command.insert(command.end(), args.begin(), args.end());
    if (limits.runUnder)
        command = limits.runUnder(std::move(command));
    std::vector<char *> argv;
    for (auto &a : command)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // Started as a shell starts it, whatever this process did with SIGPIPE: a test then
    // sees an agent that does not ignore SIGPIPE itself die of it.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    restoreBrokenPipesOnSpawn(attributes);
    if (posix_spawnp(&m_pid, argv[0], nullptr, &attributes, argv.data(), environ) != 0)
        m_pid = -1;
    posix_spawnattr_destroy(&attributes);
}

void AgentProcess::stop(int signal)
{
    if (m_pid > 0) {
        kill(m_pid, signal);
        int status = 0;
        waitpid(m_pid, &status, 0);
        m_pid = -1;
    }
}

int AgentProcess::exitedWith()
{
    int status = 0;
    if (m_pid <= 0 || waitpid(m_pid, &status, WNOHANG) != m_pid)
        return -1;
    m_pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int AgentProcess::waitExit()
{
    // Gone already (stopped, or seen to exit): waitpid(-1) would wait for any child.
    if (m_pid <= 0)
        return -1;
    int status = 0;
    waitpid(m_pid, &status, 0);
    m_pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

double residentMiB(pid_t pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    }
    return 0;
}

int threadCount(pid_t pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Threads:", 0) == 0)
            return std::stoi(line.substr(8));
    }
    return 0;
}

bool untilListening(const std::string &address, std::chrono::milliseconds within)
{
    const size_t colon = address.rfind(':');
    const int port = colon == std::string::npos ? 0 : std::atoi(address.c_str() + colon + 1);
    if (port <= 0 || port > 65535)
        return false;
    const auto deadline = std::chrono::steady_clock::now() + within;
    do {
        if (const int fd = connectedToLoopback(port); fd >= 0) {
            ::close(fd);
            return true;
        }
        std::this_thread::sleep_for(20ms);
    } while (std::chrono::steady_clock::now() < deadline);
    return false;
}

std::unique_ptr<v1::NodeAgent::Stub> connect(const std::string &address,
                                             const ClientSecurity &security)
{
    // A channel whose first try finds the port closed waits out gRPC's reconnect back-off
    // (a second) before it tries again: a process just started is given time to listen.
    (void)untilListening(address, 10s);
    auto channel = makeChannel(address, security);
    channel->WaitForConnected(std::chrono::system_clock::now() + 10s);
    return v1::NodeAgent::NewStub(channel);
}

void withDeadline(grpc::ClientContext &context, std::chrono::seconds s)
{
    context.set_deadline(std::chrono::system_clock::now() + s);
}

std::unique_ptr<grpc::Server> serveOnLoopback(grpc::Service &service, int &port)
{
    grpc::ServerBuilder builder;
    builder.RegisterService(&service);
    port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    EXPECT_GT(port, 0) << "no loopback port to serve on";
    return port > 0 ? std::move(server) : nullptr;
}

bool untilAnswering(v1::NodeAgent::Stub &stub)
{
    for (int attempt = 0; attempt < 50; ++attempt) {
        grpc::ClientContext context;
        withDeadline(context, 2s);
        context.set_wait_for_ready(true);
        v1::NodeInventory inventory;
        const grpc::Status status = stub.GetInventory(&context, {}, &inventory);
        if (status.ok())
            return true;
        if (status.error_code() != grpc::StatusCode::UNAVAILABLE)
            return false;
        std::this_thread::sleep_for(100ms);
    }
    return false;
}

}  // namespace meridian::test

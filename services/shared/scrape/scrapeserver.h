// cpp-httplib's server, its routing and answers kept, with each connection served by
// serveScrapeConnection (deadlines for the whole request, a cap on its size) and a
// worker pool that says when connections are waiting for a worker. Included only where
// the /metrics endpoint is built: it brings in all of httplib.h.
#pragma once

#include <httplib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <poll.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <type_traits>

#include "scrapeconnection.h"
#include "scrapelobby.h"

namespace meridian {

class ScrapeWorkers;

// The workers as the lobby reaches them: none once they are shutting down.
struct WorkersHandle {
    std::mutex mutex;
    ScrapeWorkers *workers = nullptr;
};

// httplib's thread pool, counting the connections accepted but not yet given a worker.
class ScrapeWorkers final : public httplib::TaskQueue {
public:
    ScrapeWorkers(size_t threads, std::shared_ptr<std::atomic<int>> waiting,
                  std::shared_ptr<WorkersHandle> handle)
        : m_pool(threads), m_waiting(std::move(waiting)), m_handle(std::move(handle))
    {
        const std::lock_guard lock(m_handle->mutex);
        m_handle->workers = this;
    }
    void enqueue(std::function<void()> task) override
    {
        ++*m_waiting;
        m_pool.enqueue([waiting = m_waiting, task = std::move(task)] {
            --*waiting;
            task();
        });
    }
    void shutdown() override
    {
        {
            const std::lock_guard lock(m_handle->mutex);
            m_handle->workers = nullptr;
        }
        m_pool.shutdown();
    }

private:
    httplib::ThreadPool m_pool;
    std::shared_ptr<std::atomic<int>> m_waiting;
    std::shared_ptr<WorkersHandle> m_handle;
};

// Base is httplib::Server or httplib::SSLServer.
template <class Base>
class ScrapeServer final : public Base {
public:
    using Base::Base;

    void setWorkers(size_t threads)
    {
        this->new_task_queue = [threads, waiting = m_waiting, handle = m_handle] {
            return new ScrapeWorkers(threads, waiting, handle);
        };
    }
    ScrapeLimits limits;

private:
    // httplib's listen loop calls this for each accepted connection, on a worker. One
    // that has said nothing yet waits in the lobby, holding no worker, until it does.
    bool process_and_close_socket(socket_t sock) override
    {
        pollfd ready{sock, POLLIN, 0};
        if (::poll(&ready, 1, 0) == 0) {
            m_lobby.admit(sock);
            return true;
        }
        return serve(sock);
    }

    bool serve(socket_t sock)
    {
        ScrapeConnection connection;
        connection.fd = sock;
        if constexpr (std::is_base_of_v<httplib::SSLServer, Base>)
            connection.tls = this->ssl_context();
        connection.limits = limits;
        connection.underPressure = [waiting = m_waiting] { return *waiting > 0; };
        connection.running = [this] { return this->svr_sock_ != INVALID_SOCKET; };
        connection.serveRequest = [this](httplib::Stream &stream, bool closeAfter, bool &closed) {
            return this->process_request(stream, closeAfter, closed, nullptr);
        };
        const bool served = serveScrapeConnection(connection);
        ::shutdown(sock, SHUT_RDWR);
        ::close(sock);
        return served;
    }

    // Back from the lobby to a worker, or closed once the workers are going.
    void speaks(int fd)
    {
        const std::lock_guard lock(m_handle->mutex);
        if (m_handle->workers)
            m_handle->workers->enqueue([this, fd] { serve(fd); });
        else
            ::close(fd);
    }

    std::shared_ptr<std::atomic<int>> m_waiting = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<WorkersHandle> m_handle = std::make_shared<WorkersHandle>();
    ScrapeLobby m_lobby{LobbyLimits{}, [this](int fd) { speaks(fd); }};
};

}  // namespace meridian

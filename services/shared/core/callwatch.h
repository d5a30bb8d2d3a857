// Bounds blocking calls that a library cannot bound itself. cpp-httplib's client times
// each read, not a request: a server dripping a byte a second, or a reply that never
// ends, holds the calling thread for ever. A call is watched from its start: once its
// time is up the watch aborts it from a thread of its own (httplib's Client::stop()), and
// again every 100 ms until the call returns, since an abort can land before the request
// has begun. abortAll() ends every call at once, for a program that is exiting.
// Measured in real time: a peer's slowness is seconds on the wall. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "clock.h"

namespace meridian {

class ClockWait;

class CallWatch {
public:
    explicit CallWatch(const Clock &clock = SystemClock::instance());
    ~CallWatch();
    CallWatch(const CallWatch &) = delete;
    CallWatch &operator=(const CallWatch &) = delete;

    // Unwatches its call when it goes; an abort under way is waited out first, so the
    // abort never touches what the caller frees after.
    class Watched {
    public:
        Watched(CallWatch &watch, uint64_t id) : m_watch(&watch), m_id(id) {}
        Watched(Watched &&other) noexcept;
        Watched &operator=(Watched &&) = delete;
        ~Watched();
        // Whether the call was aborted (its time ran out, or abortAll).
        bool aborted() const;

    private:
        CallWatch *m_watch;
        uint64_t m_id;
    };

    [[nodiscard]] Watched watch(int timeoutMs, std::function<void()> abort);
    // Aborts every call, and every call watched from now on as it starts.
    void abortAll();

private:
    struct Call {
        int64_t deadlineMs = 0;
        std::function<void()> abort;
        bool aborted = false;
    };
    void run();

    const Clock &m_clock;
    mutable std::mutex m_mutex;
    std::unique_ptr<ClockWait> m_wait;
    std::map<uint64_t, Call> m_calls;
    uint64_t m_nextId = 1;
    bool m_abortingAll = false;
    bool m_stopping = false;
    std::thread m_thread;
};

}  // namespace meridian

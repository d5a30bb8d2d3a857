// A door the fakes' calls wait at until the test opens it: a slow far end whose answer
// comes when the test says, not after a pause. A call waits at most `limit`, so a test
// that waited for the answer itself fails instead of hanging.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace meridian::test {

class Gate {
public:
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    // True when the gate was opened, false when `limit` passed first.
    bool pass(std::chrono::milliseconds limit = std::chrono::seconds(10))
    {
        std::unique_lock lock(m_mutex);
        ++m_arrived;
        m_changed.notify_all();
        return m_changed.wait_for(lock, limit, [&] { return m_open; });
    }
    // Until `calls` calls have come to the gate (or `limit` passed).
    bool arrived(int calls, std::chrono::milliseconds limit = std::chrono::seconds(10))
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, limit, [&] { return m_arrived >= calls; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = false;
    int m_arrived = 0;
};

}  // namespace meridian::test

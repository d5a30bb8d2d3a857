#include "clock.h"

#include <chrono>

namespace meridian {

int64_t SystemClock::nowUnixMs() const
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

SystemClock &SystemClock::instance()
{
    static SystemClock clock;
    return clock;
}

}  // namespace meridian

#include "crashdrill.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#include "autoscaler/scalingjournal.h"

namespace meridian {

Status armCrashDrill(ScalingJournal &journal)
{
    const char *drill = std::getenv("MERIDIAN_SCALED_KILL_AFTER");
    if (!drill || !*drill)
        return {};
    const std::string text(drill);
    const size_t plus = text.find('+');
    const auto state = stepStateFromName(text.substr(0, plus));
    int delayMs = 0;
    if (plus != std::string::npos) {
        try {
            delayMs = std::stoi(text.substr(plus + 1));
        } catch (const std::exception &) {
            delayMs = -1;
        }
    }
    if (!state || delayMs < 0 || delayMs > 600'000)
        return Error{
            fmt::format("MERIDIAN_SCALED_KILL_AFTER={}: expected a journal state and "
                        "an optional +milliseconds, e.g. leasing+300",
                        text)};
    fmt::print(stderr, "meridian-scaled: crash drill armed: kill -9 {} ms after a step is {}\n",
               delayMs, text.substr(0, plus));
    auto fired = std::make_shared<std::atomic<bool>>(false);
    journal.setStepObserver([want = *state, delayMs, fired](int64_t, StepState moved) {
        if (moved != want || fired->exchange(true))
            return;
        std::thread([delayMs] {
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
            std::raise(SIGKILL);
        }).detach();
    });
    return {};
}

}  // namespace meridian

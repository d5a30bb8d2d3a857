#include "controllerwatch.h"

#include <fmt/format.h>

#include "routehttp.h"

namespace meridian {

namespace {

// Its exposition is a few KiB per service; past this it is not meridian-scaled's.
constexpr size_t kMaxControllerMetricsBytes = 4 * 1024 * 1024;
constexpr int kReadMs = 5000;

}  // namespace

ControllerWatch::ControllerWatch(AlertRoute controller, const Clock &clock)
    : m_controller(std::move(controller)), m_thread(clock)
{
    while (!m_controller.url.empty() && m_controller.url.back() == '/')
        m_controller.url.pop_back();
    if (!m_controller.url.ends_with("/metrics"))
        m_controller.url += "/metrics";
}

ControllerWatch::~ControllerWatch()
{
    m_thread.stop();
}

void ControllerWatch::start(std::chrono::milliseconds interval, Seen seen)
{
    m_thread.start(interval, [this, seen = std::move(seen)] {
        const auto [figures, observation] = read(m_controller, kReadMs);
        seen(figures, observation);
    });
}

std::pair<ScaledFigures, ControllerObservation> ControllerWatch::read(const AlertRoute &controller,
                                                                      int timeoutMs)
{
    ScaledFigures figures;
    ControllerObservation observation;
    RouteCall call;
    call.method = "GET";
    call.url = controller.url;
    call.maxAnswerBytes = kMaxControllerMetricsBytes;
    CallWatch watch;
    const auto answer = callRoute(controller, call, timeoutMs, watch);
    if (!answer) {
        observation.problem = answer.error().message;
    } else if (answer->status != 200) {
        observation.problem = fmt::format("{} answered HTTP {}", call.url, answer->status);
    } else if (auto parsed = parseScaledMetrics(answer->body); !parsed) {
        observation.problem = fmt::format("{}: {}", call.url, parsed.error().message);
    } else {
        figures = std::move(parsed).value();
        observation.answered = true;
        observation.lastPassMs = figures.lastPassMs;
    }
    return {figures, observation};
}

}  // namespace meridian

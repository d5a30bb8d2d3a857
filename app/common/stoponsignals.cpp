#include "stoponsignals.h"

#include <QTimer>
#include <csignal>

namespace meridian {

namespace {

volatile std::sig_atomic_t g_stopAsked = 0;

void onStopSignal(int)
{
    g_stopAsked = 1;
}

}  // namespace

void stopOnSignals(QObject *owner, std::function<void()> stop)
{
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    auto *check = new QTimer(owner);
    QObject::connect(check, &QTimer::timeout, owner, [check, stop = std::move(stop)] {
        if (!g_stopAsked)
            return;
        check->stop();
        stop();
    });
    check->start(100);
}

}  // namespace meridian

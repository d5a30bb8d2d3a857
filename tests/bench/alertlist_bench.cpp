// The console's alert list following a watcher that lists N alerts: how late the UI
// thread's loop runs while the list is read every second and merged into the panel, as a
// window shows it (offscreen). Prints the loop's lateness p50, p99 and worst over the run.
//   QT_QPA_PLATFORM=offscreen build/tests/bench/alertlist_bench [ALERTS] [SECONDS]
#include <httplib.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

#include "alerts/alertrouting.h"
#include "alerts/teamalerts.h"
#include "models/alerts/alertcenter.h"
#include "widgets/alerts/alertspanel.h"

using namespace meridian;

namespace {

std::string teamList(int count)
{
    TeamAlerts team;
    team.watcher = "w";
    team.nowMs = 1'800'000'000'000;
    for (int i = 0; i < count; ++i) {
        Alert a;
        a.key = "xid/node-" + std::to_string(i) + "/card" + std::to_string(i % 8);
        a.kind = i % 3 ? AlertKind::Xid : AlertKind::LinkDown;
        a.severity = i % 2 ? AlertSeverity::Critical : AlertSeverity::Warning;
        a.dataCenter = i % 2 ? "wuhu" : "xiamen";
        a.nodeName = "node-" + std::to_string(i);
        a.subject = a.nodeName + " card " + std::to_string(i % 8);
        a.message = "Xid 79 on card " + std::to_string(i % 8) + ": GPU has fallen off the bus";
        a.activeSinceMs = team.nowMs - i * 1000LL;
        a.lastSeenMs = team.nowMs;
        a.count = 1 + i % 5;
        team.alerts.push_back(a);
    }
    return teamAlertsJson(team);
}

}  // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int alerts = argc > 1 ? std::atoi(argv[1]) : 40'000;
    const int seconds = argc > 2 ? std::atoi(argv[2]) : 15;
    const std::string list = teamList(alerts);
    httplib::Server watcher;
    watcher.Get("/alerts", [&](const httplib::Request &, httplib::Response &answer) {
        answer.set_content(list, "application/json");
    });
    const int port = watcher.bind_to_any_port("127.0.0.1");
    std::thread serving([&] { watcher.listen_after_bind(); });

    FleetState fleet;
    AlertCenter center(fleet);
    AlertRoute route;
    route.name = "watcher";
    route.url = "http://127.0.0.1:" + std::to_string(port);
    center.followWatcher(route, 1000);
    AlertsPanel panel(center);
    panel.resize(1366, 400);
    panel.show();

    // The loop's lateness, as the console measures its own: a 10 ms timer's overshoot.
    std::vector<double> lateMs;
    QElapsedTimer clock;
    clock.start();
    qint64 last = clock.elapsed();
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        lateMs.push_back(static_cast<double>(std::max<qint64>(0, now - last - 10)));
        last = now;
    });
    tick.start(10);
    QElapsedTimer shown;
    shown.start();
    QTimer::singleShot(seconds * 1000, Qt::PreciseTimer, &app, [&] { QApplication::quit(); });
    QApplication::exec();
    const qint64 quitMs = shown.elapsed() - seconds * 1000LL;
    watcher.stop();
    serving.join();
    std::sort(lateMs.begin(), lateMs.end());
    const auto at = [&](double q) {
        return lateMs.empty() ? 0.0 : lateMs[static_cast<size_t>(q * (lateMs.size() - 1))];
    };
    std::printf(
        "alerts %d listed %zu: loop late p50 %.1f ms, p99 %.1f ms, worst %.1f ms; "
        "quit %lld ms after asked\n",
        alerts, center.view().alerts.size(), at(0.5), at(0.99), at(1.0),
        static_cast<long long>(quitMs));
    return 0;
}

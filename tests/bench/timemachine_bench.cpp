// The fleet time machine at 6,000 cards (DESIGN budgets, issue "fleet time machine"):
//  - a moment drawn after the slider stops: the file read, the past fleet built and the
//    heatmap painted, for minutes of the last day and hours of the week (<= 200 ms);
//  - a drag never blocks the UI thread (<= 50 ms p99): each slider move and each moment
//    handed back, timed on the UI thread while the slider moves a step every 16 ms;
//  - the memory it adds (<= +100 MB).
// The history file holds 6,000 cards' minutes for the last six hours and their hours for
// the week: a read is one indexed lookup of its time, so more minutes cost it nothing.
// Usage: timemachine_bench [history.db to create]
#include <SQLiteCpp/SQLiteCpp.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QSignalSpy>
#include <QSlider>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>

#include "core/clock.h"
#include "fakefleet.h"
#include "history/historystore.h"
#include "models/fleet/fleettimemachine.h"
#include "models/fleetsnapshotsource.h"
#include "procstats.h"
#include "widgets/fleet/fleetheatmap.h"
#include "widgets/fleet/timemachinebar.h"
#include "widgets/shell/mainwindow.h"

using namespace meridian;

namespace {

constexpr int kNodes = 750;
constexpr int64_t kNowS = 1'796'000'040;
constexpr int kMinutes = 6 * 60;
constexpr int kHours = 7 * 24;

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

std::vector<test::FakeNode> fleetNodes()
{
    std::vector<test::FakeNode> nodes;
    const char *dcs[] = {"xiamen", "wuhu", "zhongwei"};
    for (int i = 0; i < kNodes; ++i)
        nodes.push_back({dcs[i % 3], "n" + std::to_string(i), "r" + std::to_string(i / 4),
                         Vendor::Nvidia, 8, static_cast<double>(i % 100)});
    return nodes;
}

// The cards through the store (so the file is the store's own), then the minutes and
// hours written straight in, as years of a store's work would leave them.
void writeHistory(const std::string &path)
{
    {
        auto store = HistoryStore::open(path);
        for (int n = 0; n < kNodes; ++n) {
            UsageBatch batch;
            batch.node.nodeId = "n" + std::to_string(n);
            batch.node.dataCenter = "wuhu";
            for (uint32_t c = 0; c < 8; ++c) {
                CardInfo card;
                card.index = c;
                card.uuid = batch.node.nodeId + "-card-" + std::to_string(c);
                card.model = "A100";
                batch.node.cards.push_back(card);
                batch.minutes.push_back({kNowS - 7 * 86400, c, card.uuid, 60, 30, 50, 12'000, {}});
            }
            store.value()->submit(std::move(batch));
        }
        if (!store.value()->flush().ok())
            std::abort();
    }
    SQLite::Database db(path, SQLite::OPEN_READWRITE);
    SQLite::Transaction tx(db);
    SQLite::Statement minute(db, R"(INSERT OR REPLACE INTO usage_minute
        (minute_start_unix_s, card, service, observed_seconds, busy_seconds,
         mean_utilization_percent, energy_joules) VALUES (?, ?, 0, 60, ?, ?, 12000))");
    SQLite::Statement hour(db, R"(INSERT OR REPLACE INTO usage_hour
        (card, hour_start_unix_s, service, minutes, observed_seconds, busy_seconds,
         utilization_seconds, utilization_percent_seconds, energy_joules)
        VALUES (?, ?, 0, 60, 3600, ?, 3600, ?, 720000))");
    std::vector<int64_t> cards;
    SQLite::Statement ids(db, "SELECT id FROM card");
    while (ids.executeStep())
        cards.push_back(ids.getColumn(0).getInt64());
    std::mt19937 random(7);
    std::uniform_real_distribution<double> busy(0, 100);
    for (int m = 0; m < kMinutes; ++m) {
        for (int64_t card : cards) {
            const double percent = busy(random);
            minute.bind(1, kNowS / 60 * 60 - static_cast<int64_t>(m + 1) * 60);
            minute.bind(2, card);
            minute.bind(3, percent * 0.6);
            minute.bind(4, percent);
            minute.exec();
            minute.reset();
        }
    }
    for (int h = 0; h < kHours; ++h) {
        for (int64_t card : cards) {
            const double percent = busy(random);
            hour.bind(1, card);
            hour.bind(2, kNowS / 3600 * 3600 - static_cast<int64_t>(h + 1) * 3600);
            hour.bind(3, percent * 36);
            hour.bind(4, percent * 3600);
            hour.exec();
            hour.reset();
        }
    }
    tx.commit();
}

}  // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::string path =
        argc > 1 ? argv[1] : (std::filesystem::temp_directory_path() / "timemachine_bench.db");
    std::filesystem::remove(path);
    std::filesystem::remove(path + "-wal");
    writeHistory(path);

    FleetState state;
    test::fillFleet(state, fleetNodes(), kNowS * 1000);
    ManualClock clock(kNowS * 1000);
    FleetSnapshotSource source(state, clock, 1'000'000);
    source.refresh();
    MainWindow window(source);
    window.resize(1366, 768);
    window.show();
    QApplication::processEvents();
    const double rssBefore = bench::statusMiB(getpid(), "VmRSS");
    FleetTimeMachine machine(path);
    window.setTimeMachine(&machine);
    TimeMachineBar *bar = window.timeMachineBar();
    FleetHeatmap *heatmap = window.heatmap();
    QImage target(heatmap->size(), QImage::Format_RGB32);

    // After the slider stops: from the move to the moment painted.
    std::vector<double> minutesMs, hoursMs;
    std::mt19937 random(11);
    QSignalSpy ready(&machine, &FleetTimeMachine::momentReady);
    for (int i = 0; i < 40; ++i) {
        const bool inLastDay = i % 2 == 0;
        const int back = inLastDay ? 1 + static_cast<int>(random() % kMinutes)
                                   : 24 * 60 + static_cast<int>(random() % (6 * 24 * 60));
        QElapsedTimer timer;
        timer.start();
        bar->slider()->setValue(-back);
        if (!ready.wait(10'000))
            return std::fprintf(stderr, "no moment read\n"), 1;
        heatmap->render(&target);
        (inLastDay ? minutesMs : hoursMs)
            .push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        if (machine.latest().cardsRecorded != 6000)
            return std::fprintf(stderr, "%d cards at %d min back\n", machine.latest().cardsRecorded,
                                back),
                   1;
        bar->goLive();
    }

    // A drag: a step every 16 ms for 10 s; every UI-thread stretch of the time machine's.
    std::vector<double> uiMs;
    QObject::connect(&machine, &FleetTimeMachine::momentReady, &window, [&] {
        QElapsedTimer paint;
        paint.start();
        heatmap->render(&target);  // what the repaint of the new moment costs
        uiMs.push_back(static_cast<double>(paint.nsecsElapsed()) / 1e6);
    });
    QTimer step;
    int value = -1;
    int moves = 0;
    QObject::connect(&step, &QTimer::timeout, [&] {
        QElapsedTimer move;
        move.start();
        value = value <= -7 * 24 * 60 ? -1 : value - 17;
        bar->slider()->setValue(value);
        uiMs.push_back(static_cast<double>(move.nsecsElapsed()) / 1e6);
        ++moves;
    });
    step.start(16);
    QElapsedTimer drag;
    drag.start();
    while (drag.elapsed() < 10'000)
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    step.stop();
    ready.wait(2000);
    const double rssAfter = bench::statusMiB(getpid(), "VmRSS");

    std::printf("moment drawn after the slider stops (6,000 cards):\n");
    std::printf("  minute (last day): median %.1f ms, p90 %.1f ms, max %.1f ms (%zu)\n",
                percentile(minutesMs, 0.5), percentile(minutesMs, 0.9), percentile(minutesMs, 1.0),
                minutesMs.size());
    std::printf("  hour (the week):   median %.1f ms, p90 %.1f ms, max %.1f ms (%zu)\n",
                percentile(hoursMs, 0.5), percentile(hoursMs, 0.9), percentile(hoursMs, 1.0),
                hoursMs.size());
    std::printf(
        "drag, %d moves in 10 s: UI thread per slice median %.2f ms, p99 %.2f ms, "
        "max %.2f ms (%zu slices)\n",
        moves, percentile(uiMs, 0.5), percentile(uiMs, 0.99), percentile(uiMs, 1.0), uiMs.size());
    std::printf("memory: RSS %.0f MiB before the time machine, %.0f MiB after the drag (%+.0f)\n",
                rssBefore, rssAfter, rssAfter - rssBefore);
    std::filesystem::remove(path);
    return 0;
}

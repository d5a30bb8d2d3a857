// The history file under faults: kill -9 in the middle of writing, a file that cannot
// grow (a full disk), a read-only place, and a second console writing the same file.
// Nothing committed is lost, the roll-ups still match the minutes, and every error names
// the file.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <thread>

#include "cost/pricebook.h"
#include "cost/reportloader.h"
#include "cost/usagereport.h"
#include "history/historystore.h"
#include "testsupport.h"
#include "usagefixture.h"

using namespace meridian;

namespace {

using test::kJuly1;

// The roll-ups agree with the minutes they were built from, and the file is sound.
void expectConsistent(const std::string &path)
{
    SQLite::Database db(path);
    EXPECT_EQ(db.execAndGet("PRAGMA integrity_check").getString(), "ok");
    const double minutes =
        db.execAndGet("SELECT total(busy_seconds) FROM usage_minute").getDouble();
    EXPECT_DOUBLE_EQ(db.execAndGet("SELECT total(busy_seconds) FROM usage_hour").getDouble(),
                     minutes);
    EXPECT_DOUBLE_EQ(db.execAndGet("SELECT total(busy_seconds) FROM usage_day").getDouble(),
                     minutes);
}

// Runs `body` in a child process and returns its exit code (-signal if killed).
template <typename Body>
int inChild(Body body)
{
    const pid_t child = fork();
    if (child == 0)
        _exit(body());
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// A history file of 2 cards × 30 minutes in `place`, then `place` and the file made
// read-only (root is dropped to nobody by the tests, so the modes mean something).
std::string historyInReadOnlyPlace(const test::TempDir &dir, const std::string &place)
{
    EXPECT_EQ(mkdir(place.c_str(), 0755), 0);
    const std::string path = place + "/history.db";
    {
        auto store = HistoryStore::open(path);
        EXPECT_TRUE(store.ok());
        store.value()->submit(test::a100Minutes("xm-1", "xiamen", 2, kJuly1, 30, 30, 900));
        EXPECT_TRUE(store.value()->flush().ok());
    }
    chmod(dir.path().c_str(), 0755);
    chmod(place.c_str(), 0555);
    chmod(path.c_str(), 0444);
    return path;
}

}  // namespace

TEST(HistoryFaults, KillNineMidWriteLosesNothingCommittedAndTheNextStartRecovers)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    int progress[2];
    ASSERT_EQ(pipe(progress), 0);
    const pid_t child = fork();
    if (child == 0) {
        close(progress[0]);
        auto store = HistoryStore::open(path);
        if (!store)
            _exit(3);
        for (int32_t step = 0;; ++step) {
            store.value()->submit(
                test::a100Minutes("xm-1", "xiamen", 8, kJuly1 + step * 600, 10, 30, 900));
            if (!store.value()->flush().ok())
                _exit(4);
            if (write(progress[1], &step, sizeof step) != sizeof step)
                _exit(5);
        }
    }
    close(progress[1]);
    int32_t committed = -1;
    for (int i = 0; i < 20; ++i)
        ASSERT_EQ(read(progress[0], &committed, sizeof committed), sizeof committed);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    close(progress[0]);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself";
    auto store = HistoryStore::open(path);  // the next start: WAL recovery, quick_check
    ASSERT_TRUE(store.ok()) << store.error().message;
    EXPECT_GE(store.value()->minuteCount(), int64_t{committed + 1} * 10 * 8);
    EXPECT_EQ(store.value()->minuteCount() % (10 * 8), 0) << "a batch was torn";
    store.value().reset();
    expectConsistent(path);
}

TEST(HistoryFaults, AFileThatCannotGrowFailsTheWriteByNameAndKeepsWhatWasCommitted)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    const int code = inChild([&] {
        auto store = HistoryStore::open(path);
        if (!store)
            return 3;
        store.value()->submit(test::a100Minutes("xm-1", "xiamen", 8, kJuly1, 60, 30, 900));
        if (!store.value()->flush().ok())
            return 4;
        // The disk fills up: no file may grow past what it is now.
        const test::FilesCannotGrow full({path, path + "-wal"});
        store.value()->submit(test::a100Minutes("xm-2", "xiamen", 8, kJuly1, 24 * 60, 30, 900));
        const Status status = store.value()->flush();
        if (status.ok())
            return 5;
        return status.message().find(path) != std::string::npos ? 0 : 6;
    });
    EXPECT_EQ(code, 0);
    // Room again: the next start finds the committed hour whole and writes on.
    auto store = HistoryStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    EXPECT_EQ(store.value()->minuteCount(), 8 * 60);
    store.value()->submit(test::a100Minutes("xm-2", "xiamen", 8, kJuly1, 60, 30, 900));
    ASSERT_TRUE(store.value()->flush().ok());
    EXPECT_EQ(store.value()->minuteCount(), 2 * 8 * 60);
    store.value().reset();
    expectConsistent(path);
}

TEST(HistoryFaults, AReadOnlyPlaceIsNamedAndTheFileIsLeftAsItWas)
{
    test::TempDir dir;
    const std::string place = dir.file("readonly");
    const std::string path = historyInReadOnlyPlace(dir, place);
    const int code = inChild([&] {
        // Root may write anywhere: drop to nobody so the permissions mean something.
        if (geteuid() == 0 && setuid(65534) != 0)
            return 3;
        auto store = HistoryStore::open(path);
        if (!store)
            return store.error().message.find(path) != std::string::npos ? 0 : 4;
        store.value()->submit(test::a100Minutes("xm-1", "xiamen", 2, kJuly1 + 3600, 30, 30, 900));
        const Status status = store.value()->flush();
        if (status.ok())
            return 5;
        return status.message().find(path) != std::string::npos ? 0 : 6;
    });
    EXPECT_EQ(code, 0);
    chmod(place.c_str(), 0755);
    chmod(path.c_str(), 0644);
    auto store = HistoryStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    EXPECT_EQ(store.value()->minuteCount(), 2 * 30);
}

TEST(HistoryFaults, TwoConsolesOnOneFileCountEveryMinuteOnce)
{
    test::TempDir dir;
    const std::string path = dir.file("history.db");
    auto first = HistoryStore::open(path);
    auto second = HistoryStore::open(path);
    ASSERT_TRUE(first.ok() && second.ok());
    // Both back-fill the same agents at the same time, with overlapping minutes.
    const auto backfill = [](HistoryStore &store, int offset) {
        for (int node = 0; node < 20; ++node) {
            store.submit(test::a100Minutes("n" + std::to_string(node), "wuhu", 8,
                                           kJuly1 + offset * 600, 120, 30, 900, "chat"));
        }
    };
    std::thread a([&] { backfill(*first.value(), 0); });
    std::thread b([&] { backfill(*second.value(), 1); });
    a.join();
    b.join();
    EXPECT_TRUE(first.value()->flush().ok());
    EXPECT_TRUE(second.value()->flush().ok());
    // 20 nodes × 8 cards × 130 distinct minutes.
    EXPECT_EQ(first.value()->minuteCount(), 20 * 8 * 130);
    first.value().reset();
    second.value().reset();
    expectConsistent(path);
}

TEST(HistoryFaults, AReportReadsAHistoryFileOnAReadOnlyPlace)
{
    test::TempDir dir;
    const std::string place = dir.file("backup");
    // No -shm beside it and none can be made: as on a read-only mount.
    const std::string path = historyInReadOnlyPlace(dir, place);
    const int code = inChild([&] {
        if (geteuid() == 0 && setuid(65534) != 0)
            return 3;
        auto report = buildUsageReport(path, PriceBook{}, {kJuly1, kJuly1 + 3600});
        if (!report) {
            fprintf(stderr, "%s\n", report.error().message.c_str());
            return 4;
        }
        return report->total.cards == 2 && report->total.cardHours > 0.99 ? 0 : 5;
    });
    EXPECT_EQ(code, 0) << "3: could not drop root; 4: the report failed; 5: wrong figures";
    chmod(place.c_str(), 0755);
    struct stat info {};
    EXPECT_NE(stat((path + "-shm").c_str(), &info), 0) << "nothing was written beside it";
}

TEST(HistoryFaults, FourProcessesOpeningANewFileAtOnceAllSucceed)
{
    for (int round = 0; round < 5; ++round) {
        test::TempDir dir;
        const std::string path = dir.file("history.db");
        std::vector<pid_t> children;
        for (int i = 0; i < 4; ++i) {
            const pid_t child = fork();
            if (child == 0) {
                auto store = HistoryStore::open(path);
                if (!store) {
                    fprintf(stderr, "opener %d: %s\n", i, store.error().message.c_str());
                    _exit(1);
                }
                store.value()->submit(
                    test::a100Minutes("n" + std::to_string(i), "wuhu", 2, kJuly1, 10, 30, 900));
                _exit(store.value()->flush().ok() ? 0 : 2);
            }
            children.push_back(child);
        }
        for (pid_t child : children) {
            int status = 0;
            waitpid(child, &status, 0);
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "round " << round;
        }
        auto store = HistoryStore::open(path);
        ASSERT_TRUE(store.ok()) << store.error().message;
        EXPECT_EQ(store.value()->minuteCount(), 4 * 2 * 10);
        store.value().reset();
        expectConsistent(path);
    }
}

// A history file read as evidence: one written by a newer Meridian, and one whose rows are
// impossible (not a number, infinite, negative, more busy than observed, a day in the next
// century), build no report; each refusal names the file and, for a row, which one.
TEST(HistoryFaults, AHostileHistoryFileBuildsNoReportAndNamesTheFileAndTheRow)
{
    test::TempDir dir;
    const auto fresh = [&](const std::string &name) {
        const std::string path = dir.file(name);
        auto store = HistoryStore::open(path);
        EXPECT_TRUE(store.ok());
        store.value()->submit(test::a100Minutes("xm-1", "xiamen", 2, kJuly1, 30, 30, 900));
        EXPECT_TRUE(store.value()->flush().ok());
        return path;
    };
    const ReportRequest july{kJuly1, kJuly1 + 86400LL * 365 * 100};
    {
        const std::string newer = fresh("newer.db");
        SQLite::Database(newer, SQLite::OPEN_READWRITE).exec("PRAGMA user_version = 99");
        auto report = buildUsageReport(newer, PriceBook{}, july);
        ASSERT_FALSE(report);
        EXPECT_NE(report.error().message.find("newer.db was written by a newer Meridian"),
                  std::string::npos)
            << report.error().message;
    }
    // Each change made to every grain's rows, so whichever grain the period is read at
    // carries it.
    const auto everyGrain = [](const std::string &set) {
        return "UPDATE usage_minute SET " + set + "; UPDATE usage_hour SET " + set +
               "; UPDATE usage_day SET " + set;
    };
    const std::vector<std::pair<std::string, std::string>> rows = {
        {everyGrain("energy_joules = 1e999"), "not a number"},
        {everyGrain("busy_seconds = -5"), "negative"},
        {everyGrain("busy_seconds = observed_seconds * 2 + 1"), "busy"},
        {"UPDATE usage_day SET day_start_unix_s = 4102444800", "in the future"},
    };
    int made = 0;
    for (const auto &[change, why] : rows) {
        const std::string path = fresh("hostile" + std::to_string(++made) + ".db");
        SQLite::Database(path, SQLite::OPEN_READWRITE).exec(change);
        auto report = buildUsageReport(path, PriceBook{}, july);
        ASSERT_FALSE(report) << change << ": a report was built";
        EXPECT_NE(report.error().message.find(path), std::string::npos) << report.error().message;
        EXPECT_NE(report.error().message.find("row of card"), std::string::npos)
            << report.error().message;
        EXPECT_NE(report.error().message.find(why), std::string::npos) << report.error().message;
    }
}

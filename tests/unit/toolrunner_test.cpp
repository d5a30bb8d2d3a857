// Vendor tools and files that misbehave: a tool that never exits, a file that never
// ends. Each is cut off at its limit with an error naming it, never waited on forever.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>

#include "core/brokenpipes.h"
#include "core/textfile.h"
#include "core/toolrunner.h"
#include "testsupport.h"

using namespace meridian;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(ToolRunner, AToolThatClosesItsOutputAndKeepsRunningIsKilledAtTheDeadline)
{
    // Closes stdout and stderr, ignores SIGTERM and goes on: a wedged driver's tool.
    const auto start = std::chrono::steady_clock::now();
    auto result = runTool({{"sh", "-c", "trap '' TERM; exec >&- 2>&-; sleep 30"}, 500});
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message.find("no answer within 500 ms"), std::string::npos)
        << result.error().message;
    EXPECT_LT(secondsSince(start), 5.0);
}

TEST(ToolRunner, AHelperTheToolStartedGoesWithIt)
{
    test::TempDir dir;
    const std::string pidFile = dir.file("helper.pid");
    // The helper holds the output pipe open; killing only the tool would leave it.
    auto result = runTool({{"sh", "-c", "sleep 30 & echo $! > " + pidFile + "; sleep 30"}, 300});
    ASSERT_FALSE(result.ok());
    const pid_t helper = std::stoi(test::readFile(pidFile));
    ASSERT_GT(helper, 1);
    // Waits on the helper's end itself (a pidfd turns readable when it exits).
    const int handle = static_cast<int>(syscall(SYS_pidfd_open, helper, 0));
    if (handle < 0) {
        EXPECT_EQ(errno, ESRCH) << "cannot watch the helper: " << std::strerror(errno);
        return;  // already gone and reaped
    }
    pollfd exited{handle, POLLIN, 0};
    EXPECT_EQ(poll(&exited, 1, 5000), 1) << "the helper outlived the tool";
    close(handle);
}

TEST(ToolRunner, AToolThatAnswersIsReadWhole)
{
    auto result = runTool({{"sh", "-c", "echo one; echo two"}, 5000});
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(result.value(), "one\ntwo\n");
    auto failed = runTool({{"sh", "-c", "echo broken >&2; exit 3"}, 5000});
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().message.find("exit status 3: broken"), std::string::npos);
}

TEST(ToolRunner, AToolHasSigpipeAtItsDefaultThoughMeridianIgnoresIt)
{
    // Meridian's programs ignore SIGPIPE (a peer gone mid-TLS must not end them). A tool
    // must not inherit that: a pipeline in it, `... | head`, would leave its writer
    // failing on EPIPE instead of ending quietly as it does under a shell.
    ignoreBrokenPipes();
    auto status = runTool({{"grep", "^SigIgn:", "/proc/self/status"}, 5000});
    ASSERT_TRUE(status.ok()) << status.error().message;
    const uint64_t ignored = std::stoull(status->substr(status->find(':') + 1), nullptr, 16);
    EXPECT_EQ(ignored & (uint64_t{1} << (SIGPIPE - 1)), 0u) << *status;
}

TEST(TextFile, AFileThatNeverEndsIsRefusedWithoutReadingIt)
{
    auto zero = readTextFile("/dev/zero", 1 << 20);
    ASSERT_FALSE(zero.ok());
    EXPECT_NE(zero.error().message.find("/dev/zero: not a regular file"), std::string::npos);

    test::TempDir dir;
    const std::string fifo = dir.file("fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    auto fromFifo = readTextFile(fifo);
    ASSERT_FALSE(fromFifo.ok());
    EXPECT_NE(fromFifo.error().message.find("not a regular file"), std::string::npos);

    auto directory = readTextFile(dir.path());
    ASSERT_FALSE(directory.ok());
    EXPECT_NE(directory.error().message.find("is a directory"), std::string::npos);
}

TEST(TextFile, TheCapHolds)
{
    test::TempDir dir;
    const std::string path = dir.file("big.txt");
    std::ofstream(path) << std::string(5000, 'x');
    auto big = readTextFile(path, 4096);
    ASSERT_FALSE(big.ok());
    EXPECT_NE(big.error().message.find("big.txt: 5000 bytes is more than the 4096"),
              std::string::npos);
    auto whole = readTextFile(path, 5000);
    ASSERT_TRUE(whole.ok());
    EXPECT_EQ(whole->size(), 5000u);
    EXPECT_NE(readTextFile(dir.file("absent")).error().message.find("absent: cannot open"),
              std::string::npos);
}

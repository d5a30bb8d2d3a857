// `meridian-sim evaluate` given a trace that never ends: /dev/zero, a FIFO nobody writes,
// one line of megabytes. The program used to grow without limit on the first and wait
// for ever on the second; each is now refused at once, naming the file and why.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>

#include "childprocess.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;

namespace {

struct Refusal {
    bool endedInTime = false;
    int exitCode = -1;
    std::string said;
};

Refusal evaluate(const std::string &trace, const TempDir &dir)
{
    const std::string log = dir.file("evaluate.log");
    ChildProcess sim({MERIDIAN_SIM_BIN, "evaluate", "--trace", trace}, log);
    Refusal refusal;
    refusal.endedInTime = waitUntil([&] { return sim.ended(); }, std::chrono::seconds(2));
    if (refusal.endedInTime && WIFEXITED(sim.waitStatus()))
        refusal.exitCode = WEXITSTATUS(sim.waitStatus());
    refusal.said = sim.log();
    return refusal;
}

}  // namespace

TEST(SimEvaluate, TracesThatNeverEndAreRefusedAtOnceWithTheirName)
{
    TempDir dir;
    const std::string fifo = dir.file("trace.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string oneLine = dir.file("one-line.csv");
    std::ofstream(oneLine) << std::string(3 << 20, 'x');
    const struct {
        std::string trace;
        std::string why;
    } cases[] = {{"/dev/zero", "/dev/zero: not a regular file"},
                 {fifo, "trace.fifo: not a regular file"},
                 {oneLine, "one-line.csv:1: a line longer than 1048576 bytes"}};
    for (const auto &c : cases) {
        const Refusal refusal = evaluate(c.trace, dir);
        EXPECT_TRUE(refusal.endedInTime) << c.trace << " was read for more than 2 s";
        EXPECT_EQ(refusal.exitCode, 2) << c.trace;
        EXPECT_NE(refusal.said.find(c.why), std::string::npos) << refusal.said;
    }
}

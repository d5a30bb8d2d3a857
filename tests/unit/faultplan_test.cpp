// Scenario files for meridian-sim: what parses, and errors that name file and line.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/faultplan.h"
#include "testsupport.h"

using namespace meridian;

namespace {

std::string write(const test::TempDir &dir, const std::string &text)
{
    const std::string path = dir.file("scenario.yaml");
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST(Scenario, StepsByNodeAndByDataCenter)
{
    test::TempDir dir;
    auto steps = loadScenario(write(dir, R"(faults:
  - {at_seconds: 30, node: xm-r01-n1, kind: xid79, card: 2}
  - {at_seconds: 1.5, data_center: wuhu, kind: crash, duration_seconds: 120}
  - {at_seconds: 5, node: zw-r02-n3, kind: slow, delay_ms: 4000}
)"));
    ASSERT_TRUE(steps.ok()) << steps.error().message;
    ASSERT_EQ(steps->size(), 3u);
    EXPECT_EQ((*steps)[0].atMs, 30'000);
    EXPECT_EQ((*steps)[0].fault.kind, FaultKind::Xid79);
    EXPECT_EQ((*steps)[0].fault.card, 2u);
    EXPECT_EQ((*steps)[1].atMs, 1500);
    EXPECT_EQ((*steps)[1].fault.dataCenter, "wuhu");
    EXPECT_EQ((*steps)[1].fault.durationMs, 120'000);
    EXPECT_EQ((*steps)[2].fault.delayMs, 4000);
}

TEST(Scenario, MistakesNameTheLine)
{
    test::TempDir dir;
    const auto error = [&](const std::string &text) {
        auto steps = loadScenario(write(dir, text));
        EXPECT_FALSE(steps.ok());
        return steps.ok() ? std::string() : steps.error().message;
    };
    EXPECT_NE(error("faults:\n  - {at_seconds: 1, node: a, kind: meteor}\n")
                  .find(":2: unknown kind 'meteor'"),
              std::string::npos);
    EXPECT_NE(
        error("faults:\n  - {at_seconds: 1, kind: crash}\n").find(":2: a step names either node"),
        std::string::npos);
    EXPECT_NE(error("faults:\n  - {at_seconds: soon, node: a, kind: crash}\n").find(":2:"),
              std::string::npos);
    EXPECT_NE(error("faults:\n  - {at_second: 1, node: a, kind: crash}\n")
                  .find("unknown key 'at_second'"),
              std::string::npos);
    EXPECT_NE(error("faults: [\n").find("scenario.yaml:"), std::string::npos);
    EXPECT_NE(loadScenario(dir.file("missing.yaml")).error().message.find("missing.yaml"),
              std::string::npos);
}

TEST(Scenario, AScenarioOfTheWrongShapeIsAnErrorNotAnAbort)
{
    test::TempDir dir;
    const auto error = [&](const std::string &text) {
        auto steps = loadScenario(write(dir, text));
        EXPECT_FALSE(steps.ok()) << text;
        return steps.ok() ? std::string() : steps.error().message;
    };
    EXPECT_NE(error("just a sentence\n").find("scenario.yaml:1: expected 'faults:'"),
              std::string::npos);
    EXPECT_NE(error("- 1\n- 2\n").find("expected 'faults:'"), std::string::npos);
    EXPECT_NE(error("faults:\n  - {at_seconds: 1, node: [a, b], kind: crash}\n")
                  .find(":2: node must be text"),
              std::string::npos);
    EXPECT_NE(error("faults:\n  - {at_seconds: .nan, node: a, kind: crash}\n")
                  .find(":2: at_seconds must be a finite number"),
              std::string::npos);
    EXPECT_NE(error("faults:\n  - {at_seconds: 1, node: a, kind: slow, delay_ms: -1}\n")
                  .find(":2: times cannot be negative"),
              std::string::npos);
    EXPECT_NE(loadScenario("/dev/zero").error().message.find("not a regular file"),
              std::string::npos);
}

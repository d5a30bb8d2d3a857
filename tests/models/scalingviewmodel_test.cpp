// The Scaling window's view-model: a command returns at once and its answer comes back
// as a signal on the UI thread; a second command while one is on its way is not sent;
// the view is read again after every command and announced only when it is new.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>
#include <atomic>

#include "gate.h"
#include "models/scaling/scalingviewmodel.h"

using namespace meridian;

namespace {

// Every command waits at the gate until the test opens it, as a controller at the far
// end of a slow link answers when it answers.
class CountingControl final : public ScalingControl {
public:
    ScalingView view() const override
    {
        ScalingView v;
        v.atMs = passes.load();
        return v;
    }
    Status setMode(ApprovalMode, const std::string &) override { return slowly(); }
    Status requestPlan(const std::string &, const std::string &) override { return slowly(); }
    Status approvePlan(const std::string &, const std::string &, std::optional<int64_t>) override
    {
        gate.pass();
        ++calls;
        return Error{"plan 3 was replaced by plan 4"};
    }
    Status rejectPlan(const std::string &, const std::string &, const std::string &) override
    {
        return slowly();
    }
    Status approveRelease(const std::string &, const std::string &) override { return slowly(); }

    test::Gate gate;
    std::atomic<int64_t> passes{1};
    std::atomic<int> calls{0};

private:
    Status slowly()
    {
        gate.pass();
        ++calls;
        ++passes;  // the command changed what the controller shows
        return {};
    }
};

}  // namespace

TEST(ScalingViewModel, OneCommandAtATimeAndItsAnswerComesBackAsASignal)
{
    CountingControl control;
    ScalingViewModel model(&control);
    QSignalSpy finished(&model, &ScalingViewModel::commandFinished);
    QSignalSpy changed(&model, &ScalingViewModel::viewChanged);
    model.refresh();
    ASSERT_EQ(changed.count(), 1);
    model.refresh();
    EXPECT_EQ(changed.count(), 1) << "the same view announced twice";

    model.requestPlan("chat", "alice");
    EXPECT_TRUE(model.sending());
    ASSERT_TRUE(control.gate.arrived(1));
    model.rejectPlan("chat", "alice", "double click");  // not sent: one is on its way
    control.gate.open();
    ASSERT_TRUE(finished.wait(5000));
    EXPECT_EQ(control.calls, 1);
    EXPECT_EQ(finished.at(0).at(1).toString(), QString());
    EXPECT_EQ(changed.count(), 2) << "the view the command changed was not read";
    EXPECT_EQ(model.view().atMs, 2);

    model.approvePlan("chat", "alice", 3);
    ASSERT_TRUE(finished.wait(5000));
    EXPECT_EQ(finished.at(1).at(0).value<ScalingViewModel::Command>(),
              ScalingViewModel::Command::Approve);
    EXPECT_TRUE(finished.at(1).at(1).toString().contains(QStringLiteral("replaced by plan 4")));
    EXPECT_FALSE(model.sending());
}

TEST(ScalingViewModel, WithoutAControllerNothingIsSent)
{
    ScalingViewModel model(nullptr);
    QSignalSpy started(&model, &ScalingViewModel::sendingStarted);
    model.approvePlan("chat", "alice", 3);
    EXPECT_FALSE(model.hasController());
    EXPECT_EQ(started.count(), 0);
}

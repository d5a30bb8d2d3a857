// The watcher's triage door, judged before anything is done: every rule the Silence dialog
// keeps is kept for any caller (a reason, something named, a bounded end in the future),
// each caller has its own allowance, and a name is taken only where a token proves it.
#include <gtest/gtest.h>

#include "alerts/silencecheck.h"
#include "alerts/triageallowance.h"
#include "alerts/triagegate.h"
#include "core/clock.h"

using namespace meridian;

namespace {

constexpr int64_t kNow = 1'800'000'000'000;

SilenceRule nodeForHours(double hours)
{
    SilenceRule rule;
    rule.node = "wh-r40-n2";
    rule.reason = "cabling work";
    rule.untilMs = kNow + static_cast<int64_t>(hours * 3600'000);
    return rule;
}

std::string silenceBody(int64_t untilMs, const std::string &scope, const std::string &reason)
{
    return R"({"action":"silence","silence":{)" + scope + R"("untilMs":)" +
           std::to_string(untilMs) + R"(,"reason":")" + reason + R"("}})";
}

}  // namespace

TEST(SilenceCheck, TheDialogsSilencesPassAndEachBrokenRuleIsNamed)
{
    EXPECT_TRUE(checkSilence(nodeForHours(1), kNow));
    EXPECT_TRUE(checkSilence(nodeForHours(72), kNow));
    SilenceRule kindInDc;
    kindInDc.kind = AlertKind::LinkDown;
    kindInDc.dataCenter = "wuhu";
    kindInDc.reason = "fabric maintenance";
    kindInDc.untilMs = kNow + 3600'000;
    EXPECT_TRUE(checkSilence(kindInDc, kNow));

    const auto why = [](const SilenceRule &rule, int64_t maxMs = kDefaultSilenceMaxMs) {
        const Status checked = checkSilence(rule, kNow, maxMs);
        return checked ? std::string("accepted") : checked.message();
    };
    EXPECT_NE(why(nodeForHours(73)).find("at most 72 hours"), std::string::npos);
    EXPECT_TRUE(checkSilence(nodeForHours(100), kNow, 120 * 3600'000LL)) << "the routing file's";
    SilenceRule forever = nodeForHours(0);
    forever.untilMs = 253402300799000;  // 9999-12-31
    EXPECT_NE(why(forever).find("at most"), std::string::npos);
    SilenceRule past = nodeForHours(0);
    past.untilMs = -5;
    EXPECT_NE(why(past).find("in the future"), std::string::npos);
    SilenceRule noReason = nodeForHours(1);
    noReason.reason = "  \t";
    EXPECT_NE(why(noReason).find("reason"), std::string::npos);
    SilenceRule everything = nodeForHours(1);
    everything.node.clear();
    EXPECT_NE(why(everything).find("must name what it quiets"), std::string::npos);
    everything.kind = AlertKind::Xid;
    EXPECT_NE(why(everything).find("whole fleet"), std::string::npos);
    SilenceRule raw = nodeForHours(1);
    raw.matchers.push_back(LabelMatcher::make("alertname", ".*", true, true).value());
    EXPECT_NE(why(raw).find("raw matchers"), std::string::npos);
    SilenceRule control = nodeForHours(1);
    control.node = "wh-1\n";
    EXPECT_NE(why(control).find("control character"), std::string::npos);
    SilenceRule essay = nodeForHours(1);
    essay.reason = std::string(3500, 'x');
    EXPECT_NE(why(essay).find("at most 500"), std::string::npos);
}

TEST(TriageAllowance, ABurstThenOneEveryFewSecondsEachCallerOnItsOwn)
{
    ManualClock clock;
    TriageAllowance allowance(clock, {3, 2'000});
    for (int i = 0; i < 3; ++i)
        EXPECT_FALSE(allowance.take("li.na")) << i;
    const auto wait = allowance.take("li.na");
    ASSERT_TRUE(wait);
    EXPECT_EQ(*wait, 2'000);
    EXPECT_FALSE(allowance.take("wang.wei")) << "another caller's allowance is its own";
    clock.advanceMs(1'000);
    ASSERT_TRUE(allowance.take("li.na"));
    clock.advanceMs(1'000);
    EXPECT_FALSE(allowance.take("li.na")) << "one more after the refill";
    EXPECT_TRUE(allowance.take("li.na"));
    clock.advanceMs(60'000);
    for (int i = 0; i < 3; ++i)
        EXPECT_FALSE(allowance.take("li.na")) << "the burst comes back, no more";
    EXPECT_TRUE(allowance.take("li.na"));
}

TEST(TriageGate, ARefusalNamesItsRuleAndStatusAndNothingIsTaken)
{
    ManualClock clock;
    TriageAllowance allowance(clock, {100, 1'000});
    const int64_t max = kDefaultSilenceMaxMs;
    TriageCaller operatorToken{"li.na", true, "ops1"};
    const auto judge = [&](const std::string &body, const TriageCaller &caller) {
        return judgeTriage(body, caller, kNow, allowance, max);
    };

    const TriageVerdict good =
        judge(silenceBody(kNow + 3600'000, R"("node":"wh-1",)", "reboot"), operatorToken);
    EXPECT_EQ(good.status, 202) << good.why;
    EXPECT_EQ(good.who, "li.na");
    EXPECT_EQ(good.request.silence.node, "wh-1");

    const TriageVerdict forever =
        judge(silenceBody(253402300799000, R"("node":"wh-1",)", "x"), operatorToken);
    EXPECT_EQ(forever.status, 422);
    EXPECT_NE(forever.why.find("at most 72 hours"), std::string::npos) << forever.why;
    EXPECT_EQ(judge(silenceBody(kNow + 3600'000, "", "all quiet"), operatorToken).status, 422);
    EXPECT_EQ(judge(silenceBody(kNow + 3600'000, R"("node":"wh-1",)", ""), operatorToken).status,
              422);
    EXPECT_EQ(judge(silenceBody(-1, R"("node":"wh-1",)", "x"), operatorToken).status, 422);
    EXPECT_EQ(judge(R"({"action":"lift","id":0})", operatorToken).status, 422);
    EXPECT_EQ(judge("{not json", operatorToken).status, 400);
    EXPECT_EQ(judge(R"({"action":"acknowledge","key":"xid/1"})", {"wall", false, "ops1"}).status,
              403);

    // Without tokens nothing proves a name: the caller is someone on the host.
    const TriageVerdict anonymous =
        judge(R"({"action":"acknowledge","key":"xid/1","who":"boss"})", {"", true, "ops1"});
    EXPECT_EQ(anonymous.status, 202);
    EXPECT_EQ(anonymous.who, "anonymous@ops1 (says boss)");
}

TEST(TriageGate, AFloodIsAnsweredTooManyWithWhenToComeBackAndOthersAreServed)
{
    ManualClock clock;
    TriageAllowance allowance(clock);
    const std::string ack = R"({"action":"acknowledge","key":"xid/1"})";
    int taken = 0;
    int64_t retryAfterMs = 0;
    for (int i = 0; i < 100; ++i) {
        const TriageVerdict v =
            judgeTriage(ack, {"script", true, "ops1"}, kNow, allowance, kDefaultSilenceMaxMs);
        if (v.taken()) {
            ++taken;
        } else {
            EXPECT_EQ(v.status, 429);
            retryAfterMs = v.retryAfterMs;
        }
    }
    EXPECT_EQ(taken, TriageAllowanceLimits{}.burst);
    EXPECT_GT(retryAfterMs, 0);
    EXPECT_TRUE(
        judgeTriage(ack, {"li.na", true, "ops1"}, kNow, allowance, kDefaultSilenceMaxMs).taken());
}

// What a running watcher says of itself: its /metrics as Prometheus reads it, its /status
// and the words `meridian-watch status` makes of it, and answers that are not a watcher's.
#include <gtest/gtest.h>

#include "watchfigures.h"

using namespace meridian;

namespace {

WatchFigures figures()
{
    WatchFigures f;
    f.name = "watcher@ops-1";
    f.startedMs = 1'796'601'600'000;
    f.lastEvaluationMs = f.startedMs + 3 * 3600'000;
    f.evaluations = 10'800;
    f.agents = 750;
    f.connected = 745;
    f.unreachable = 5;
    f.firing = 3;
    f.pending = 1;
    f.behind = true;
    f.loopLateMs = 2300;
    f.holds = 2;
    f.routes = {{"hook \"oncall\"", 12, 1, 0, 0, "", 0}};
    f.alerts = {{"xid/xm-1/GPU-1", "GPU fell off the bus (Xid 79)", "xm-1 card 2", "xiamen", true,
                 f.lastEvaluationMs - 300'000, "zhang.min", false}};
    return f;
}

}  // namespace

TEST(WatchFigures, MetricsCarryEveryFigureWithEscapedLabels)
{
    const std::string text = watchExposition(figures());
    EXPECT_NE(text.find("meridian_watch_agents{state=\"unreachable\"} 5\n"), std::string::npos);
    EXPECT_NE(text.find("meridian_watch_agents{state=\"other\"} 0\n"), std::string::npos);
    EXPECT_NE(text.find("meridian_watch_alerts{state=\"firing\"} 3\n"), std::string::npos);
    EXPECT_NE(text.find("meridian_watch_behind 1\n"), std::string::npos);
    EXPECT_NE(text.find("meridian_watch_loop_late_seconds 2.300\n"), std::string::npos);
    EXPECT_NE(text.find("meridian_watch_behind_total 2\n"), std::string::npos);
    EXPECT_NE(text.find("route=\"hook \\\"oncall\\\"\",result=\"delivered\"} 12\n"),
              std::string::npos)
        << text;
}

TEST(WatchFigures, StatusInWordsSaysWhatIsBehindFiringAndNotListed)
{
    const int64_t now = figures().lastEvaluationMs + 2000;
    auto text = watchStatusText(watchStatusJson(figures()), now);
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_NE(text->find("watcher@ops-1: up 3.0 h, rules last ran 2 s ago\n"), std::string::npos)
        << *text;
    EXPECT_NE(text->find("agents: 745 connected, 5 unreachable, of 750\n"), std::string::npos);
    EXPECT_NE(text->find("BEHIND: agents' silence not judged (loop 2.3 s late"), std::string::npos);
    EXPECT_NE(text->find("CRITICAL GPU fell off the bus (Xid 79) — xm-1 card 2 (xiamen, for 5 min, "
                         "acknowledged by zhang.min)\n"),
              std::string::npos)
        << *text;
    // Three firing, one listed: the rest said, not dropped silently.
    EXPECT_NE(text->find("… and 2 more\n"), std::string::npos) << *text;
}

TEST(WatchFigures, AnAnswerThatIsNotAWatchersIsRefusedByName)
{
    for (const char *answer :
         {"", "<html>not found</html>", "[]", "{\"name\": \"x\"}",
          "{\"started_ms\": \"soon\", \"last_evaluation_ms\": 1}", "\xff\xfe{"}) {
        auto text = watchStatusText(answer, 0);
        EXPECT_FALSE(text) << answer;
    }
    // Text from agents may be broken UTF-8: the answer is made all the same.
    WatchFigures f = figures();
    f.alerts.front().subject = "xm-1 \xff card";
    EXPECT_NE(watchStatusJson(f).find("xm-1 \xef\xbf\xbd card"), std::string::npos);
}

// The watcher's list for consoles and the triage they send: what is written is read back
// whole, and a wrong or hostile text is refused with what is wrong.
#include <gtest/gtest.h>

#include "alerts/teamalerts.h"

using namespace meridian;

TEST(TeamAlerts, AListIsReadBackAsItWasWritten)
{
    TeamAlerts team;
    team.watcher = "watcher@ops1";
    team.nowMs = 1'800'000'000'000;
    team.behind = "loop 2.1 s late";
    Alert xid;
    xid.key = "xid/xm-r01-n1/card2";
    xid.kind = AlertKind::Xid;
    xid.severity = AlertSeverity::Critical;
    xid.dataCenter = "xiamen";
    xid.nodeName = "xm-r01-n1";
    xid.cardIndex = 2;
    xid.xid = 79;
    xid.subject = "xm-r01-n1 card 2";
    xid.message = "GPU fell off the bus · 掉卡";
    xid.activeSinceMs = 1'799'999'000'000;
    xid.count = 3;
    xid.acknowledgedMs = 1'799'999'500'000;
    xid.acknowledgedBy = "li.na";
    xid.note = "RMA 4471";
    team.alerts.push_back(xid);
    SilenceRule quiet;
    quiet.id = 7;
    quiet.kind = AlertKind::LinkDown;
    quiet.untilMs = 1'800'003'600'000;
    quiet.by = "li.na";
    quiet.matchers.push_back(LabelMatcher::make("node", "wh-.*", true, true).value());
    team.silences.push_back(quiet);

    auto read = parseTeamAlerts(teamAlertsJson(team));
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_EQ(read->watcher, team.watcher);
    EXPECT_EQ(read->behind, team.behind);
    ASSERT_EQ(read->alerts.size(), 1u);
    const Alert &a = read->alerts[0];
    EXPECT_EQ(a.key, xid.key);
    EXPECT_EQ(a.kind, AlertKind::Xid);
    EXPECT_EQ(a.severity, AlertSeverity::Critical);
    EXPECT_EQ(a.cardIndex, 2u);
    EXPECT_EQ(a.xid, 79u);
    EXPECT_EQ(a.message, xid.message);
    EXPECT_EQ(a.acknowledgedMs, xid.acknowledgedMs);
    EXPECT_EQ(a.note, "RMA 4471");
    EXPECT_FALSE(a.node) << "the watcher's handles mean nothing here";
    ASSERT_EQ(read->silences.size(), 1u);
    EXPECT_EQ(read->silences[0].kind, AlertKind::LinkDown);
    ASSERT_EQ(read->silences[0].matchers.size(), 1u);
    EXPECT_EQ(read->silences[0].matchers[0].text(), "node=~\"wh-.*\"");
}

TEST(TeamAlerts, TriageRequestsAreReadBackAndWrongOnesRefusedByName)
{
    TriageRequest note;
    note.action = TriageRequest::Action::Note;
    note.key = "xid/a/b";
    note.note = "swapped";
    note.who = "li.na";
    auto read = parseTriageRequest(triageRequestJson(note));
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_EQ(read->action, TriageRequest::Action::Note);
    EXPECT_EQ(read->note, "swapped");
    EXPECT_EQ(read->who, "li.na");

    const std::pair<std::string, const char *> wrong[] = {
        {R"({"action":"reboot","key":"k"})", "unknown triage action"},
        {R"({"action":"acknowledge","key":""})", "names no alert"},
        {R"({"action":"note","key":"k","note":")" + std::string(3000, 'x') + "\"}", "at most 2000"},
        {R"({"action":"silence","silence":{"untilMs":1,"matchers":[{"name":"n","value":"(","isRegex":true}]}})",
         "not one"},
        {R"({"action":"lift","id":"seven"})", "not one"},
        {"[1,2]", "not a JSON object"},
        {std::string(5000, ' '), "at most 4096"},
        {std::string(3, '[') + "{}" + std::string(3, ']'), "not a JSON object"},
        {std::string(10, '{'), "nested"},
    };
    for (const auto &[text, said] : wrong) {
        auto refused = parseTriageRequest(text);
        ASSERT_FALSE(refused) << text.substr(0, 80);
        EXPECT_NE(refused.error().message.find(said), std::string::npos)
            << text.substr(0, 80) << " → " << refused.error().message;
    }
}

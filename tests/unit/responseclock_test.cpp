// The fault-response clock: incidents kept in the history file as they are sent,
// acknowledged and resolved, read back by period; and their tally by week, data center,
// kind and person, checked against a plain recount over generated incident families.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "alerts/alerttriagelog.h"
#include "alerts/responseclock.h"
#include "testsupport.h"

using namespace meridian;

namespace {

constexpr int64_t kMinute = 60'000;
constexpr int64_t kMonday = 1'796'601'600'000;  // 2026-12-07T00:00:00Z, a Monday

AlertIncident incident(const std::string &key, const std::string &kind, const std::string &dc,
                       int64_t sentMs)
{
    AlertIncident i;
    i.alertKey = key;
    i.kind = kind;
    i.severity = "critical";
    i.dataCenter = dc;
    i.subject = key;
    i.startedMs = sentMs - 30'000;
    i.sentMs = sentMs;
    return i;
}

}  // namespace

TEST(ResponseClock, IsoWeeksBelongToTheYearOfTheirThursday)
{
    EXPECT_EQ(isoWeek(kMonday), "2026-W50");
    EXPECT_EQ(isoWeek(kMonday - 1), "2026-W49");        // Sunday 23:59:59.999
    EXPECT_EQ(isoWeek(1'798'761'600'000), "2026-W53");  // 2027-01-01, a Friday
    EXPECT_EQ(isoWeek(1'735'516'800'000), "2025-W01");  // 2024-12-30, a Monday
}

TEST(ResponseClock, TheHistoryFileKeepsEachOccurrenceSentAcknowledgedAndResolved)
{
    test::TempDir dir;
    auto log = AlertTriageLog::open(dir.file("history.db"));
    ASSERT_TRUE(log) << log.error().message;
    AlertTriageLog &file = *log.value();
    const int64_t t = kMonday + 3600'000;
    ASSERT_TRUE(
        file.recordDelivery("xid/n1/GPU-1", true, t, incident("xid/n1/GPU-1", "Xid", "wuhu", t)));
    // Another console sends the same occurrence: still one incident.
    ASSERT_TRUE(file.recordDelivery("xid/n1/GPU-1", true, t + 2000,
                                    incident("xid/n1/GPU-1", "Xid", "wuhu", t)));
    ASSERT_TRUE(file.record(
        {0, t + 4 * kMinute, "xid/n1/GPU-1", TriageAction::Kind::Acknowledge, "zhang.min", ""}));
    // A second acknowledgement changes nothing: the clock stopped at the first.
    ASSERT_TRUE(file.record(
        {0, t + 9 * kMinute, "xid/n1/GPU-1", TriageAction::Kind::Acknowledge, "li.wei", ""}));
    ASSERT_TRUE(file.recordDelivery("xid/n1/GPU-1", false, t + 50 * kMinute));
    // It recurs: a new occurrence, open.
    const int64_t again = t + 2 * 3600'000;
    ASSERT_TRUE(file.recordDelivery("xid/n1/GPU-1", true, again,
                                    incident("xid/n1/GPU-1", "Xid", "wuhu", again)));
    auto read = file.incidents(kMonday, kMonday + 86400'000);
    ASSERT_TRUE(read) << read.error().message;
    ASSERT_EQ(read->size(), 2u);
    const AlertIncident &first = read->front();
    EXPECT_EQ(first.kind, "Xid");
    EXPECT_EQ(first.dataCenter, "wuhu");
    EXPECT_EQ(first.sentMs, t);
    ASSERT_TRUE(first.acknowledgedMs);
    EXPECT_EQ(*first.acknowledgedMs - t, 4 * kMinute);
    EXPECT_EQ(first.acknowledgedBy, "zhang.min");
    ASSERT_TRUE(first.resolvedMs);
    EXPECT_EQ(*first.resolvedMs - t, 50 * kMinute);
    EXPECT_FALSE(read->back().acknowledgedMs);
    EXPECT_FALSE(read->back().resolvedMs);
    // The period is by when it was sent.
    EXPECT_EQ(file.incidents(again, again + 1)->size(), 1u);
}

// What ended before the retention is forgotten; what still holds is kept whatever its age:
// a caller cannot grow the file without bound, and a retention cannot lift a silence.
TEST(ResponseClock, TheTriageLogForgetsWhatEndedLongAgoAndKeepsWhatStillHolds)
{
    test::TempDir dir;
    auto log = AlertTriageLog::open(dir.file("history.db"));
    ASSERT_TRUE(log) << log.error().message;
    AlertTriageLog &file = *log.value();
    const int64_t old = kMonday;
    const int64_t now = kMonday + 500LL * 86400'000;
    ASSERT_TRUE(file.recordDelivery("xid/n1/GPU-1", true, old,
                                    incident("xid/n1/GPU-1", "Xid", "wuhu", old)));
    ASSERT_TRUE(
        file.record({0, old + kMinute, "xid/n1/GPU-1", TriageAction::Kind::Note, "li.na", "RMA"}));
    ASSERT_TRUE(file.recordDelivery("xid/n1/GPU-1", false, old + 5 * kMinute));
    ASSERT_TRUE(file.recordDelivery("link/n2/eth0", true, old,
                                    incident("link/n2/eth0", "link down", "wuhu", old)));
    SilenceRule ended;
    ended.node = "n3";
    ended.untilMs = old + 3600'000;
    ended.reason = "reboot";
    SilenceRule lasting = ended;
    lasting.untilMs = now + 3600'000;
    ASSERT_TRUE(file.addSilence(ended, old));
    ASSERT_TRUE(file.addSilence(lasting, old));

    const auto forgotten = file.forgetBefore(now - kTriageKeptMs);
    ASSERT_TRUE(forgotten) << forgotten.error().message;
    // The resolved occurrence, the note, the ended silence and their audit rows.
    EXPECT_GE(forgotten.value(), 4);
    const auto left = file.incidents(0, now);
    ASSERT_TRUE(left);
    ASSERT_EQ(left->size(), 1u);
    EXPECT_EQ(left->front().alertKey, "link/n2/eth0") << "still open: kept";
    EXPECT_TRUE(file.actionsAfter(0)->empty());
    const auto silences = file.activeSilences(now);
    ASSERT_TRUE(silences);
    ASSERT_EQ(silences->size(), 1u) << "the silence in force is kept";
    EXPECT_EQ(file.firingDelivered()->count("link/n2/eth0"), 1u);
}

// Generated families of incidents: each group's counts, shares and percentiles are what a
// plain recount over the same incidents gives, and the groups add up to the total.
TEST(ResponseClock, TalliesMatchARecountOnGeneratedFamilies)
{
    const std::vector<std::string> dcs = {"xiamen", "wuhu", "zhongwei"};
    const std::vector<std::string> kinds = {"Xid", "ECC double-bit", "data center dark"};
    const std::vector<std::string> people = {"", "zhang.min", "li.wei"};
    const ResponseTargets targets;
    for (const uint32_t seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
        std::mt19937 random(seed);
        const int count = 1 + static_cast<int>(random() % 400);
        std::vector<AlertIncident> incidents;
        for (int n = 0; n < count; ++n) {
            const int64_t sent = kMonday + static_cast<int64_t>(random() % (21 * 86400)) * 1000;
            AlertIncident i = incident("k" + std::to_string(n), kinds[random() % kinds.size()],
                                       dcs[random() % dcs.size()], sent);
            if (const std::string who = people[random() % people.size()]; !who.empty()) {
                i.acknowledgedBy = who;
                i.acknowledgedMs = sent + static_cast<int64_t>(random() % 60) * kMinute;
            }
            if (random() % 5 != 0)
                i.resolvedMs = sent + static_cast<int64_t>(random() % 180) * kMinute;
            incidents.push_back(i);
        }
        for (const ResponseGrouping grouping :
             {ResponseGrouping::Week, ResponseGrouping::DataCenter, ResponseGrouping::Kind,
              ResponseGrouping::Person}) {
            const std::vector<ResponseRow> rows = tallyResponse(incidents, grouping, targets);
            ASSERT_FALSE(rows.empty());
            ASSERT_EQ(rows.back().group, "total");
            int sum = 0;
            for (size_t r = 0; r + 1 < rows.size(); ++r) {
                const ResponseRow &row = rows[r];
                sum += row.incidents;
                int incidentsHere = 0, ackInTime = 0, resolvedInTime = 0, open = 0;
                std::vector<int64_t> toAck;
                for (const AlertIncident &i : incidents) {
                    const std::string group = grouping == ResponseGrouping::Week ? isoWeek(i.sentMs)
                                              : grouping == ResponseGrouping::DataCenter
                                                  ? i.dataCenter
                                              : grouping == ResponseGrouping::Kind ? i.kind
                                              : i.acknowledgedBy.empty() ? "(not acknowledged)"
                                                                         : i.acknowledgedBy;
                    if (group != row.group)
                        continue;
                    ++incidentsHere;
                    if (i.acknowledgedMs) {
                        toAck.push_back(*i.acknowledgedMs - i.sentMs);
                        ackInTime += *i.acknowledgedMs - i.sentMs <= 15 * kMinute;
                    }
                    if (i.resolvedMs)
                        resolvedInTime += *i.resolvedMs - i.sentMs <= 60 * kMinute;
                    else
                        ++open;
                }
                EXPECT_EQ(row.incidents, incidentsHere) << row.group;
                EXPECT_EQ(row.acknowledgedInTime, ackInTime) << row.group;
                EXPECT_EQ(row.resolvedInTime, resolvedInTime) << row.group;
                EXPECT_EQ(row.open, open) << row.group;
                EXPECT_DOUBLE_EQ(row.shareResolvedInTime(),
                                 static_cast<double>(resolvedInTime) / incidentsHere);
                std::sort(toAck.begin(), toAck.end());
                if (toAck.empty()) {
                    EXPECT_FALSE(row.medianAcknowledgeMs);
                } else {
                    // Nearest rank: half of them took at most the median, and it is one of them.
                    const int64_t median = *row.medianAcknowledgeMs;
                    const auto atMost =
                        std::upper_bound(toAck.begin(), toAck.end(), median) - toAck.begin();
                    EXPECT_GE(2 * atMost, static_cast<long>(toAck.size())) << row.group;
                    EXPECT_TRUE(std::binary_search(toAck.begin(), toAck.end(), median));
                    EXPECT_LE(median, *row.p90AcknowledgeMs);
                }
            }
            EXPECT_EQ(sum, count);
            EXPECT_EQ(rows.back().incidents, count);
        }
    }
}

TEST(ResponseClock, CsvAndJsonCarryEveryGroupAndTheTargets)
{
    AlertIncident fast = incident("a", "Xid", "wuhu", kMonday);
    fast.acknowledgedMs = kMonday + 2 * kMinute;
    fast.acknowledgedBy = "wang, fang";  // a comma: quoted in CSV
    fast.resolvedMs = kMonday + 20 * kMinute;
    AlertIncident slow = incident("b", "Xid", "xiamen", kMonday);
    slow.acknowledgedMs = kMonday + 40 * kMinute;
    slow.acknowledgedBy = "li.wei";
    slow.resolvedMs = kMonday + 90 * kMinute;
    const auto rows = tallyResponse({fast, slow}, ResponseGrouping::Person, {});
    const std::string csv = responseToCsv(rows, ResponseGrouping::Person);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "person,incidents,acknowledged,acknowledged_in_time,share_acknowledged_in_time,"
              "median_minutes_to_acknowledge,p90_minutes_to_acknowledge,resolved,"
              "resolved_in_time,share_resolved_in_time,median_minutes_to_resolve,"
              "p90_minutes_to_resolve,open");
    EXPECT_NE(csv.find("\"wang, fang\",1,1,1,1.000,2.0,2.0,1,1,1.000,20.0,20.0,0\n"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find("li.wei,1,1,0,0.000,40.0,40.0,1,0,0.000,90.0,90.0,0\n"), std::string::npos)
        << csv;
    EXPECT_NE(csv.find("total,2,2,1,0.500,"), std::string::npos) << csv;
    const std::string json =
        responseToJson(rows, ResponseGrouping::Person, {}, kMonday, kMonday + 86400'000);
    EXPECT_NE(json.find("\"acknowledge_within_ms\": 900000"), std::string::npos) << json;
    EXPECT_NE(json.find("\"group\": \"total\""), std::string::npos);
}

// The card panel's ranges: a card read from a Prometheus-compatible store charts the
// store's history, an agent's card its history file past the fifteen minutes this
// console keeps (both through StoreHistoryLoader, off the UI thread), over the period
// the operator picks.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QSignalSpy>
#include <atomic>
#include <mutex>

#include "core/clock.h"
#include "history/historystore.h"
#include "models/alerts/alertevaluator.h"
#include "models/alerts/alertguidance.h"
#include "models/fleet/storehistoryloader.h"
#include "testsupport.h"
#include "usagefixture.h"
#include "widgets/fleet/carddetailpanel.h"
#include "widgets/historychart.h"

using namespace meridian;

namespace {

NodeInventory oneCard(const std::string &node, const std::string &uuid)
{
    NodeInventory inventory;
    inventory.nodeId = node;
    CardInfo card;
    card.uuid = uuid;
    card.model = "A100";
    inventory.cards = {card};
    return inventory;
}

// A card panel on `state`, shown, and its fault banner.
struct ShownPanel {
    explicit ShownPanel(FleetState &state) : source(state, clock), panel(source)
    {
        panel.show();
        fault = panel.findChild<QLabel *>(QStringLiteral("cardFault"));
    }
    ManualClock clock;
    FleetSnapshotSource source;
    CardDetailPanel panel;
    QLabel *fault = nullptr;
};

// An agent's card "n2-0" at `now`, its panel shown over the history file `file`; with a
// reading of `utilization` at `now`, or none.
struct AgentCardPanel {
    AgentCardPanel(const std::string &file, int64_t now, std::optional<float> utilization)
        : clock(now), source(state, clock), loader(usageHistoryLoader(file)), panel(source)
    {
        const NodeHandle agent = state.addNode("127.0.0.1:5000", "wuhu");
        state.setInventory(agent, oneCard("n2", "n2-0"), 1000);
        if (utilization) {
            TelemetrySample sample;
            CardSample reading;
            reading.utilizationPercent = *utilization;
            reading.temperatureCelsius = 61;
            sample.cards.push_back(reading);
            state.recordTelemetry(agent, sample, now);
        }
        source.refresh();
        panel.setUsageHistory(loader.get());
        panel.show();
        panel.showCard(0, state.snapshot(now));
    }
    FleetState state;
    ManualClock clock;
    FleetSnapshotSource source;
    std::unique_ptr<StoreHistoryLoader> loader;
    CardDetailPanel panel;
};

struct Asked {
    std::string uuid;
    int64_t windowS = 0;
    int64_t stepS = 0;
};

}  // namespace

TEST(CardDetailPanel, AStoreCardChartsTheStoresHistoryOverThePeriodPicked)
{
    FleetState state;
    const NodeHandle fromStore = state.addNode("prometheus:h1", "wuhu");
    state.setInventory(fromStore, oneCard("h1", "G-store"), 15'000);
    const NodeHandle fromAgent = state.addNode("127.0.0.1:5000", "wuhu");
    state.setInventory(fromAgent, oneCard("n2", "G-agent"), 1000);

    std::mutex mutex;
    std::vector<Asked> asked;
    StoreHistoryLoader loader(
        [&](const std::string &uuid, CardMetric, int64_t from, int64_t to,
            int64_t step) -> Result<std::vector<HistoryPoint>> {
            std::lock_guard lock(mutex);
            asked.push_back({uuid, to - from, step});
            std::vector<HistoryPoint> points;
            for (int64_t t = from; t <= to; t += step)
                points.push_back({t * 1000, 42.0f});
            return points;
        },
        15);
    ManualClock clock;
    FleetSnapshotSource source(state, clock);
    CardDetailPanel panel(source);
    panel.setStoreHistory(&loader);
    panel.show();
    auto *period = panel.findChild<QComboBox *>();
    ASSERT_NE(period, nullptr);

    const int64_t now = 1'796'000'000'000;
    QSignalSpy loaded(&loader, &StoreHistoryLoader::loaded);
    panel.showCard(0, state.snapshot(now));
    ASSERT_TRUE(loaded.wait(5000));
    EXPECT_TRUE(period->isEnabled());
    {
        std::lock_guard lock(mutex);
        ASSERT_FALSE(asked.empty());
        EXPECT_EQ(asked.back().uuid, "G-store");
        EXPECT_EQ(asked.back().windowS, 15 * 60);
        EXPECT_EQ(asked.back().stepS, 15);  // the scrape interval, not finer
    }
    EXPECT_EQ(panel.chart(0)->pointCount(), 61);

    period->setCurrentIndex(3);  // the last 24 hours
    ASSERT_TRUE(loaded.wait(5000));
    {
        std::lock_guard lock(mutex);
        EXPECT_EQ(asked.back().windowS, 24 * 3600);
        EXPECT_EQ(asked.back().stepS, 240);  // about 360 points
    }
    EXPECT_EQ(panel.chart(0)->pointCount(), 361);

    // An agent's card: nothing asked of the store, the period back at 15 minutes.
    const size_t before = asked.size();
    panel.showCard(1, state.snapshot(now));
    EXPECT_FALSE(period->isEnabled());
    EXPECT_EQ(period->currentIndex(), 0);
    QCoreApplication::processEvents();
    std::lock_guard lock(mutex);
    EXPECT_EQ(asked.size(), before);
}

// A card that faulted, or went silent while its node reports, says so first; the panel
// used to say "live, reading 0 s old" for a card that had fallen off the bus.
TEST(CardDetailPanel, AFaultyOrSilentCardSaysSo)
{
    FleetState state;
    const NodeHandle node = state.addNode("127.0.0.1:5000", "wuhu");
    NodeInventory inventory = oneCard("n1", "G-0");
    CardInfo second;
    second.index = 1;
    second.uuid = "G-1";
    second.model = "A100";
    inventory.cards.push_back(second);
    state.setInventory(node, inventory, 1000);
    const auto sample = [&](int64_t atMs, bool secondReports) {
        TelemetrySample s;
        s.sampleTimeUnixMs = atMs;
        CardSample first;
        first.index = 0;
        first.utilizationPercent = 40;
        s.cards.push_back(first);
        if (secondReports) {
            CardSample other = first;
            other.index = 1;
            s.cards.push_back(other);
        }
        state.recordTelemetry(node, s, atMs);
    };
    sample(10'000, true);
    ShownPanel shown(state);
    CardDetailPanel &panel = shown.panel;
    QLabel *fault = shown.fault;
    ASSERT_NE(fault, nullptr);
    panel.showCard(0, state.snapshot(10'100));
    EXPECT_FALSE(fault->isVisible()) << "a healthy card has no banner";

    Event xid;
    xid.kind = EventKind::Xid;
    xid.cardIndex = 0;
    xid.xid = 79;
    xid.timeUnixMs = 10'200;
    state.recordEvent(node, xid);
    // Before any alert speaks for it, the fleet's own word: an Xid, what it means, what to do.
    panel.showCard(0, state.snapshot(10'300));
    EXPECT_TRUE(fault->isVisible());
    EXPECT_TRUE(fault->text().contains(QStringLiteral("<b>Xid</b>")))
        << fault->text().toStdString();
    EXPECT_TRUE(fault->text().contains(QStringLiteral("Next:"))) << fault->text().toStdString();
    EXPECT_TRUE(fault->text().contains(QStringLiteral("1 uncorrectable error")));

    // Its alert, once it fires, speaks for it: the code, its meaning and next step, and who
    // has it in hand, in the words the alert list uses.
    AlertsView view;
    Alert alert;
    alert.kind = AlertKind::Xid;
    alert.severity = AlertSeverity::Critical;
    alert.node = node;
    alert.card = 0;
    alert.cardIndex = 0;
    alert.nodeName = "n1";
    alert.xid = 79;
    alert.acknowledgedMs = 10'250;
    alert.acknowledgedBy = "ana";
    view.alerts.push_back(alert);
    panel.setAlertsView([&] { return &view; });
    panel.showCard(0, state.snapshot(10'300));
    const QString text = fault->text();
    EXPECT_TRUE(text.contains(alertTitle(alert).toHtmlEscaped())) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Xid 79"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("GPU fell off the bus"))) << text.toStdString();
    EXPECT_TRUE(text.contains(alertNextStep(alert).toHtmlEscaped())) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("acknowledged by ana"))) << text.toStdString();
    EXPECT_EQ(text.count(QStringLiteral("<b>")), 1) << "the alert and the fleet's word said twice";
    panel.setAlertsView({});

    // Card 1 stops reporting while its node goes on, once a second.
    for (int64_t t = 11'000; t <= 14'000; t += 1000)
        sample(t, false);
    panel.showCard(1, state.snapshot(14'100));
    EXPECT_TRUE(fault->isVisible());
    EXPECT_TRUE(fault->text().contains(QStringLiteral("No reading")))
        << fault->text().toStdString();
}

// An agent's card past the fifteen minutes this console keeps: utilisation and power from
// the real history file, memory and temperature still its own fifteen minutes, said so.
TEST(CardDetailPanel, AnAgentsCardChartsTheHistoryFileBeyondFifteenMinutes)
{
    const int64_t now = 1'796'000'040'000;
    const int64_t nowS = now / 1000 / 60 * 60;
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    ASSERT_TRUE(test::writeUsageHistory(
                    file, {test::a100Minutes("n2", "wuhu", 1, nowS - 6 * 3600, 360, 45, 12'000)})
                    .ok());
    AgentCardPanel shown(file, now, 80);
    FleetState &state = shown.state;
    CardDetailPanel &panel = shown.panel;
    const std::unique_ptr<StoreHistoryLoader> &loader = shown.loader;
    QComboBox *range = panel.rangeBox();
    EXPECT_TRUE(range->isEnabled()) << "an agent's card has its history file too";
    EXPECT_EQ(panel.chart(0)->pointCount(), 1);  // fifteen minutes: what this console saw

    QSignalSpy loaded(loader.get(), &StoreHistoryLoader::loaded);
    range->setCurrentIndex(range->findData(24 * 3600));
    ASSERT_TRUE(loaded.wait(5000)) << loader->latest().problem;
    EXPECT_TRUE(loader->latest().problem.empty()) << loader->latest().problem;
    // Six recorded hours of the day, a point every four minutes; the rest is a gap.
    EXPECT_EQ(panel.chart(0)->pointCount(), 90);
    EXPECT_EQ(panel.chart(3)->pointCount(), 90);  // power, from the energy
    EXPECT_EQ(panel.chart(2)->pointCount(), 1) << "temperature: the file does not keep it";
    bool said = false;
    for (const QLabel *label : panel.findChildren<QLabel *>())
        said |= label->isVisible() && label->text().contains(QStringLiteral("15 minutes"));
    EXPECT_TRUE(said);
    // Memory and temperature, kept for 15 minutes only, are not offered as a dot on a
    // day's axis; back on 15 minutes they are.
    EXPECT_TRUE(panel.chart(0)->isVisible());
    EXPECT_FALSE(panel.chart(1)->isVisible());
    EXPECT_FALSE(panel.chart(2)->isVisible());
    EXPECT_TRUE(panel.chart(3)->isVisible());
    range->setCurrentIndex(0);
    panel.refresh(state.snapshot(now + 2000));
    EXPECT_TRUE(panel.chart(1)->isVisible());
    EXPECT_TRUE(panel.chart(2)->isVisible());
}

// A new history file: every longer range used to be an empty frame with no word. Now an
// empty range says why, and once the file holds minutes, since when.
TEST(CardDetailPanel, AnEmptyRangeSaysWhyAndSinceWhenHistoryExists)
{
    const int64_t now = 1'796'000'040'000;
    const int64_t nowS = now / 1000 / 60 * 60;
    test::TempDir dir;
    const std::string file = dir.file("history.db");
    ASSERT_TRUE(test::writeUsageHistory(file, {}).ok());
    AgentCardPanel shown(file, now, std::nullopt);
    CardDetailPanel &panel = shown.panel;
    const std::unique_ptr<StoreHistoryLoader> &loader = shown.loader;
    EXPECT_EQ(panel.chart(0)->pointCount(), 0);
    EXPECT_TRUE(panel.chart(0)->shownNote().contains(QStringLiteral("last 15 minutes")))
        << panel.chart(0)->shownNote().toStdString();

    QComboBox *range = panel.rangeBox();
    QSignalSpy loaded(loader.get(), &StoreHistoryLoader::loaded);
    range->setCurrentIndex(range->findData(7 * 24 * 3600));
    ASSERT_TRUE(loaded.wait(5000)) << loader->latest().problem;
    EXPECT_EQ(panel.chart(0)->pointCount(), 0);
    EXPECT_TRUE(panel.chart(0)->shownNote().contains(QStringLiteral("holds no readings yet")))
        << panel.chart(0)->shownNote().toStdString();
    const auto *note = panel.chart(0)->findChild<QLabel *>(QStringLiteral("emptyNote"));
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->isVisible()) << "the frame says it, not only the model";

    // Another card's minutes arrive: this card's week is still empty, and says since when.
    ASSERT_TRUE(test::writeUsageHistory(
                    file, {test::a100Minutes("n9", "wuhu", 1, nowS - 2 * 3600, 30, 45, 12'000)})
                    .ok());
    range->setCurrentIndex(range->findData(24 * 3600));
    ASSERT_TRUE(loaded.wait(5000)) << loader->latest().problem;
    const QString begins = QDateTime::fromMSecsSinceEpoch((nowS - 2 * 3600) * 1000)
                               .toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    EXPECT_TRUE(panel.chart(0)->shownNote().contains(QStringLiteral("begins ") + begins))
        << panel.chart(0)->shownNote().toStdString();
    EXPECT_TRUE(panel.chart(3)->shownNote().contains(QStringLiteral("begins")));
}

// Conditions of the card's node and of its own readings: a link down on its node, heat,
// a hardware slowdown. The panel used to look healthy for all three.
TEST(CardDetailPanel, ALinkDownNodeAHotCardAndAHardwareSlowdownAreEachSaid)
{
    FleetState state;
    const NodeHandle node = state.addNode("127.0.0.1:5000", "wuhu");
    NodeInventory inventory = oneCard("n1", "G-0");
    for (uint32_t i = 1; i <= 2; ++i) {
        CardInfo card;
        card.index = i;
        card.uuid = "G-" + std::to_string(i);
        card.model = "A100";
        inventory.cards.push_back(card);
    }
    // Its RoCE NIC, cabled to a leaf's port as LLDP says; and one no switch names.
    NicInfo nic;
    nic.netdev = "ens1f0";
    nic.nearestCardIndex = 3;
    LldpNeighbor leaf;
    leaf.systemName = "wuhu-pod4-leaf0";
    leaf.portId = "Ethernet232";
    nic.neighbor = leaf;
    inventory.nics.push_back(nic);
    NicInfo unnamed;
    unnamed.netdev = "ens2f0";
    inventory.nics.push_back(unnamed);
    state.setInventory(node, inventory, 1000);
    TelemetrySample sample;
    sample.sampleTimeUnixMs = 10'000;
    for (uint32_t i = 0; i <= 2; ++i) {
        CardSample card;
        card.index = i;
        card.utilizationPercent = 50;
        if (i == 1)
            card.throttleReasons = std::vector<ThrottleReason>{ThrottleReason::HwThermal};
        if (i == 2)
            card.throttleReasons = std::vector<ThrottleReason>{ThrottleReason::HwPowerBrake};
        sample.cards.push_back(card);
    }
    state.recordTelemetry(node, sample, 10'000);
    ShownPanel shown(state);
    CardDetailPanel &panel = shown.panel;
    QLabel *fault = shown.fault;
    ASSERT_NE(fault, nullptr);

    panel.showCard(1, state.snapshot(10'100));
    EXPECT_TRUE(fault->isVisible());
    EXPECT_TRUE(fault->text().contains(alertKindTitle(AlertKind::ThermalThrottle)))
        << fault->text().toStdString();
    panel.showCard(2, state.snapshot(10'100));
    EXPECT_TRUE(fault->text().contains(QStringLiteral("Throttled by the hardware")))
        << fault->text().toStdString();
    EXPECT_TRUE(fault->text().contains(QStringLiteral("nvidia-smi -q -d PERFORMANCE")));

    Event down;
    down.kind = EventKind::LinkDown;
    down.netdev = "ens1f0";
    down.timeUnixMs = 10'200;
    state.recordEvent(node, down);
    panel.showCard(0, state.snapshot(10'300));
    EXPECT_TRUE(fault->isVisible()) << "a card on a node with a link down looked healthy";
    EXPECT_TRUE(fault->text().contains(QStringLiteral("Link down or flapping")))
        << fault->text().toStdString();
    // Once the link-down alert fires, it speaks for the node: its own title and next step.
    AlertsView view;
    Alert alert;
    alert.kind = AlertKind::LinkDown;
    alert.severity = AlertSeverity::Critical;
    alert.node = node;
    alert.nodeName = "n1";
    alert.netdev = "ens1f0";
    view.alerts.push_back(alert);
    panel.setAlertsView([&] { return &view; });
    panel.showCard(0, state.snapshot(10'300));
    EXPECT_TRUE(fault->text().contains(alertTitle(alert).toHtmlEscaped()))
        << fault->text().toStdString();
    EXPECT_TRUE(fault->text().contains(alertNextStep(alert).toHtmlEscaped()));
    EXPECT_FALSE(fault->text().contains(QStringLiteral("Link down or flapping")));
    // And both ends of the link, as the fabric's finding names them.
    EXPECT_TRUE(fault->text().contains(
        QStringLiteral("ens1f0 (rail 3) → switch wuhu-pod4-leaf0 port Ethernet232")))
        << fault->text().toStdString();
    view.alerts.back().netdev = "ens2f0";
    panel.showCard(0, state.snapshot(10'300));
    EXPECT_TRUE(fault->text().contains(QStringLiteral("ens2f0: no switch names it")))
        << fault->text().toStdString();
    view.alerts.back().netdev = "ens1f0";

    // Its data center dark: that one alert speaks for the silent agent, not a second line.
    Alert dark;
    dark.kind = AlertKind::DataCenterDark;
    dark.severity = AlertSeverity::Critical;
    dark.subject = "wuhu";
    view.alerts.push_back(dark);
    ASSERT_TRUE(state.snapshot(60'000).nodeStale(node)) << "the node long silent by then";
    panel.showCard(0, state.snapshot(60'000));
    EXPECT_TRUE(fault->text().contains(alertTitle(dark).toHtmlEscaped()))
        << fault->text().toStdString();
    EXPECT_FALSE(fault->text().contains(alertKindTitle(AlertKind::AgentStale)))
        << fault->text().toStdString();
}

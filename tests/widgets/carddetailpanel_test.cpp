// The card panel for a card read from a Prometheus-compatible store: its charts come
// from the store (through StoreHistoryLoader, off the UI thread), over the period the
// operator picks; an agent's card keeps this console's own fifteen minutes.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QSignalSpy>
#include <atomic>
#include <mutex>

#include "core/clock.h"
#include "models/storehistoryloader.h"
#include "widgets/carddetailpanel.h"
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

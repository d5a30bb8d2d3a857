#include "usagefixture.h"

namespace meridian::test {

UsageBatch a100Minutes(const std::string &node, const std::string &dataCenter, int cards,
                       int64_t firstMinute, int minutes, double busySeconds,
                       double energyJoulesPerMinute, const std::string &service)
{
    UsageBatch batch;
    batch.node.nodeId = node;
    batch.node.dataCenter = dataCenter;
    for (int c = 0; c < cards; ++c) {
        CardInfo info;
        info.index = static_cast<uint32_t>(c);
        info.uuid = node + "-" + std::to_string(c);
        info.vendor = Vendor::Nvidia;
        info.model = "A100-SXM4-80GB";
        batch.node.cards.push_back(info);
        for (int m = 0; m < minutes; ++m) {
            batch.minutes.push_back({firstMinute + m * 60, info.index, info.uuid, 60, busySeconds,
                                     busySeconds / 60 * 100, energyJoulesPerMinute, service});
        }
    }
    return batch;
}

std::thread streamUsage(HistoryStore &store, int minutes)
{
    return std::thread([&store, minutes] {
        for (int i = 0; i < minutes; ++i)
            store.submit(a100Minutes("xm-n1", "xiamen", 8, kJuly1 + i * 60, 1, 30, 0));
    });
}

Status writeUsageHistory(const std::string &file, std::vector<UsageBatch> batches)
{
    auto store = HistoryStore::open(file);
    if (!store)
        return store.error();
    for (UsageBatch &batch : batches)
        store.value()->submit(std::move(batch));
    return store.value()->flush();
}

}  // namespace meridian::test

// The objective is on queueing delay: a long prompt's own prefill is not held against
// scaling, while the time to first token is still reported; a prompt whose prefix a
// replica has cached skips that part of its prefill, and Mooncake's block hashes are read
// (or named by line when broken).
#include <gtest/gtest.h>

#include <fstream>

#include "replay/prefixcache.h"
#include "replay/requesttrace.h"
#include "replay/servingsim.h"
#include "testsupport.h"

using namespace meridian;

namespace {

ServingSim::Totals replay(const std::vector<TraceRequest> &requests, int replicas,
                          ReplicaPerformance performance = {})
{
    MemorySource source(requests);
    ServingSim sim(source, performance, StartupTimes{}, replicas, replicas, 5.0);
    sim.runUntil(600);
    return sim.finish();
}

}  // namespace

TEST(PrefixCache, APromptFindsItsCachedLeadingBlocksAndTheOldestGoFirst)
{
    PrefixCache cache(4);
    EXPECT_EQ(cache.cachedPrefix({1, 2, 3}), 0u);
    cache.insert({1, 2, 3});
    EXPECT_EQ(cache.cachedPrefix({1, 2, 3}), 3u);
    EXPECT_EQ(cache.cachedPrefix({1, 2, 9, 3}), 2u) << "only the leading run counts";
    cache.insert({1, 7, 8});  // 1 is used again; 2 and 3 are now the least recently used
    EXPECT_EQ(cache.size(), 4u);
    EXPECT_EQ(cache.cachedPrefix({1, 7, 8}), 3u);
    EXPECT_EQ(cache.cachedPrefix({1, 2}), 2u) << "2 outlived 3: a prompt's first blocks stay";
    EXPECT_EQ(PrefixCache(0).cachedPrefix({1}), 0u);
}

TEST(QueueingDelay, ALongPromptAloneIsInsideTheObjectiveThoughItsFirstTokenIsLate)
{
    // 60,000 prompt tokens at 8,000 a second: 7.5 s of prefill, no wait.
    const auto alone = replay({{0.0, 60'000, 10, {}}}, 1);
    EXPECT_EQ(alone.requests, 1);
    EXPECT_EQ(alone.withinSlo, 1) << "no queueing delay";
    EXPECT_EQ(alone.withinTtft, 0) << "the first token came after 7.5 s";
    EXPECT_NEAR(alone.ttft.percentile(0.5), 7.5, 0.6);
    EXPECT_LT(alone.queueDelay.percentile(0.5), 0.6);
    // Two at once on one replica share its prefill: the second waits, and more than the
    // objective once the first holds the budget for long enough.
    const auto queued = replay({{0.0, 60'000, 10, {}}, {0.0, 60'000, 10, {}}}, 1);
    EXPECT_EQ(queued.withinSlo, 1) << "the second one's 7.5 s behind the first is a wait";
    const auto spread = replay({{0.0, 60'000, 10, {}}, {0.0, 60'000, 10, {}}}, 2);
    EXPECT_EQ(spread.withinSlo, 2) << "with a replica each, neither waits";
}

TEST(QueueingDelay, ARepeatedPrefixIsPrefilledOnceOnTheReplicaThatHoldsIt)
{
    std::vector<uint64_t> blocks;
    for (uint64_t b = 0; b < 40; ++b)
        blocks.push_back(b);
    // The same 20,000-token conversation prefix twice, a minute apart, two replicas.
    const std::vector<TraceRequest> turns = {{0.0, 20'480, 10, blocks}, {60.0, 20'480, 10, blocks}};
    const auto cached = replay(turns, 2);
    EXPECT_EQ(cached.promptTokens, 2 * 20'480);
    EXPECT_EQ(cached.cachedPromptTokens, 20'479) << "all but the last token, on the same replica";
    EXPECT_LT(cached.ttft.percentile(0.0), 0.6) << "the second turn's first token is at once";
    ReplicaPerformance noCache;
    noCache.prefixCacheBlocks = 0;
    const auto uncached = replay(turns, 2, noCache);
    EXPECT_EQ(uncached.cachedPromptTokens, 0);
    EXPECT_GT(uncached.ttft.percentile(0.0), 2.4);
}

TEST(RequestTrace, MooncakeBlockHashesAreReadAndBrokenOnesNamed)
{
    auto mooncake = loadRequestTrace(test::realData("traces/mooncake_conversation_trace.jsonl.gz"));
    ASSERT_TRUE(mooncake.ok()) << mooncake.error().message;
    const TraceRequest &first = mooncake->requests.front();
    ASSERT_EQ(first.prefixBlocks.size(), 14u);  // 6,758 tokens in blocks of 512
    EXPECT_EQ(first.prefixBlocks.front(), 0u);
    EXPECT_EQ(mooncake->requests[1].prefixBlocks.front(), 0u) << "a shared system prompt";
    test::TempDir dir;
    const std::string jsonl = dir.file("mooncake.jsonl");
    std::ofstream(jsonl)
        << R"({"timestamp": 0, "input_length": 600, "output_length": 5, "hash_ids": [1, 2]})"
           "\n"
        << R"({"timestamp": 3, "input_length": 600, "output_length": 5, "hash_ids": [1, "x"]})"
           "\n";
    auto broken = loadRequestTrace(jsonl);
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().message.find(jsonl + ":2"), std::string::npos)
        << broken.error().message;
    std::ofstream(jsonl)
        << R"({"timestamp": 0, "input_length": 600, "output_length": 5, "hash_ids": [1, 2, 3]})"
           "\n";
    auto tooMany = loadRequestTrace(jsonl);
    ASSERT_FALSE(tooMany.ok());
    EXPECT_NE(tooMany.error().message.find("at most 2 block numbers"), std::string::npos)
        << tooMany.error().message;
}

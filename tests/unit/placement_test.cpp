// Placement: local cards first, then the cloud offer with the most throughput per CNY in
// whole nodes, inside the price cap, card cap and hourly budget; billing-aware release;
// and the service declarations it reads, with their mistakes named by line.
#include <gtest/gtest.h>

#include <fstream>

#include "scaling/offerholds.h"
#include "scaling/placement.h"
#include "testsupport.h"

using namespace meridian;

namespace {

InferenceService chat()
{
    InferenceService s;
    s.name = "customer-service-chat";
    s.model = "qwen2-72b";
    s.cardsPerReplica = 4;
    s.runsOn = {
        {"A100-SXM4-80GB", 1.0, 16}, {"Ascend 910B", 0.75, 12}, {"H100-SXM5-80GB", 2.0, 24}};
    s.rent = {{"A100-SXM4-80GB", "H100-SXM5-80GB", "Ascend 910B"}, 64, 6.0, 200};
    return s;
}

const std::vector<CloudOfferView> kOffers = {
    {"cn-east-a100", "cn-east", "A100-SXM4-80GB", 8, 16, 2.6},   // 4 req/s per 10.4 CNY
    {"cn-north-h100", "cn-north", "H100-SXM5-80GB", 8, 8, 5.8},  // 8 req/s per 23.2 CNY
    {"cn-south-910b", "cn-south", "Ascend 910B", 8, 24, 1.5},    // 3 req/s per 6.0 CNY
};

}  // namespace

TEST(Placement, FreeLocalCardsFirstThenTheBestThroughputPerYuan)
{
    PlacementRequest request;
    request.neededRps = 20;
    request.local = {{"Ascend 910B", 8}, {"A100-SXM4-80GB", 4}};
    request.offers = kOffers;
    const PlacementPlan plan = planPlacement(chat(), request);
    // Local: one A100 replica (4 req/s) and two 910B replicas (6 req/s).
    ASSERT_EQ(plan.local.size(), 2u);
    EXPECT_EQ(plan.local[0].cardModel, "A100-SXM4-80GB");
    EXPECT_EQ(plan.local[1].replicas, 2);
    // The other 10 req/s from 910B nodes (0.5 req/s per CNY·h beats 0.385 and 0.345).
    ASSERT_EQ(plan.cloud.size(), 1u);
    EXPECT_EQ(plan.cloud[0].offerId, "cn-south-910b");
    EXPECT_EQ(plan.cloud[0].nodes, 2);  // 2 nodes = 4 replicas = 12 req/s
    EXPECT_EQ(plan.cloud[0].replicas, 4);
    EXPECT_DOUBLE_EQ(plan.addedCnyPerHour, 2 * 8 * 1.5);
    EXPECT_DOUBLE_EQ(plan.shortRps, 0);
}

TEST(Placement, PriceCardAndBudgetCapsHoldAndSaySo)
{
    InferenceService service = chat();
    service.rent.cardModels = {"H100-SXM5-80GB", "A100-SXM4-80GB"};
    service.rent.maxCnyPerCardHour = 3.0;  // the H100 offer is too dear
    service.rent.budgetCnyPerHour = 50;    // four A100 nodes would cost 83.2
    PlacementRequest request;
    request.neededRps = 24;  // three A100 nodes (8 req/s each, 20.8 CNY/hour each)
    request.offers = kOffers;
    const PlacementPlan plan = planPlacement(service, request);
    ASSERT_EQ(plan.cloud.size(), 1u);
    EXPECT_EQ(plan.cloud[0].offerId, "cn-east-a100");
    EXPECT_EQ(plan.cloud[0].nodes, 2);  // 41.6 CNY/hour fits in 50
    EXPECT_DOUBLE_EQ(plan.shortRps, 8);
    std::string notes;
    for (const std::string &n : plan.notes)
        notes += n + "\n";
    EXPECT_NE(notes.find("above the cap"), std::string::npos) << notes;
    EXPECT_NE(notes.find("budget of 50"), std::string::npos) << notes;

    service.rent.budgetCnyPerHour = 0;  // no budget limit, but at most 16 rented cards
    service.rent.maxCards = 16;
    request.rentedCards = 8;
    const PlacementPlan capped = planPlacement(service, request);
    ASSERT_EQ(capped.cloud.size(), 1u);
    EXPECT_EQ(capped.cloud[0].nodes, 1);
    std::string cappedNotes;
    for (const std::string &n : capped.notes)
        cappedNotes += n + "\n";
    EXPECT_NE(cappedNotes.find("16 rented cards"), std::string::npos) << cappedNotes;
}

TEST(Placement, NothingToRentIsAShortfallNotAnError)
{
    InferenceService service = chat();
    service.rent.cardModels.clear();
    PlacementRequest request;
    request.neededRps = 5;
    request.offers = kOffers;
    const PlacementPlan none = planPlacement(service, request);
    EXPECT_TRUE(none.cloud.empty());
    EXPECT_DOUBLE_EQ(none.shortRps, 5);
    EXPECT_EQ(none.notes.front(), "the service may not rent cloud capacity");
    request.offers = {{"cn-south-910b", "cn-south", "Ascend 910B", 8, 0, 1.5}};  // sold out
    const PlacementPlan soldOut = planPlacement(chat(), request);
    EXPECT_DOUBLE_EQ(soldOut.shortRps, 5);
    EXPECT_NE(soldOut.notes.front().find("0 nodes free"), std::string::npos);
}

TEST(Placement, OffersHeldBackAreSaidNotBlamedOnTheCaps)
{
    OfferHolds holds(15 * 60'000);
    holds.hold("cn-south-910b", "its node cloud-7 has not answered for 5 min", 1'000);
    std::vector<std::string> notes;
    PlacementRequest request;
    request.neededRps = 5;
    request.offers = holds.usable({kOffers[2]}, 31'000, notes);
    EXPECT_TRUE(request.offers.empty());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0],
              "offer cn-south-910b held back for 15 more min: its last lease was given "
              "back (its node cloud-7 has not answered for 5 min)");
    request.offersMissingWhy = "no other allowed cloud offer within the price cap";
    const PlacementPlan held = planPlacement(chat(), request);
    EXPECT_EQ(held.notes.front(), "no other allowed cloud offer within the price cap");
    // The hold ends on its own.
    notes.clear();
    EXPECT_EQ(holds.usable({kOffers[2]}, 1'000 + 15 * 60'000, notes).size(), 1u);
    EXPECT_TRUE(notes.empty());
}

TEST(Placement, RentedCapacityIsReleasedAtTheEndOfItsPaidHour)
{
    CloudLease lease;
    lease.createdUnixS = 1'000'000;
    lease.billingIncrementSeconds = 3600;
    EXPECT_EQ(paidUntil(lease, 1'000'000 + 600), 1'000'000 + 3600);
    EXPECT_EQ(paidUntil(lease, 1'000'000 + 3600), 1'000'000 + 7200);  // a new hour began
    EXPECT_FALSE(releaseNow(lease, 1'000'000 + 600));   // 50 paid minutes left: keep it
    EXPECT_TRUE(releaseNow(lease, 1'000'000 + 3500));   // 100 s left: give it back
    EXPECT_FALSE(releaseNow(lease, 1'000'000 + 3700));  // the next hour is already paid
}

TEST(InferenceServices, DeclarationsLoadAndMistakesNameTheLine)
{
    test::TempDir dir;
    const std::string path = dir.file("services.yaml");
    std::ofstream(path) << R"(services:
  - name: customer-service-chat
    model: qwen2-72b-instruct
    cards_per_replica: 4
    slo: {ttft_p95_seconds: 5}
    replicas: {min: 2, max: 64}
    runs_on:
      - {card_model: A100-SXM4-80GB, requests_per_second_per_card: 0.9, max_concurrency_per_card: 16}
      - {card_model: Ascend 910B, requests_per_second_per_card: 0.7}
    rent: {card_models: [A100-SXM4-80GB], max_cards: 64, max_cny_per_card_hour: 3.0, budget_cny_per_hour: 150}
)";
    auto services = loadInferenceServices(path);
    ASSERT_TRUE(services.ok()) << services.error().message;
    ASSERT_EQ(services->size(), 1u);
    EXPECT_DOUBLE_EQ((*services)[0].replicaRequestsPerSecond("A100-SXM4-80GB"), 3.6);
    EXPECT_EQ((*services)[0].minReplicas, 2);
    EXPECT_EQ((*services)[0].rent.budgetCnyPerHour, 150);

    std::ofstream(path) << R"(services:
  - name: chat
    model: m
    runs_on:
      - {card_model: A100-SXM4-80GB, requests_per_second_per_card: 1}
    rent: {card_models: [H100-SXM5-80GB]}
)";
    auto wrong = loadInferenceServices(path);
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().message.find(path + ":6"), std::string::npos) << wrong.error().message;
    EXPECT_NE(wrong.error().message.find("not in runs_on"), std::string::npos);
}

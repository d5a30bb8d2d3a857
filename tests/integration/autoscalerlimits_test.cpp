// What holds the live autoscaler back, and says so: caps that allow no offer, local cards
// the service cannot run on, each cause audited once; and a service scaled by a policy of
// its own. Against meridian-sim over real loopback gRPC, on a ManualClock
// (autoscalerharness.h).
#include <gtest/gtest.h>

#include "autoscalerharness.h"

using namespace meridian;
using namespace meridian::autoscalertest;

TEST(Autoscaler, CapsThatAllowNoOfferPlanNothingAndSayWhich)
{
    InferenceService service = chatService();
    service.rent.maxCnyPerCardHour = 1.0;  // every offer is dearer
    Harness h(service);
    warmUp(h);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 20.0));
    h.pass(5);
    h.controller->tick().ok();
    EXPECT_TRUE(h.steps().empty());
    const ServiceScalingView view = h.controller->view().services[0];
    ASSERT_FALSE(view.notes.empty());
    EXPECT_NE(view.notes.front().find("above the cap"), std::string::npos) << view.notes.front();
    // Audited when it appears (once for each offer it holds back), not at every pass
    // while it lasts.
    const int first = h.timesAudited("scaling of chat is limited");
    EXPECT_GT(h.timesAudited("above the cap"), 0);
    for (int i = 0; i < 3; ++i) {
        h.pass(30);
        h.controller->tick().ok();
    }
    EXPECT_EQ(h.timesAudited("scaling of chat is limited"), first);
}

TEST(Autoscaler, AServiceWithAPolicyOfItsOwnIsScaledByIt)
{
    // The same load, once under the controller's policy and once under the service's
    // own, which keeps replicas at most 40% occupied: it asks for more of them.
    const auto desiredUnder = [](std::optional<ScalingPolicyConfig> own) {
        Harness h(chatService());
        if (own)
            h.m_servicePolicies["chat"] = *own;
        warmUp(h);
        EXPECT_TRUE(h.sim->setServiceDemand("chat", 6.0));
        h.pass(5);
        h.controller->tick().ok();
        return h.controller->view().services[0].desiredReplicas;
    };
    ScalingPolicyConfig roomy;
    roomy.targetOccupancy = 0.4;
    const int shared = desiredUnder(std::nullopt);
    const int own = desiredUnder(roomy);
    EXPECT_GT(shared, 0);
    EXPECT_GT(own, shared) << "the service's own policy was not used";
}

TEST(Autoscaler, LocalCardsTheServiceCannotRunOnAreSaidNotSilentlySkipped)
{
    // Its local pool holds A100 and Ascend cards only; it runs on H100s. It used to rent
    // with no word on why the pool's cards were passed over.
    InferenceService service = chatService();
    service.runsOn = {{"H100-SXM5-80GB", 2.0, 24}};
    service.rent = {{"H100-SXM5-80GB"}, 32, 10.0, 1000};
    Harness h(service, 1, /*poolTheOtherNodes=*/true);
    warmUp(h);
    ASSERT_TRUE(h.sim->setServiceDemand("chat", 20.0));
    h.pass(5);
    h.controller->tick().ok();
    const ServiceScalingView view = h.controller->view().services[0];
    const auto said = std::find_if(view.notes.begin(), view.notes.end(), [](const std::string &n) {
        return n.find("are none that chat runs on (H100-SXM5-80GB)") != std::string::npos;
    });
    ASSERT_NE(said, view.notes.end()) << "notes: " << ::testing::PrintToString(view.notes);
    EXPECT_NE(said->find("A100-SXM4-80GB"), std::string::npos) << *said;
    EXPECT_TRUE(h.audited("are none that chat runs on"));
}

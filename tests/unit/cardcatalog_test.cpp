// One name per card model, however a tool or a file spells it, so that the places that
// compare models (placement, prices) agree; a config that names a model nothing reports
// is refused with its line, naming the models that are known.
#include <gtest/gtest.h>

#include <fstream>

#include "core/cardcatalog.h"
#include "core/inferenceservice.h"
#include "meridian/v1/node_agent.pb.h"
#include "testsupport.h"
#include "wire/protoconvert.h"

using namespace meridian;

TEST(CardCatalog, EveryWayAToolOrAFileSpellsAModelIsOneName)
{
    // NVML and nvidia-smi, a config file, npu-smi, dcgm-exporter's modelName.
    EXPECT_EQ(canonicalCardModel("NVIDIA A100-SXM4-80GB"), "A100-SXM4-80GB");
    EXPECT_EQ(canonicalCardModel("A100-SXM4-80GB"), "A100-SXM4-80GB");
    EXPECT_EQ(canonicalCardModel("NVIDIA A100-SXM4-40GB"), "A100-SXM4-40GB");
    EXPECT_EQ(canonicalCardModel("NVIDIA A100-PCIE-40GB"), "A100-PCIE-40GB");
    EXPECT_EQ(canonicalCardModel("NVIDIA A100 80GB PCIe"), "A100-PCIE-80GB");
    EXPECT_EQ(canonicalCardModel("NVIDIA H100 80GB HBM3"), "H100-SXM5-80GB");
    EXPECT_EQ(canonicalCardModel("NVIDIA H100 PCIe"), "H100-PCIe-80GB");
    EXPECT_EQ(canonicalCardModel("NVIDIA H200"), "H200-SXM-141GB");
    EXPECT_EQ(canonicalCardModel("910B2"), "Ascend 910B");
    EXPECT_EQ(canonicalCardModel("Ascend 910B3"), "Ascend 910B");
    EXPECT_EQ(canonicalCardModel("MLU370-X8"), "MLU370-X8");
    // A model it does not know keeps its own name.
    EXPECT_EQ(canonicalCardModel(" Hygon DCU "), "Hygon DCU");
    EXPECT_EQ(lookupCardModel("NVIDIA H200")->memoryGiB, 141);
}

TEST(CardCatalog, AServicesFileNamingAModelNothingReportsIsRefusedWithItsLine)
{
    test::TempDir dir;
    const std::string path = dir.file("services.yaml");
    std::ofstream(path)
        << "services:\n  - name: chat\n    model: m\n    cards_per_replica: 4\n"
           "    runs_on:\n      - {card_model: B300, requests_per_second_per_card: 1}\n";
    auto refused = loadInferenceServices(path);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find(
                  "services.yaml:6: card model 'B300' is not one Meridian knows (H200-SXM-141GB, "),
              std::string::npos)
        << refused.error().message;
    std::ofstream(path) << "services:\n  - name: chat\n    model: m\n    cards_per_replica: 4\n"
                           "    runs_on:\n      - {card_model: NVIDIA A100-SXM4-80GB, "
                           "requests_per_second_per_card: 1}\n"
                           "    rent: {card_models: [A100-SXM4-80GB]}\n";
    auto loaded = loadInferenceServices(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->front().runsOn.front().cardModel, "A100-SXM4-80GB");
    EXPECT_GT(loaded->front().replicaRequestsPerSecond("A100-SXM4-80GB"), 0);
}

TEST(CardCatalog, AnAgentThatSendsTheDriversNameIsReadInTheCataloguesName)
{
    // An agent older than the catalogue sends what NVML says. Placement compared that
    // with services.yaml's "A100-SXM4-80GB", and eight free local cards sat idle while
    // the controller rented.
    v1::NodeInventory message;
    message.add_cards()->set_model("NVIDIA A100-SXM4-80GB");
    const NodeInventory inventory = fromProto(message);
    ASSERT_EQ(inventory.cards.size(), 1u);
    EXPECT_EQ(inventory.cards[0].model, "A100-SXM4-80GB");
}

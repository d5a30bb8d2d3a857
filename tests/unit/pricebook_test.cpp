// The price book: most specific price wins, changes apply from their start only, long
// contracts get 10% off; costs computed by hand.
#include <gtest/gtest.h>

#include <fstream>

#include "cost/pricebook.h"
#include "cost/pricebookfile.h"
#include "testsupport.h"

using namespace meridian;

namespace {

using test::kJuly1;

const char *kBook = R"(currency: CNY
prices:
  - {vendor: huawei, cny_per_card_hour: 1.2, from: 2026-01-01}
  - {vendor: cambricon, cny_per_card_hour: 1.2, from: 2026-01-01}
  - {model: A100-SXM4-80GB, cny_per_card_hour: 2.0, from: 2026-01-01}
  - {model: A100-SXM4-80GB, data_center: xiamen, cny_per_card_hour: 2.1, from: 2026-07-01}
contracts:
  - {customer: acme, data_center: wuhu, from: 2026-01-01, to: 2026-12-31}
  - {customer: trial, data_center: zhongwei, from: 2026-06-01, to: 2026-09-01}
)";

}  // namespace

TEST(PriceBook, MostSpecificPriceAtTheMomentAndContractDiscounts)
{
    test::TempDir dir;
    auto book = PriceBook::load(dir.write("prices.yaml", kBook));
    ASSERT_TRUE(book.ok()) << book.error().message;
    const CardPlace a100Xiamen{"A100-SXM4-80GB", Vendor::Nvidia, "xiamen", "xm-1"};
    const CardPlace a100Wuhu{"A100-SXM4-80GB", Vendor::Nvidia, "wuhu", "wh-1"};
    const CardPlace a100Zhongwei{"A100-SXM4-80GB", Vendor::Nvidia, "zhongwei", "zw-1"};
    const CardPlace ascend{"Ascend 910B", Vendor::Huawei, "xiamen", "xm-2"};
    const CardPlace h100{"H100-SXM5-80GB", Vendor::Nvidia, "xiamen", "xm-3"};
    EXPECT_DOUBLE_EQ(*book->price(a100Xiamen, kJuly1 - 1), 2.0);  // before the change
    EXPECT_DOUBLE_EQ(*book->price(a100Xiamen, kJuly1), 2.1);      // from it on
    EXPECT_DOUBLE_EQ(*book->price(ascend, kJuly1), 1.2);
    EXPECT_DOUBLE_EQ(*book->price(a100Wuhu, kJuly1), 1.8);      // 12-month contract: 10% off
    EXPECT_DOUBLE_EQ(*book->price(a100Zhongwei, kJuly1), 2.0);  // 3-month contract: list price
    EXPECT_DOUBLE_EQ(*book->listPrice(a100Wuhu, kJuly1), 2.0);
    EXPECT_FALSE(book->price(h100, kJuly1).has_value());           // no price: said, not zero
    EXPECT_FALSE(book->price(ascend, 1'700'000'000).has_value());  // before any price existed
}

TEST(PriceBook, ADayAcrossAPriceChangeCostsWhatEachHalfCost)
{
    test::TempDir dir;
    auto book = PriceBook::load(dir.write("prices.yaml", kBook));
    ASSERT_TRUE(book.ok());
    // Ten A100s in Xiamen, busy from noon on June 30 to noon on July 1, minute by minute.
    const CardPlace card{"A100-SXM4-80GB", Vendor::Nvidia, "xiamen", "xm-1"};
    double cost = 0;
    for (int64_t minute = kJuly1 - 12 * 3600; minute < kJuly1 + 12 * 3600; minute += 60)
        cost += 10 * *book->price(card, minute) * 60 / 3600.0;
    // By hand: 10 cards × (12 h × 2.0 + 12 h × 2.1) = 10 × 49.2 = 492 CNY.
    EXPECT_NEAR(cost, 492.0, 1e-9);
    // The same day in Wuhu under the long contract: 10 × 24 h × 1.8 = 432 CNY.
    const CardPlace wuhu{"A100-SXM4-80GB", Vendor::Nvidia, "wuhu", "wh-1"};
    double contracted = 0;
    for (int64_t minute = kJuly1 - 12 * 3600; minute < kJuly1 + 12 * 3600; minute += 60)
        contracted += 10 * *book->price(wuhu, minute) * 60 / 3600.0;
    EXPECT_NEAR(contracted, 432.0, 1e-9);
}

TEST(PriceBook, MistakesNameFileAndLine)
{
    test::TempDir dir;
    const auto error = [&](const std::string &text) {
        auto book = PriceBook::load(dir.write("prices.yaml", text));
        EXPECT_FALSE(book.ok());
        return book.ok() ? std::string() : book.error().message;
    };
    EXPECT_NE(
        error("prices:\n  - {model: A100, cny_per_card_hour: 2.0, from: July}\n").find(":2: from:"),
        std::string::npos);
    EXPECT_NE(error("prices:\n  - {vendor: intel, cny_per_card_hour: 2.0, from: 2026-01-01}\n")
                  .find(":2:"),
              std::string::npos);
    EXPECT_NE(error("prices:\n  - {model: A100, cny_per_card_hour: lots, from: 2026-01-01}\n")
                  .find(":2: cny_per_card_hour must be a number"),
              std::string::npos);
    EXPECT_NE(error("prices:\n  - {model: A100, cny_per_card_hour: -1, from: 2026-01-01}\n")
                  .find("0..10000"),
              std::string::npos);
    EXPECT_NE(error("currency: USD\nprices: []\n").find("only CNY"), std::string::npos);
    EXPECT_NE(error("prices:\n  - {model: A100-SXM4-80GB, cny_per_card_hour: 1, from: "
                    "2026-01-01}\ncontracts:\n"
                    "  - {customer: x, from: 2026-05-01, to: 2026-01-01}\n")
                  .find(":4: a contract needs"),
              std::string::npos);
}

TEST(PriceBook, TheShippedDefaultLoadsAndPricesEveryModelTheSimulatorRents)
{
    auto book = PriceBook::load(std::string(MERIDIAN_SOURCE_DIR) + "/resources/pricebook.yaml");
    ASSERT_TRUE(book.ok()) << book.error().message;
    for (const CardPlace &card : {CardPlace{"A100-SXM4-80GB", Vendor::Nvidia, "xiamen", ""},
                                  CardPlace{"H100-SXM5-80GB", Vendor::Nvidia, "wuhu", ""},
                                  CardPlace{"Ascend 910B", Vendor::Huawei, "wuhu", ""},
                                  CardPlace{"MLU370-X8", Vendor::Cambricon, "zhongwei", ""},
                                  CardPlace{"K100-AI", Vendor::Hygon, "zhongwei", ""}}) {
        EXPECT_TRUE(book->price(card, kJuly1).has_value()) << card.model;
    }
    EXPECT_DOUBLE_EQ(*book->price({"Ascend 910B", Vendor::Huawei, "wuhu", ""}, kJuly1), 1.2);
}

TEST(PriceBook, SavedAndLoadedAgainItPricesTheSameAndABadBookIsNeverWritten)
{
    test::TempDir dir;
    auto book = PriceBook::load(dir.write("prices.yaml", kBook));
    ASSERT_TRUE(book.ok());
    PriceBook edited = book.value();
    // A change from 08:00 on the 1st of August, and a short contract with its own discount.
    edited.addRule(
        {"A100-SXM4-80GB", Vendor::Unknown, "", 2.2, kJuly1 + 31 * 86400 + 8 * 3600, {}});
    edited.addContract({"globex", "", "xm-r01-n1", "", kJuly1, kJuly1 + 30 * 86400, 5});
    const std::string saved = dir.file("config/meridian/pricebook.yaml");
    ASSERT_TRUE(savePriceBook(saved, edited).ok());
    auto again = PriceBook::load(saved);
    ASSERT_TRUE(again.ok()) << again.error().message << "\n" << test::readFile(saved);
    const CardPlace a100{"A100-SXM4-80GB", Vendor::Nvidia, "wuhu", "wh-r01-n1"};
    const CardPlace xiamen{"A100-SXM4-80GB", Vendor::Nvidia, "xiamen", "xm-r01-n1"};
    const CardPlace ascend{"Ascend 910B", Vendor::Huawei, "wuhu", "wh-r02-n1"};
    for (int64_t t : {kJuly1 - 86400, kJuly1 + 3600, kJuly1 + 31 * 86400 + 9 * 3600}) {
        for (const CardPlace &card : {a100, xiamen, ascend})
            EXPECT_EQ(again->price(card, t), edited.price(card, t)) << card.model << " at " << t;
    }
    EXPECT_NEAR(*again->price(xiamen, kJuly1 + 3600), 2.1 * 0.95, 1e-12);
    EXPECT_NE(test::readFile(saved).find("2026-08-01T08:00:00Z"), std::string::npos);

    // A book that would not load again is refused, and the saved one stays as it was.
    const std::string before = test::readFile(saved);
    PriceBook broken = edited;
    broken.addRule({"", Vendor::Unknown, "", 1.0, kJuly1, {}});  // prices nothing in particular
    const Status refused = savePriceBook(saved, broken);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("not saved"), std::string::npos) << refused.message();
    EXPECT_EQ(test::readFile(saved), before);
}

// The cost side beside the prices (`card_costs:`, the capacity plan's): the shipped book
// has it, and a book edited and saved keeps it as it was written.
TEST(PriceBook, TheCostSideOutlivesASave)
{
    test::TempDir dir;
    auto shipped = PriceBook::load(std::string(MERIDIAN_SOURCE_DIR) + "/resources/pricebook.yaml");
    ASSERT_TRUE(shipped.ok()) << shipped.error().message;
    ASSERT_NE(shipped->cardCostsYaml().find("Ascend-910B"), std::string::npos);
    PriceBook edited = shipped.value();
    edited.addRule({"A100-SXM4-80GB", Vendor::Unknown, "", 2.2, kJuly1, {}});
    const std::string saved = dir.file("pricebook.yaml");
    ASSERT_TRUE(savePriceBook(saved, edited).ok());
    auto again = PriceBook::load(saved);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->cardCostsYaml(), shipped->cardCostsYaml()) << test::readFile(saved);
    EXPECT_FALSE(
        PriceBook::load(dir.write("bad.yaml", "prices: []\ncard_costs: {model: X}\n")).ok());
}

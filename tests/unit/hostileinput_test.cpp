// Hostile or broken tool output: a clear error naming the line, never a crash, a hang
// or a number made up from garbage.
#include <gtest/gtest.h>

#include <string>

#include "core/textutil.h"
#include "telemetry/cardparsers.h"
#include "telemetry/nicparsers.h"
#include "testsupport.h"

using namespace meridian;

namespace {

using CardParser = Result<ParsedCards> (*)(std::string_view);
const CardParser kCardParsers[] = {parseNvidiaSmiCsv, parseNvidiaSmiXml, parseNpuSmi, parseCnmon,
                                   parseHySmi};

}  // namespace

TEST(HostileInput, NotAvailableSpellingsNeverBecomeNumbers)
{
    for (const char *text :
         {"N/A", "[N/A]", "-", "", "  ", "[Requested functionality has been deprecated]",
          "[Not Supported]", "nan", "NaN", "inf", "-inf", "1e999", "12abc", "0x1F"}) {
        EXPECT_FALSE(parseNumber(text).has_value()) << "'" << text << "'";
    }
    EXPECT_EQ(parseNumber("67.03 W", "W"), 67.03);
    EXPECT_EQ(parseNumber("93,845", {}, true), 93845.0);
    EXPECT_FALSE(parseNumber("93,845").has_value());
    EXPECT_FALSE(parseUnsigned("-5").has_value());
    EXPECT_FALSE(parseUnsigned("1.5").has_value());
}

TEST(TextUtil, NamesSortAsPeopleReadThem)
{
    EXPECT_TRUE(naturalLess("n2", "n10"));
    EXPECT_FALSE(naturalLess("n10", "n2"));
    EXPECT_TRUE(naturalLess("xm-r01-n9", "xm-r01-n10"));
    EXPECT_TRUE(naturalLess("xm-r2-n1", "xm-r10-n1"));
    EXPECT_TRUE(naturalLess("n007", "n8"));
    EXPECT_TRUE(naturalLess("n1", "n1a"));
    EXPECT_FALSE(naturalLess("wuhu", "wuhu"));
    EXPECT_TRUE(naturalLess("wuhu", "xiamen"));
}

TEST(TextUtil, TimesAreIso8601AndUtcUnlessTheySayOtherwise)
{
    constexpr int64_t july1 = 1'782'864'000;  // 2026-07-01T00:00:00Z
    EXPECT_EQ(parseUtcTime("2026-07-01"), july1);
    EXPECT_EQ(parseUtcTime(" 2026-07-01T08:00 "), july1 + 8 * 3600);
    EXPECT_EQ(parseUtcTime("2026-07-01 08:00:30Z"), july1 + 8 * 3600 + 30);
    EXPECT_EQ(parseUtcTime("2026-07-01T08:00:30.250Z"), july1 + 8 * 3600 + 30);
    EXPECT_EQ(parseUtcTime("2026-07-01T08:00:00+08:00"), july1);  // Beijing time
    EXPECT_EQ(parseUtcTime("2026-06-30T19:00:00-0500"), july1);
    EXPECT_EQ(parseUtcTime("2026-7-1 8:00"), july1 + 8 * 3600);  // unpadded, as people type
    EXPECT_EQ(parseUtcTime("2024-02-29"), 1'709'164'800);        // a leap day
    for (const char *bad : {"", "2026-02-29", "2026-02-31", "2026-07-01T08:00:00Zjunk",
                            "2026-13-01", "2026-07-01T24:00", "2026-07-01T08:00+25:00",
                            "2026-07-01T08:00:00.Z", "yesterday", "2026-07-01x", "2026/07/01"})
        EXPECT_FALSE(parseUtcTime(bad).has_value()) << "'" << bad << "'";
}

TEST(HostileInput, BinaryGarbageNamesTheLine)
{
    std::string text = "DCU Temp AvgPwr\n0 49.0C 118.0W\n";
    text += std::string("\x00\x01\x02garbage", 10);
    for (CardParser parse : kCardParsers) {
        auto result = parse(text);
        ASSERT_FALSE(result.ok());
        EXPECT_NE(result.error().message.find("line 3"), std::string::npos)
            << result.error().message;
        EXPECT_NE(result.error().message.find("binary"), std::string::npos);
    }
    EXPECT_FALSE(parseEthtoolStats(text).ok());
    EXPECT_FALSE(parseLldpctlJson(text).ok());
}

TEST(HostileInput, TenMegabyteLineIsRefused)
{
    const std::string text =
        "index, uuid, utilization.gpu\n" + std::string(10 * 1024 * 1024, 'x') + "\n";
    for (CardParser parse : kCardParsers) {
        auto result = parse(text);
        ASSERT_FALSE(result.ok());
        EXPECT_NE(result.error().message.find("line 2"), std::string::npos)
            << result.error().message;
    }
}

TEST(HostileInput, TruncatedOutputs)
{
    const std::string xml =
        test::readFile(test::realData("telemetry/nvidia-smi-q-x-a100-sxm4-80gb-mig.xml"));
    auto truncatedXml = parseNvidiaSmiXml(xml.substr(0, xml.size() / 2));
    ASSERT_FALSE(truncatedXml.ok());
    EXPECT_NE(truncatedXml.error().message.find("line"), std::string::npos);

    const std::string json = test::readFile(
        test::realData("fabric/lldpctl-f-json0_gpu-host_4-sonic-leaves_unifabric.json"));
    auto truncatedJson = parseLldpctlJson(json.substr(0, json.size() / 3));
    ASSERT_FALSE(truncatedJson.ok());
    EXPECT_NE(truncatedJson.error().message.find("line"), std::string::npos);

    // A CSV row cut off mid-way has fewer fields than its header.
    const char *csv = "index, uuid, utilization.gpu [%], memory.used [MiB]\n0, GPU-a, 5\n";
    auto truncatedCsv = parseNvidiaSmiCsv(csv);
    ASSERT_FALSE(truncatedCsv.ok());
    EXPECT_NE(truncatedCsv.error().message.find("line 2: 3 fields"), std::string::npos)
        << truncatedCsv.error().message;
}

TEST(HostileInput, NegativeAndNanValuesStayAbsentOrAreRejected)
{
    const char *csv =
        "index, uuid, utilization.gpu [%], memory.used [MiB], temperature.gpu, power.draw [W]\n"
        "0, GPU-a, NaN, -5, -40, inf\n";
    auto cards = parseNvidiaSmiCsv(csv);
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    const CardSample &s = cards->front().sample;
    EXPECT_FALSE(s.utilizationPercent.has_value());
    EXPECT_FALSE(s.memoryUsedBytes.has_value());  // negative memory is no memory
    EXPECT_FALSE(s.powerWatts.has_value());
    EXPECT_EQ(s.temperatureCelsius, -40.0);  // a real (if alarming) reading stays

    auto ethtool = parseEthtoolStats("rx_bytes: -12\n");
    ASSERT_FALSE(ethtool.ok());
    EXPECT_NE(ethtool.error().message.find("line 1"), std::string::npos);
}

TEST(HostileInput, AMillionCardsIsAnErrorNotAnAllocation)
{
    std::string csv = "index, uuid, utilization.gpu [%]\n";
    csv.reserve(20 * 1'000'000);
    for (int i = 0; i < 1'000'000; ++i)
        csv += std::to_string(i) + ", G, 1\n";
    auto cards = parseNvidiaSmiCsv(csv);
    ASSERT_FALSE(cards.ok());
    EXPECT_NE(cards.error().message.find("at most"), std::string::npos) << cards.error().message;

    std::string hy = "DCU Temp\n";
    for (int i = 0; i < 1'000'000; ++i)
        hy += std::to_string(i) + " 40C\n";
    auto dcus = parseHySmi(hy);
    ASSERT_FALSE(dcus.ok());
}

TEST(HostileInput, WrongToolOutputSaysWhatWasExpected)
{
    auto npu = parseNpuSmi("hello world\n");
    ASSERT_FALSE(npu.ok());
    EXPECT_NE(npu.error().message.find("npu-smi"), std::string::npos);
    auto xml = parseNvidiaSmiXml("<html><body/></html>");
    ASSERT_FALSE(xml.ok());
    EXPECT_NE(xml.error().message.find("nvidia_smi_log"), std::string::npos);
    auto lldp = parseLldpctlJson("[1,2,3]");
    ASSERT_FALSE(lldp.ok());
}

TEST(HostileInput, DeeplyNestedJsonAndXmlAreRefusedBeforeTheyAreBuilt)
{
    // A million brackets used to overflow the stack copying the tree.
    std::string deepJson = "{\"lldp\": {\"interface\": ";
    for (int i = 0; i < 1'000'000; ++i)
        deepJson += "[\n";
    deepJson += std::string(1'000'000, ']') + "}}";
    auto lldp = parseLldpctlJson(deepJson);
    ASSERT_FALSE(lldp.ok());
    EXPECT_NE(lldp.error().message.find("nested more than 64 deep"), std::string::npos);
    // Brackets inside strings are text, not nesting.
    std::string quoted = R"({"lldp": {"interface": [{"eth0": {"chassis": {"x": {"id": )"
                         R"({"type": "mac", "value": ")" +
                         std::string(500, '[') + R"("}}}, "port": {"id": {"value": "p1"}}}}]}})";
    EXPECT_TRUE(parseLldpctlJson(quoted).ok()) << parseLldpctlJson(quoted).error().message;

    std::string deepXml = "<nvidia_smi_log>";
    for (int i = 0; i < 100; ++i)
        deepXml += "<a>\n";
    auto xml = parseNvidiaSmiXml(deepXml);
    ASSERT_FALSE(xml.ok());
    EXPECT_NE(xml.error().message.find("nested more than 64 deep"), std::string::npos)
        << xml.error().message;
    // 16 MB of unclosed elements used to take hundreds of MB to build.
    std::string unclosed;
    while (unclosed.size() < 16'000'000)
        unclosed += "<a></a><b/>\n";
    auto big = parseNvidiaSmiXml(unclosed);
    ASSERT_FALSE(big.ok());
    EXPECT_NE(big.error().message.find("more than the 2097152"), std::string::npos)
        << big.error().message;
}

TEST(HostileInput, EccCountersSaturateInsteadOfWrapping)
{
    const std::string xml = R"(<?xml version="1.0" ?>
<nvidia_smi_log><driver_version>550.54</driver_version>
<gpu id="00000000:07:00.0"><product_name>NVIDIA A100-SXM4-80GB</product_name>
<uuid>GPU-1</uuid><minor_number>0</minor_number>
<ecc_errors><volatile>
<sram_uncorrectable>18000000000000000000</sram_uncorrectable>
<dram_uncorrectable>18000000000000000000</dram_uncorrectable>
</volatile></ecc_errors></gpu></nvidia_smi_log>
)";
    auto cards = parseNvidiaSmiXml(xml);
    ASSERT_TRUE(cards.ok()) << cards.error().message;
    ASSERT_EQ(cards->size(), 1u);
    EXPECT_EQ((*cards)[0].sample.eccUncorrectedVolatile, UINT64_MAX) << "wrapped to a small number";
}

TEST(HostileInput, AHeaderThatNamesAColumnTwiceIsRefused)
{
    // Found by the mutation fuzzer: the row matched the de-duplicated column count and
    // was read past its end.
    auto cards = parseHySmi("DCU Temp Temp DCU%\n0 40.0C 12%\n");
    ASSERT_FALSE(cards.ok());
    EXPECT_NE(cards.error().message.find("line 1: the header names column 'Temp' twice"),
              std::string::npos)
        << cards.error().message;
}

TEST(HostileInput, AJsonNumberPastDoubleIsAnErrorNotAnException)
{
    // Found by the mutation fuzzer: nlohmann throws out_of_range, not parse_error.
    auto lldp = parseLldpctlJson(R"({"lldp": {"interface": [{"eth0": {"age": 1e3000}}]}})");
    ASSERT_FALSE(lldp.ok());
    EXPECT_NE(lldp.error().message.find("number overflow"), std::string::npos)
        << lldp.error().message;
}

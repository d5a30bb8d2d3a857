// The query API's answers as servers write them, and as they arrive broken.
#include <gtest/gtest.h>

#include <cmath>

#include "promsource/promclient.h"

namespace meridian {
namespace {

TEST(PromAnswer, VectorKeepsLabelsTimesAndValues)
{
    const auto parsed =
        parsePromVector(R"({"status":"success","data":{"resultType":"vector","result":[)"
                        R"({"metric":{"Hostname":"n1","gpu":"3"},"value":[1796264519.5,"68.25"]},)"
                        R"({"metric":{},"value":[1796264519,"NaN"]}]}})");
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_EQ(parsed->size(), 2u);
    const PromSample &first = parsed->at(0);
    ASSERT_NE(first.label("gpu"), nullptr);
    EXPECT_EQ(*first.label("gpu"), "3");
    EXPECT_EQ(*first.label("Hostname"), "n1");
    EXPECT_EQ(first.label("UUID"), nullptr);
    EXPECT_DOUBLE_EQ(first.timeSeconds, 1796264519.5);
    EXPECT_DOUBLE_EQ(first.value, 68.25);
    EXPECT_TRUE(std::isnan(parsed->at(1).value));
}

TEST(PromAnswer, MatrixKeepsEveryPointInOrder)
{
    const auto parsed =
        parsePromMatrix(R"({"status":"success","data":{"resultType":"matrix","result":[)"
                        R"({"metric":{"gpu":"0"},"values":[[10,"1"],[11,"2"],[12,"3"]]}]}})");
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_EQ(parsed->size(), 1u);
    ASSERT_EQ(parsed->at(0).points.size(), 3u);
    EXPECT_DOUBLE_EQ(parsed->at(0).points[2].first, 12);
    EXPECT_DOUBLE_EQ(parsed->at(0).points[2].second, 3);
}

TEST(PromAnswer, ServerErrorsGarbageAndTruncationAreErrors)
{
    const auto refused = parsePromVector(
        R"({"status":"error","errorType":"bad_data","error":"parse error at char 4"})");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("bad_data: parse error at char 4"), std::string::npos);

    EXPECT_FALSE(parsePromVector("<html>404</html>"));
    EXPECT_FALSE(
        parsePromVector(R"({"status":"success","data":{"resultType":"vector","result":[)"));
    EXPECT_FALSE(
        parsePromVector(R"({"status":"success","data":{"resultType":"matrix","result":[]}})"));
    // A sample without its value is not quietly read as 0.
    EXPECT_FALSE(parsePromVector(
        R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{}}]}})"));
}

}  // namespace
}  // namespace meridian

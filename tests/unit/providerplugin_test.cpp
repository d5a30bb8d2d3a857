// The pool's exec provider (pool/providerplugin.h), run as a real process the way the pool
// runs one: a shell script given the verb, the request on stdin, its answer on stdout. A
// provider that answers, fails, hangs, lies or floods: only a JSON object is an answer; every
// other outcome is an error naming the provider, the verb and what the program said or did,
// within the provider's timeout.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "pool/providerplugin.h"
#include "testsupport.h"

using namespace meridian;

namespace {

ProviderConfig script(const std::string &body, int timeoutSeconds = 10)
{
    ProviderConfig provider;
    provider.name = "spare";
    // `sh -c BODY provider VERB`: the verb is $1, as a provider's command gets it.
    provider.command = {"sh", "-c", body, "provider"};
    provider.timeoutSeconds = timeoutSeconds;
    return provider;
}

const nlohmann::json kInput = {{"lease_id", "lease-7"}, {"offer_id", "spare-a100"}, {"nodes", 1}};

}  // namespace

TEST(ProviderPlugin, AnAnswerIsTheObjectItPrintsForTheVerbAndInputItWasGiven)
{
    test::TempDir dir;
    const std::string seen = dir.file("stdin.json");
    const auto answer =
        callProvider(script("cat > " + seen +
                            "; printf '{\"verb\": \"%s\", \"nodes\": [{\"node_id\": \"spare-1\", "
                            "\"agent_address\": \"10.0.0.7:50051\"}]}' \"$1\""),
                     "lease", kInput);
    ASSERT_TRUE(answer.ok()) << answer.error().message;
    EXPECT_EQ(answer.value()["verb"], "lease");
    EXPECT_EQ(answer.value()["nodes"][0]["node_id"], "spare-1");
    EXPECT_EQ(nlohmann::json::parse(test::readFile(seen)), kInput) << "the request, on stdin";
}

TEST(ProviderPlugin, AFailureIsSaidWithTheProvidersOwnWords)
{
    const auto answer =
        callProvider(script("echo 'quota exceeded in cn-east' >&2; exit 3"), "lease", kInput);
    ASSERT_FALSE(answer.ok());
    EXPECT_EQ(answer.error().message,
              "provider spare: lease: sh: exit status 3: quota exceeded "
              "in cn-east");
}

TEST(ProviderPlugin, OneThatHangsIsKilledAtItsTimeout)
{
    const auto started = std::chrono::steady_clock::now();
    const auto answer = callProvider(script("sleep 30", 1), "release", kInput);
    const auto took = std::chrono::steady_clock::now() - started;
    ASSERT_FALSE(answer.ok());
    EXPECT_EQ(answer.error().message,
              "provider spare: release: sh: no answer within 1000 ms; "
              "killed it");
    EXPECT_LT(took, std::chrono::seconds(5));
}

TEST(ProviderPlugin, WhatIsNotAJsonObjectIsNoAnswer)
{
    for (const auto &[printed, said] : std::vector<std::pair<std::string, std::string>>{
             {"echo 'Welcome to the cloud CLI v2'", "'Welcome to the cloud CLI v2\n'"},
             {"echo '[\"spare-1\"]'", "'[\"spare-1\"]\n'"},
             {"echo '{\"nodes\": [' ", "'{\"nodes\": [\n'"},
             {"true", "''"}}) {
        const auto answer = callProvider(script(printed), "list", kInput);
        ASSERT_FALSE(answer.ok()) << printed;
        EXPECT_EQ(answer.error().message,
                  "provider spare: list: answered with no JSON object: " + said);
    }
}

TEST(ProviderPlugin, OneThatFloodsItsOutputIsCutOffAndKilled)
{
    const auto answer = callProvider(script("yes '{}'"), "list", kInput);
    ASSERT_FALSE(answer.ok());
    EXPECT_NE(answer.error().message.find("printed more than 4194304 bytes; killed it"),
              std::string::npos)
        << answer.error().message;
}

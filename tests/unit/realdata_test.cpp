// The real captures and traces in tests/data/real are the originals: every file a
// SOURCES.md lists is there, and each trace kept compressed decompresses to the bytes
// whose digest tests/data/README.md records.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "testsupport.h"

using namespace meridian;

namespace {

std::string sha256Hex(const std::string &bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
    std::ostringstream hex;
    for (unsigned int i = 0; i < length; ++i)
        hex << "0123456789abcdef"[digest[i] >> 4] << "0123456789abcdef"[digest[i] & 15];
    return hex.str();
}

}  // namespace

TEST(RealData, CompressedTracesAreTheOriginals)
{
    const std::string readme =
        test::readFile(std::string(MERIDIAN_SOURCE_DIR) + "/tests/data/README.md");
    const std::regex row(R"(\| `real/([^`]+\.gz)` \| `([0-9a-f]{64})` \|)");
    int checked = 0;
    for (auto it = std::sregex_iterator(readme.begin(), readme.end(), row);
         it != std::sregex_iterator(); ++it) {
        const std::string path = test::realData((*it)[1]);
        EXPECT_EQ(sha256Hex(test::readFile(path)), (*it)[2].str()) << path;
        ++checked;
    }
    EXPECT_EQ(checked, 4) << "tests/data/README.md lists the compressed traces and their digests";
}

TEST(RealData, EveryFileASourcesListNamesIsHere)
{
    const std::filesystem::path root =
        std::filesystem::path(test::realData("README.md")).parent_path();
    // A table row whose first cell is a file name, with or without backticks (a note may
    // follow it: "(**derived**)").
    const std::regex listed(R"(^\| `?([A-Za-z0-9][A-Za-z0-9_.\-]*\.[a-z]+)`? )");
    int found = 0;
    for (const char *folder : {"telemetry", "fabric", "traces", "captured"}) {
        std::istringstream sources(test::readFile((root / folder / "SOURCES.md").string()));
        std::string line;
        while (std::getline(sources, line)) {
            std::smatch match;
            if (!std::regex_search(line, match, listed))
                continue;
            const auto file = root / folder / match[1].str();
            EXPECT_TRUE(std::filesystem::exists(file) ||
                        std::filesystem::exists(file.string() + ".gz"))
                << file << " is listed in its SOURCES.md but is not in the repository";
            ++found;
        }
    }
    EXPECT_GE(found, 33);
}

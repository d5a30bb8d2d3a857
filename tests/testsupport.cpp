#include "testsupport.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace meridian::test {

std::string realData(const std::string &relative)
{
    return std::string(MERIDIAN_REAL_DATA) + "/" + relative;
}

bool haveRealData()
{
    return std::filesystem::is_directory(MERIDIAN_REAL_DATA);
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

TempDir::TempDir()
{
    std::string pattern =
        (std::filesystem::temp_directory_path() / "meridian-test-XXXXXX").string();
    m_path = mkdtemp(pattern.data());
}

TempDir::~TempDir()
{
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

}  // namespace meridian::test

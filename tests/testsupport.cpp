#include "testsupport.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace meridian::test {

std::string realData(const std::string &relative)
{
    const std::string path = std::string(MERIDIAN_REAL_DATA) + "/" + relative;
    if (!std::filesystem::is_regular_file(path))
        ADD_FAILURE() << path << " is missing: the real captures belong in tests/data/real";
    return path;
}

std::string readFile(const std::string &path)
{
    // zlib reads a file without a gzip header as it is.
    gzFile file = gzopen(path.c_str(), "rb");
    std::string text;
    if (!file)
        return text;
    char buffer[65536];
    int n = 0;
    while ((n = gzread(file, buffer, sizeof buffer)) > 0)
        text.append(buffer, static_cast<size_t>(n));
    gzclose(file);
    return text;
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

std::string TempDir::write(const std::string &name, const std::string &text) const
{
    const std::string path = file(name);
    std::ofstream(path) << text;
    return path;
}

}  // namespace meridian::test

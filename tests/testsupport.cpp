#include "testsupport.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <csignal>
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

FilesCannotGrow::FilesCannotGrow(const std::vector<std::string> &files)
{
    ::getrlimit(RLIMIT_FSIZE, &m_before);
    m_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlim_t largest = 0;
    for (const std::string &file : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        if (!ec)
            largest = std::max(largest, static_cast<rlim_t>(size));
    }
    rlimit full = m_before;
    full.rlim_cur = largest;
    ::setrlimit(RLIMIT_FSIZE, &full);
}

FilesCannotGrow::~FilesCannotGrow()
{
    ::setrlimit(RLIMIT_FSIZE, &m_before);
    std::signal(SIGXFSZ, m_handler);
}

}  // namespace meridian::test

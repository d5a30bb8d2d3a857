// Helpers shared by the tests: where the real captures are, temporary directories.
#pragma once

#include <string>

namespace meridian::test {

// Path of a file under ../shared/data/real; a test that needs it fails when it is absent.
std::string realData(const std::string &relative);
bool haveRealData();
std::string readFile(const std::string &path);

// A fresh directory under /tmp, removed by the destructor.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::string &path() const { return m_path; }
    std::string file(const std::string &name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

}  // namespace meridian::test

#define MERIDIAN_REQUIRE_REAL_DATA()                                               \
    do {                                                                           \
        if (!::meridian::test::haveRealData())                                     \
            FAIL() << "../shared/data/real is absent; real-capture tests need it"; \
    } while (0)

// Helpers shared by the tests: where the real captures are, temporary directories.
#pragma once

#include <string>

namespace meridian::test {

// Path of a file under tests/data/real (the real captures and traces, kept in the
// repository); a test that asks for one that is absent fails, it never skips.
std::string realData(const std::string &relative);
// The whole file; a gzip-compressed one (FILE.gz) as its original bytes.
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

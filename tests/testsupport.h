// Helpers shared by the tests: where the real captures are, temporary directories.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::test {

// The instants the tests' histories and plans are written around, and the spans they step.
constexpr int64_t kJuly1 = 1'782'864'000;    // 2026-07-01T00:00:00Z, in seconds
constexpr int64_t kHour = 3600;              // in seconds
constexpr int64_t kDay = 86400;              // in seconds
constexpr int64_t kNow = 1'800'000'000'000;  // 2027-01-15T08:00:00Z, in milliseconds

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
    // Writes `text` to the file `name` inside, returning its path.
    std::string write(const std::string &name, const std::string &text) const;

private:
    std::string m_path;
};

// A full disk for this process while it lives: none of `files` may grow past the size of
// the largest of them now (RLIMIT_FSIZE, with SIGXFSZ ignored), so a write that would
// grow one fails at once with EFBIG, as it would on a full partition, root or not.
class FilesCannotGrow {
public:
    explicit FilesCannotGrow(const std::vector<std::string> &files);
    ~FilesCannotGrow();
    FilesCannotGrow(const FilesCannotGrow &) = delete;
    FilesCannotGrow &operator=(const FilesCannotGrow &) = delete;

private:
    rlimit m_before{};
    void (*m_handler)(int) = nullptr;
};

}  // namespace meridian::test

// Reading a text file a line at a time, plain or gzip-compressed (told from its first
// bytes, not its name), with the same bounds as readTextFile: only a regular file is
// opened (openRegularFile), so /dev/zero or a FIFO is refused at once instead of hanging or
// growing; a line is never held past maxLineBytes. For traces and other files too big to hold
// whole, so what a file may unfold to is bounded too: at most kMaxBytes of text and
// kMaxLines lines (blank ones count), whatever its compressed size, so a gzip bomb is
// refused in seconds; and bytes after the last gzip member are refused by name rather
// than read as a shorter file.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

class LineReader {
public:
    static constexpr size_t kDefaultMaxLineBytes = 1024 * 1024;
    // Far past any real trace (the largest kept here unfolds to 5 MB and 100,000 lines).
    static constexpr uint64_t kMaxBytes = 4ULL << 30;
    static constexpr uint64_t kMaxLines = 50'000'000;

    static Result<std::unique_ptr<LineReader>> open(const std::string &path,
                                                    size_t maxLineBytes = kDefaultMaxLineBytes);
    ~LineReader();
    LineReader(const LineReader &) = delete;
    LineReader &operator=(const LineReader &) = delete;

    // The next line without its end of line; false at the end of the file or on an error
    // (error() then names the file and the line).
    bool next(std::string &line);
    const std::optional<Error> &error() const { return m_error; }
    // The number of the line next() returned last, from 1.
    size_t lineNumber() const { return m_lineNumber; }

    // Lowered for tests of the bounds.
    void setBounds(uint64_t maxBytes, uint64_t maxLines)
    {
        m_maxBytes = maxBytes;
        m_maxLines = maxLines;
    }

private:
    struct Inflater;
    LineReader(std::string path, int fd, size_t maxLineBytes);
    bool fail(const std::string &what);
    // More text into m_text; false at the end (or on an error, said by fail()).
    bool fill();
    bool inflateSome();
    // Raw bytes from the file into m_raw; false at its end.
    bool readRaw();

    std::string m_path;
    int m_fd;
    size_t m_maxLineBytes;
    uint64_t m_maxBytes = kMaxBytes;
    uint64_t m_maxLines = kMaxLines;
    size_t m_lineNumber = 0;
    std::optional<Error> m_error;
    bool m_done = false;
    bool m_rawEnded = false;
    std::vector<unsigned char> m_raw;  // read from the file, not yet decoded
    size_t m_rawAt = 0;
    uint64_t m_rawOffset = 0;              // of m_raw's start in the file
    std::unique_ptr<Inflater> m_inflater;  // none: a plain file
    bool m_formatKnown = false;
    std::string m_text;  // decoded, not yet returned
    size_t m_textAt = 0;
    uint64_t m_textBytes = 0;  // decoded so far
};

}  // namespace meridian

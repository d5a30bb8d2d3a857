// Reading a text file a line at a time, plain or gzip-compressed (told from its first
// bytes, not its name), with the same bounds as readTextFile: only a regular file is
// opened (openRegularFile), so /dev/zero or a FIFO is refused at once instead of hanging or
// growing; a line is never held past maxLineBytes. For traces and other files too big to hold
// whole.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/result.h"

namespace meridian {

class LineReader {
public:
    static constexpr size_t kDefaultMaxLineBytes = 1024 * 1024;

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

private:
    LineReader(std::string path, void *file, size_t maxLineBytes);
    bool fail(const std::string &what);

    std::string m_path;
    void *m_file;  // zlib's gzFile, kept out of this header
    size_t m_maxLineBytes;
    size_t m_lineNumber = 0;
    std::optional<Error> m_error;
    bool m_done = false;
};

}  // namespace meridian

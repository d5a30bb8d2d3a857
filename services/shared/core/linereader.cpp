#include "linereader.h"

#include "textfile.h"

#include <fmt/format.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>

namespace meridian {

Result<std::unique_ptr<LineReader>> LineReader::open(const std::string &path, size_t maxLineBytes)
{
    auto opened = openRegularFile(path);
    if (!opened)
        return opened.error();
    const int fd = opened->fd;
    // zlib reads a file without a gzip header as it is, so one path serves both.
    gzFile file = gzdopen(fd, "rb");
    if (!file) {
        ::close(fd);
        return Error{fmt::format("{}: cannot read", path)};
    }
    return std::unique_ptr<LineReader>(new LineReader(path, file, maxLineBytes));
}

LineReader::LineReader(std::string path, void *file, size_t maxLineBytes)
    : m_path(std::move(path)), m_file(file), m_maxLineBytes(maxLineBytes)
{}

LineReader::~LineReader()
{
    gzclose(static_cast<gzFile>(m_file));
}

bool LineReader::fail(const std::string &what)
{
    m_error = Error{fmt::format("{}:{}: {}", m_path, m_lineNumber, what)};
    m_done = true;
    return false;
}

bool LineReader::next(std::string &line)
{
    if (m_done)
        return false;
    line.clear();
    ++m_lineNumber;
    auto *file = static_cast<gzFile>(m_file);
    char buffer[8192];
    for (;;) {
        if (!gzgets(file, buffer, sizeof buffer)) {
            int code = Z_OK;
            const char *message = gzerror(file, &code);
            if (code != Z_OK && code != Z_STREAM_END)
                return fail(code == Z_BUF_ERROR ? "the compressed file is cut short"
                                                : fmt::format("cannot read: {}", message));
            m_done = true;
            return !line.empty();  // a last line with no end of line still counts
        }
        const size_t length = std::strlen(buffer);
        const bool ended = length > 0 && buffer[length - 1] == '\n';
        line.append(buffer, ended ? length - 1 : length);
        if (line.size() > m_maxLineBytes)
            return fail(fmt::format("a line longer than {} bytes", m_maxLineBytes));
        if (ended)
            return true;
    }
}

}  // namespace meridian

#include "linereader.h"

#include "textfile.h"

#include <fmt/format.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace meridian {

namespace {

constexpr size_t kChunkBytes = 64 * 1024;

bool gzipMagic(const unsigned char *bytes, size_t size)
{
    return size >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

}  // namespace

// zlib's inflate over one gzip member after another.
struct LineReader::Inflater {
    z_stream stream{};
    bool ok = false;
    Inflater() { ok = inflateInit2(&stream, 15 + 16) == Z_OK; }  // +16: gzip only
    ~Inflater() { inflateEnd(&stream); }
};

Result<std::unique_ptr<LineReader>> LineReader::open(const std::string &path, size_t maxLineBytes)
{
    auto opened = openRegularFile(path);
    if (!opened)
        return opened.error();
    return std::unique_ptr<LineReader>(new LineReader(path, opened->fd, maxLineBytes));
}

LineReader::LineReader(std::string path, int fd, size_t maxLineBytes)
    : m_path(std::move(path)), m_fd(fd), m_maxLineBytes(maxLineBytes)
{}

LineReader::~LineReader()
{
    ::close(m_fd);
}

bool LineReader::fail(const std::string &what)
{
    m_error = Error{fmt::format("{}:{}: {}", m_path, m_lineNumber, what)};
    m_done = true;
    return false;
}

bool LineReader::readRaw()
{
    if (m_rawEnded)
        return false;
    m_rawOffset += m_rawAt;
    m_raw.erase(m_raw.begin(), m_raw.begin() + static_cast<std::ptrdiff_t>(m_rawAt));
    m_rawAt = 0;
    const size_t had = m_raw.size();
    m_raw.resize(had + kChunkBytes);
    ssize_t got = 0;
    do {
        got = ::read(m_fd, m_raw.data() + had, kChunkBytes);
    } while (got < 0 && errno == EINTR);
    m_raw.resize(had + static_cast<size_t>(std::max<ssize_t>(got, 0)));
    if (got < 0)
        return fail(fmt::format("cannot read: {}", std::strerror(errno)));
    if (got == 0)
        m_rawEnded = true;
    return got > 0;
}

bool LineReader::fill()
{
    if (!m_formatKnown) {
        while (m_raw.size() < 2 && readRaw()) {
        }
        if (m_error)
            return false;
        m_formatKnown = true;
        if (gzipMagic(m_raw.data(), m_raw.size())) {
            m_inflater = std::make_unique<Inflater>();
            if (!m_inflater->ok)
                return fail("cannot start decompressing");
        }
    }
    m_text.erase(0, m_textAt);
    m_textAt = 0;
    const size_t before = m_text.size();
    if (!m_inflater) {
        if (m_rawAt == m_raw.size() && !readRaw())
            return false;
        m_text.append(reinterpret_cast<const char *>(m_raw.data()) + m_rawAt,
                      m_raw.size() - m_rawAt);
        m_rawAt = m_raw.size();
    } else if (!inflateSome()) {
        return false;
    }
    m_textBytes += m_text.size() - before;
    if (m_textBytes > m_maxBytes)
        return fail(
            fmt::format("unfolds to more than {} MiB; at most that is read", m_maxBytes >> 20));
    return m_text.size() > before;
}

bool LineReader::inflateSome()
{
    z_stream &z = m_inflater->stream;
    const size_t before = m_text.size();
    char out[kChunkBytes];
    while (m_text.size() == before) {
        if (m_rawAt == m_raw.size() && !readRaw())
            return m_error ? false : fail("the compressed file is cut short");
        z.next_in = m_raw.data() + m_rawAt;
        z.avail_in = static_cast<uInt>(m_raw.size() - m_rawAt);
        z.next_out = reinterpret_cast<Bytef *>(out);
        z.avail_out = sizeof out;
        const uInt offered = z.avail_in;
        const int code = inflate(&z, Z_NO_FLUSH);
        m_rawAt = m_raw.size() - z.avail_in;
        m_text.append(out, sizeof out - z.avail_out);
        // With input and room both given, zlib always moves; if it did not, asking again
        // would spin for ever on whatever a hostile file holds.
        if (code == Z_BUF_ERROR && z.avail_in == offered && z.avail_out == sizeof out)
            return fail("cannot decompress: no progress");
        if (code == Z_STREAM_END) {
            // Another member may follow; anything else after one is not ours to skip.
            while (m_raw.size() - m_rawAt < 2 && readRaw()) {
            }
            if (m_error)
                return false;
            if (m_rawAt == m_raw.size()) {
                m_inflater.reset();  // ended cleanly: nothing more to read
                return m_text.size() > before;
            }
            if (!gzipMagic(m_raw.data() + m_rawAt, m_raw.size() - m_rawAt))
                return fail(
                    fmt::format("data after the last gzip member, at byte {}: not a "
                                "gzip file as gzip writes one",
                                m_rawOffset + m_rawAt));
            inflateReset(&z);
        } else if (code != Z_OK && code != Z_BUF_ERROR) {
            return fail(fmt::format("cannot decompress: {}", z.msg ? z.msg : "bad data"));
        }
    }
    return true;
}

bool LineReader::next(std::string &line)
{
    if (m_done)
        return false;
    line.clear();
    ++m_lineNumber;
    if (m_lineNumber > m_maxLines)
        return fail(fmt::format("more than {} lines; at most that many are read", m_maxLines));
    for (;;) {
        const size_t end = m_text.find('\n', m_textAt);
        if (end != std::string::npos) {
            line.append(m_text, m_textAt, end - m_textAt);
            m_textAt = end + 1;
            if (line.size() > m_maxLineBytes)
                return fail(fmt::format("a line longer than {} bytes", m_maxLineBytes));
            return true;
        }
        line.append(m_text, m_textAt, std::string::npos);
        m_textAt = m_text.size();
        if (line.size() > m_maxLineBytes)
            return fail(fmt::format("a line longer than {} bytes", m_maxLineBytes));
        if (!fill()) {
            if (m_error)
                return false;
            m_done = true;
            return !line.empty();  // a last line with no end of line still counts
        }
    }
}

}  // namespace meridian

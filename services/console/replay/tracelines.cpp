#include "tracelines.h"

namespace meridian {

Result<std::shared_ptr<const TraceLines>> TraceLines::read(const std::string &path,
                                                           uint64_t holdAtMost)
{
    auto in = LineReader::open(path);
    if (!in)
        return in.error();
    std::shared_ptr<TraceLines> lines(new TraceLines(path));
    lines->m_held = true;
    holdAtMost = std::min(holdAtMost, kHeldBytes);
    std::string line;
    while ((*in)->next(line)) {
        if (!lines->m_held)
            continue;  // read on to the end all the same: a broken end is refused now
        // The index of line starts counts too.
        const uint64_t heldBytes =
            lines->m_text.size() + (lines->m_starts.size() + 1) * sizeof(uint32_t);
        if (heldBytes + line.size() + 1 > holdAtMost) {
            lines->m_held = false;
            std::string().swap(lines->m_text);
            std::deque<uint32_t>().swap(lines->m_starts);
            continue;
        }
        lines->m_starts.push_back(static_cast<uint32_t>(lines->m_text.size()));
        lines->m_text.append(line).push_back('\n');
    }
    if ((*in)->error())
        return *(*in)->error();
    return std::shared_ptr<const TraceLines>(std::move(lines));
}

TraceLines::Cursor TraceLines::begin(std::shared_ptr<const TraceLines> lines)
{
    Cursor cursor;
    if (!lines->m_held) {
        auto stream = LineReader::open(lines->m_path);
        if (stream)
            cursor.m_stream = std::move(stream).value();
        else
            cursor.m_openError = stream.error();
    }
    cursor.m_lines = std::move(lines);
    return cursor;
}

bool TraceLines::Cursor::next(std::string &line)
{
    if (m_stream)
        return m_stream->next(line);
    if (m_openError || m_next >= m_lines->m_starts.size())
        return false;
    const size_t start = m_lines->m_starts[m_next];
    const size_t end = m_next + 1 < m_lines->m_starts.size() ? m_lines->m_starts[m_next + 1]
                                                             : m_lines->m_text.size();
    line.assign(m_lines->m_text, start, end - start - 1);  // without its '\n'
    ++m_next;
    return true;
}

std::optional<Error> TraceLines::Cursor::error() const
{
    if (m_openError)
        return m_openError;
    return m_stream ? m_stream->error() : std::nullopt;
}

}  // namespace meridian

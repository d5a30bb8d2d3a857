// A trace file's lines as replays read them, pass after pass. The file is read through
// once, checked to its end (LineReader's bounds, trailing data after the gzip), and
// held in memory when its text and its lines' index come to at most kHeldBytes, as
// every real trace does by far: a search that replays it for hundreds of candidates then
// reads and inflates it once per run. A larger one is streamed from the file on each
// pass, bounds checked again.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/linereader.h"
#include "core/result.h"

namespace meridian {

class TraceLines {
public:
    static constexpr uint64_t kHeldBytes = 256ULL << 20;
    static_assert(kHeldBytes <= UINT32_MAX, "a held line's start is 32 bits");

    // `holdAtMost` is lowered by tests of the streamed path.
    static Result<std::shared_ptr<const TraceLines>> read(const std::string &path,
                                                          uint64_t holdAtMost = kHeldBytes);

    const std::string &path() const { return m_path; }
    bool held() const { return m_held; }

    // One pass over the lines, blank ones included, from the first.
    class Cursor {
    public:
        bool next(std::string &line);
        // The number of the line next() returned last, from 1.
        size_t lineNumber() const { return m_stream ? m_stream->lineNumber() : m_next; }
        std::optional<Error> error() const;

    private:
        friend class TraceLines;
        std::shared_ptr<const TraceLines> m_lines;
        size_t m_next = 0;  // held: the index of the next line
        std::unique_ptr<LineReader> m_stream;
        std::optional<Error> m_openError;
    };
    static Cursor begin(std::shared_ptr<const TraceLines> lines);

private:
    explicit TraceLines(std::string path) : m_path(std::move(path)) {}

    std::string m_path;
    bool m_held = false;
    std::string m_text;  // every line, each ended by '\n'
    // Where each line begins in m_text, which is held only under kHeldBytes (so 32 bits
    // reach), in blocks that are never copied as it grows: a file of blank lines is four
    // bytes of index for each byte of text.
    std::deque<uint32_t> m_starts;
};

}  // namespace meridian

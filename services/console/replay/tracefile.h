// A request trace file read as it is replayed, in its own format: Azure LLM inference
// 2023 (CSV: time, prompt and output tokens), Mooncake (JSON lines: ms from start, input
// and output length) and ServeGen (aggregate request rate per 10-minute window, turned
// into Poisson arrivals with prompt and output lengths drawn from the Azure conversation
// mix, seeded, so every pass is the same). A broken row stops the pass with the file and
// line: times out of order or outside the years 2000–2100, zero or absurd token counts,
// traces longer than a year or larger than a replay can finish. A trace may be
// gzip-compressed (FILE.csv.gz), as the big ones in tests/data/real are. The file is
// read once per run (TraceLines); every pass replays what was read.
#pragma once

#include <memory>
#include <random>
#include <string>

#include "requestsource.h"
#include "tracelines.h"

namespace meridian {

class TraceFileSource final : public RequestSource {
public:
    // Opens `path` and tells its format from the first line. `maxSeconds` > 0 ends the
    // trace there.
    static Result<std::unique_ptr<TraceFileSource>> open(const std::string &path,
                                                         double maxSeconds = 0, uint64_t seed = 1);
    // The same over lines already read: replays of one file share one reading.
    static Result<std::unique_ptr<TraceFileSource>> open(std::shared_ptr<const TraceLines> lines,
                                                         double maxSeconds, uint64_t seed);

    bool next(TraceRequest &out) override;
    void rewind() override;
    std::optional<Error> error() const override { return m_error; }
    // A ServeGen trace scales by its rate (the same Poisson load, drawn at the new rate);
    // the others by repeating or dropping requests.
    std::unique_ptr<RequestSource> scaled(double factor, uint64_t seed) override;

    // At most this many requests (a billion unless lowered): past it, the pass stops with
    // an error rather than running for hours. The pass starts again, checked against it.
    void setRequestLimit(uint64_t limit)
    {
        m_requestLimit = limit;
        rewind();
    }

    // The file's name without its folder or a .gz ending.
    std::string name() const;

private:
    enum class Format { Azure, Mooncake, ServeGen };
    TraceFileSource(std::shared_ptr<const TraceLines> lines, Format format, double maxSeconds,
                    uint64_t seed, double rateFactor);

    bool fail(const std::string &what);
    bool tooManyRequests();
    void refuseIfTooLarge();
    bool nextAzure(TraceRequest &out);
    bool nextMooncake(TraceRequest &out);
    bool nextServeGen(TraceRequest &out);
    bool accept(double arrivalS, uint64_t input, uint64_t output, TraceRequest &out);
    bool readLine(std::string &line);

    std::shared_ptr<const TraceLines> m_lines;  // shared with the scaled copies
    Format m_format;
    double m_maxSeconds;
    uint64_t m_seed;
    double m_rateFactor;
    TraceLines::Cursor m_in;
    size_t m_line = 0;
    uint64_t m_count = 0;
    uint64_t m_requestLimit;
    double m_previousS = 0;
    std::optional<double> m_azureStartS;
    // The ServeGen window being drawn.
    std::mt19937_64 m_rng;
    double m_windowEndS = 0;
    double m_rate = 0;
    double m_nextS = 0;
    double m_nextWindowS = 0;
    std::optional<Error> m_error;
    bool m_done = false;
};

}  // namespace meridian

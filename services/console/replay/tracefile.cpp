#include "tracefile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/textutil.h"

namespace meridian {

namespace {

// What a trace may hold, so a typo or a hostile file is refused instead of turning into
// a replay that never ends.
constexpr double kMaxTraceSeconds = 366 * 24 * 3600.0;
constexpr uint64_t kDefaultRequestLimit = 1'000'000'000;
constexpr uint64_t kMaxTokens = 10'000'000;
// Azure traces are stamped with wall-clock times; anything outside this is a broken row.
constexpr int64_t kEarliestUnixS = 946'684'800;  // 2000-01-01
constexpr int64_t kLatestUnixS = 4'102'444'800;  // 2100-01-01
constexpr double kServeGenWindowS = 600;

// "2023-11-16 18:15:46.6805900" in seconds, with the fraction.
std::optional<double> azureTime(std::string_view text)
{
    const size_t dot = text.find('.');
    const auto whole = parseUtcTime(text.substr(0, dot));
    if (!whole)
        return std::nullopt;
    double fraction = 0;
    if (dot != std::string_view::npos) {
        const std::string_view digits = text.substr(dot + 1);
        if (digits.empty() ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        fraction = parseNumber(std::string("0.") + std::string(digits)).value_or(0);
    }
    return static_cast<double>(*whole) + fraction;
}

// A ServeGen row's first two fields: the window's start and its rate, each absent where
// it is not a number; nothing where the row has fewer than two fields.
struct ServeGenRow {
    std::optional<double> startS;
    std::optional<double> rate;
};

std::optional<ServeGenRow> serveGenRow(std::string_view line)
{
    const auto fields = split(trim(line), ',');
    if (fields.size() < 2)
        return std::nullopt;
    return ServeGenRow{parseNumber(trim(fields[0])), parseNumber(trim(fields[1]))};
}

}  // namespace

Result<std::unique_ptr<TraceFileSource>> TraceFileSource::open(const std::string &path,
                                                               double maxSeconds, uint64_t seed)
{
    // Read through once, now: a file past LineReader's bounds (a gzip bomb), cut short or
    // with garbage after its gzip data is refused here, in seconds, not by every pass of
    // a search that replays it hundreds of times; and those passes read what is held.
    auto lines = TraceLines::read(path);
    if (!lines)
        return lines.error();
    return open(std::move(lines).value(), maxSeconds, seed);
}

Result<std::unique_ptr<TraceFileSource>> TraceFileSource::open(
    std::shared_ptr<const TraceLines> lines, double maxSeconds, uint64_t seed)
{
    const std::string &path = lines->path();
    TraceLines::Cursor cursor = TraceLines::begin(lines);
    std::string first;
    if (!cursor.next(first))
        return Error{cursor.error() ? cursor.error()->message
                                    : fmt::format("{}: empty, not a trace", path)};
    Format format;
    if (startsWith(first, "TIMESTAMP,ContextTokens,GeneratedTokens"))
        format = Format::Azure;
    else if (startsWith(first, "window_start_s,total_rate_rps"))
        format = Format::ServeGen;
    else if (startsWith(trim(first), "{"))
        format = Format::Mooncake;
    else
        return Error{fmt::format("{}:1: not an Azure, Mooncake or ServeGen trace", path)};
    return std::unique_ptr<TraceFileSource>(
        new TraceFileSource(std::move(lines), format, maxSeconds, seed, 1.0));
}

TraceFileSource::TraceFileSource(std::shared_ptr<const TraceLines> lines, Format format,
                                 double maxSeconds, uint64_t seed, double rateFactor)
    : m_lines(std::move(lines))
    , m_format(format)
    , m_maxSeconds(maxSeconds)
    , m_seed(seed)
    , m_rateFactor(rateFactor)
    , m_requestLimit(kDefaultRequestLimit)
{
    rewind();
}

std::string TraceFileSource::name() const
{
    const size_t slash = m_lines->path().find_last_of('/');
    std::string name =
        slash == std::string::npos ? m_lines->path() : m_lines->path().substr(slash + 1);
    if (name.ends_with(".gz"))
        name.resize(name.size() - 3);
    return name;
}

void TraceFileSource::rewind()
{
    m_line = 0;
    m_count = 0;
    m_previousS = 0;
    m_azureStartS.reset();
    m_rng.seed(m_seed);
    m_windowEndS = m_rate = m_nextS = m_nextWindowS = 0;
    m_error.reset();
    m_done = false;
    m_in = TraceLines::begin(m_lines);
    // Mooncake has no header; the others' first line names the columns.
    std::string header;
    if (m_format != Format::Mooncake)
        readLine(header);
    if (m_format == Format::ServeGen)
        refuseIfTooLarge();
}

void TraceFileSource::refuseIfTooLarge()
{
    // The rates say how many requests a pass will draw; a trace too large to replay is
    // refused now, in a blink, rather than after minutes of drawing a billion requests.
    // Rows that do not parse are left for the pass to name.
    TraceLines::Cursor rows = TraceLines::begin(m_lines);
    std::string line;
    rows.next(line);
    double expected = 0;
    while (rows.next(line)) {
        if (trim(line).empty())
            continue;  // as the pass skips it
        const auto row = serveGenRow(line);
        if (!row || !row->startS || !row->rate || !(*row->rate >= 0) ||
            (m_maxSeconds > 0 && *row->startS >= m_maxSeconds))
            return;
        expected += *row->rate * m_rateFactor * kServeGenWindowS;
        if (expected > static_cast<double>(m_requestLimit)) {
            m_line = rows.lineNumber();
            tooManyRequests();
            return;
        }
    }
}

std::unique_ptr<RequestSource> TraceFileSource::scaled(double factor, uint64_t seed)
{
    if (m_format != Format::ServeGen)
        return RequestSource::scaled(factor, seed);
    std::unique_ptr<TraceFileSource> scaled(
        new TraceFileSource(m_lines, m_format, m_maxSeconds, seed, m_rateFactor * factor));
    scaled->setRequestLimit(m_requestLimit);
    return scaled;
}

bool TraceFileSource::fail(const std::string &what)
{
    m_error = Error{m_line > 0 ? fmt::format("{}:{}: {}", m_lines->path(), m_line, what)
                               : fmt::format("{}: {}", m_lines->path(), what)};
    m_done = true;
    return false;
}

bool TraceFileSource::tooManyRequests()
{
    return fail(
        fmt::format("more than {} requests; replay a part of it (--hours)", m_requestLimit));
}

bool TraceFileSource::readLine(std::string &line)
{
    while (m_in.next(line)) {
        m_line = m_in.lineNumber();
        if (!trim(line).empty())
            return true;
    }
    if (m_in.error()) {
        m_error = m_in.error();  // it names the file and the line
        m_done = true;
    }
    return false;
}

bool TraceFileSource::next(TraceRequest &out)
{
    if (m_done)
        return false;
    bool got = false;
    switch (m_format) {
    case Format::Azure: got = nextAzure(out); break;
    case Format::Mooncake: got = nextMooncake(out); break;
    case Format::ServeGen: got = nextServeGen(out); break;
    }
    if (!got)
        m_done = true;
    return got;
}

// The checks every row passes, whatever its format.
bool TraceFileSource::accept(double arrivalS, uint64_t input, uint64_t output, TraceRequest &out)
{
    if (input < 1 || output < 1 || input > kMaxTokens || output > kMaxTokens)
        return fail(m_format == Format::Mooncake
                        ? "input_length and output_length must be 1..10000000"
                        : "token counts must be 1..10000000");
    if (!std::isfinite(arrivalS))
        return fail("the time is not a number");
    if (arrivalS < m_previousS)
        return fail("rows out of order: this request is earlier than the one before it");
    if (arrivalS > kMaxTraceSeconds)
        return fail("more than 366 days after the trace's first request");
    if (++m_count > m_requestLimit)
        return tooManyRequests();
    if (m_maxSeconds > 0 && arrivalS >= m_maxSeconds)
        return false;  // the part asked for is over
    m_previousS = arrivalS;
    out = {arrivalS, static_cast<int>(input), static_cast<int>(output), {}};
    return true;
}

bool TraceFileSource::nextAzure(TraceRequest &out)
{
    std::string line;
    if (!readLine(line))
        return false;
    const auto fields = split(trim(line), ',');
    if (fields.size() != 3)
        return fail("expected TIMESTAMP,ContextTokens,GeneratedTokens");
    const auto at = azureTime(trim(fields[0]));
    const auto input = parseUnsigned(trim(fields[1]));
    const auto output = parseUnsigned(trim(fields[2]));
    if (!at || !input || !output)
        return fail("a time and two token counts expected");
    if (*at < kEarliestUnixS || *at >= kLatestUnixS)
        return fail("a time between the years 2000 and 2100 expected");
    if (!m_azureStartS)
        m_azureStartS = *at;
    return accept(*at - *m_azureStartS, *input, *output, out);
}

bool TraceFileSource::nextMooncake(TraceRequest &out)
{
    std::string line;
    if (!readLine(line))
        return false;
    const auto doc = nlohmann::json::parse(line, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("timestamp") ||
        !doc["timestamp"].is_number() || !doc.contains("input_length") ||
        !doc["input_length"].is_number_unsigned() || !doc.contains("output_length") ||
        !doc["output_length"].is_number_unsigned())
        return fail("expected {timestamp, input_length, output_length}");
    if (!accept(doc["timestamp"].get<double>() / 1000.0, doc["input_length"].get<uint64_t>(),
                doc["output_length"].get<uint64_t>(), out))
        return false;
    if (!doc.contains("hash_ids"))
        return true;
    const auto &blocks = doc["hash_ids"];
    const size_t mostBlocks = static_cast<size_t>(out.inputTokens) / kPrefixBlockTokens + 1;
    if (!blocks.is_array() || blocks.size() > mostBlocks)
        return fail(
            fmt::format("hash_ids must be a list of at most {} block numbers "
                        "(one per {} prompt tokens)",
                        mostBlocks, kPrefixBlockTokens));
    out.prefixBlocks.reserve(blocks.size());
    for (const auto &block : blocks) {
        if (!block.is_number_unsigned())
            return fail("hash_ids must be a list of block numbers");
        out.prefixBlocks.push_back(block.get<uint64_t>());
    }
    return true;
}

bool TraceFileSource::nextServeGen(TraceRequest &out)
{
    while (m_nextS >= m_windowEndS) {
        std::string line;
        if (!readLine(line))
            return false;
        const auto row = serveGenRow(line);
        if (!row)
            return fail("expected window_start_s,total_rate_rps,...");
        const auto [start, rate] = *row;
        if (!start || !rate || !std::isfinite(*start) || *start < 0 || !(*rate >= 0) || *rate > 1e6)
            return fail("a window start and a rate (0..1000000 per second) expected");
        if (*start < m_nextWindowS)
            return fail("windows out of order: each starts 600 s or more after the one before");
        if (*start > kMaxTraceSeconds)
            return fail("more than 366 days after the trace's start");
        if (m_maxSeconds > 0 && *start >= m_maxSeconds)
            return false;
        m_nextWindowS = *start + kServeGenWindowS;
        m_windowEndS = *start + kServeGenWindowS;
        m_rate = *rate * m_rateFactor;
        // The mean count, with room for Poisson noise, must fit before drawing any.
        if (m_count + static_cast<uint64_t>(m_rate * kServeGenWindowS * 1.1 + 100) > m_requestLimit)
            return tooManyRequests();
        m_nextS = *start;
        if (m_rate <= 0)
            m_nextS = m_windowEndS;  // a silent window
        else
            m_nextS += std::exponential_distribution<double>(m_rate)(m_rng);
    }
    // Poisson arrivals at the window's rate, with lengths like the Azure conversation
    // trace (log-normal fits of it).
    std::lognormal_distribution<double> input(std::log(1020.0), 0.95);
    std::lognormal_distribution<double> output(std::log(130.0), 1.0);
    const double at = m_nextS;
    const auto in = static_cast<uint64_t>(std::clamp(input(m_rng), 8.0, 16'000.0));
    const auto outTokens = static_cast<uint64_t>(std::clamp(output(m_rng), 1.0, 2'000.0));
    m_nextS += std::exponential_distribution<double>(m_rate)(m_rng);
    return accept(at, in, outTokens, out);
}

}  // namespace meridian

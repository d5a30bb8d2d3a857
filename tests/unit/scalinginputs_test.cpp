// The scaling inputs a person or a capture supplies, broken: traces whose rows run
// backwards, carry absurd years or zero tokens, or stretch past any replay; services
// files with a word where a number belongs. Each is refused with file and line, before
// it can become an endless loop, an allocation of gigabytes or a silent default.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <zlib.h>

#include <fstream>

#include "core/inferenceservice.h"
#include "replay/requesttrace.h"
#include "replay/tracefile.h"
#include "replay/tracelines.h"
#include "scaling/scalingpolicy.h"
#include "testsupport.h"

using namespace meridian;

namespace {

std::string traceError(const test::TempDir &dir, const std::string &name, const std::string &text)
{
    const std::string path = dir.file(name);
    std::ofstream(path) << text;
    auto trace = loadRequestTrace(path);
    EXPECT_FALSE(trace.ok()) << text;
    return trace.ok() ? std::string() : trace.error().message;
}

constexpr const char *kAzureHeader = "TIMESTAMP,ContextTokens,GeneratedTokens\n";

// `text` gzip-compressed, as the big real traces are kept.
std::string gzipped(const std::string &text)
{
    uLongf size = compressBound(text.size()) + 32;
    std::string out(size, '\0');
    z_stream stream{};
    deflateInit2(&stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);  // +16: gzip
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

std::string serviceWith(const std::string &field)
{
    return "services:\n"
           "  - name: chat\n"
           "    model: m\n" +
           field +
           "    runs_on:\n"
           "      - {card_model: A100-SXM4-80GB, requests_per_second_per_card: 1}\n";
}

std::string servicesError(const test::TempDir &dir, const std::string &text)
{
    const std::string path = dir.file("services.yaml");
    std::ofstream(path) << text;
    auto services = loadInferenceServices(path);
    EXPECT_FALSE(services.ok()) << text;
    return services.ok() ? std::string() : services.error().message;
}

}  // namespace

TEST(RequestTraceInput, RowsOutOfOrderAreRefusedWithTheirLine)
{
    test::TempDir dir;
    EXPECT_NE(traceError(dir, "a.csv",
                         std::string(kAzureHeader) + "2023-11-16 18:15:46.68,374,44\n"
                                                     "2023-11-16 18:15:50.99,396,109\n"
                                                     "2023-11-16 18:15:40.00,10,10\n")
                  .find("a.csv:4: rows out of order"),
              std::string::npos);
    EXPECT_NE(traceError(dir, "m.jsonl",
                         "{\"timestamp\": 5000, \"input_length\": 10, \"output_length\": 5}\n"
                         "{\"timestamp\": 1000, \"input_length\": 10, \"output_length\": 5}\n")
                  .find("m.jsonl:2: rows out of order"),
              std::string::npos);
    EXPECT_NE(traceError(dir, "s.csv", "window_start_s,total_rate_rps\n600,1\n0,1\n")
                  .find("s.csv:3: windows out of order"),
              std::string::npos);
}

TEST(RequestTraceInput, AbsurdYearsAndEndlessTimesAreRefused)
{
    test::TempDir dir;
    EXPECT_NE(traceError(dir, "y1.csv", std::string(kAzureHeader) + "0001-01-01 00:00:00.0,5,5\n")
                  .find("y1.csv:2: a time between the years 2000 and 2100"),
              std::string::npos);
    EXPECT_NE(traceError(dir, "y9.csv",
                         std::string(kAzureHeader) + "2023-11-16 18:15:46.68,374,44\n"
                                                     "9999-12-31 23:59:59.0,5,5\n")
                  .find("y9.csv:3:"),
              std::string::npos);
    EXPECT_NE(traceError(dir, "far.jsonl",
                         "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5}\n"
                         "{\"timestamp\": 1e300, \"input_length\": 10, \"output_length\": 5}\n")
                  .find("far.jsonl:2: more than 366 days"),
              std::string::npos);
    EXPECT_NE(traceError(dir, "far.csv", "window_start_s,total_rate_rps\n1e300,1\n")
                  .find("far.csv:2: more than 366 days"),
              std::string::npos);
}

TEST(RequestTraceInput, ZeroTokensAndMoreRequestsThanMemoryAreRefused)
{
    test::TempDir dir;
    EXPECT_NE(traceError(dir, "z.csv", std::string(kAzureHeader) + "2023-11-16 18:15:46.68,374,0\n")
                  .find("z.csv:2: token counts must be 1..10000000"),
              std::string::npos);
    EXPECT_NE(traceError(dir, "z.jsonl",
                         "{\"timestamp\": 0, \"input_length\": 0, \"output_length\": 5}\n")
                  .find("z.jsonl:1: input_length and output_length"),
              std::string::npos);
    // 900,000 requests a second for ten minutes is 540 million requests: refused before
    // a single one is drawn.
    EXPECT_NE(traceError(dir, "huge.csv", "window_start_s,total_rate_rps\n0,900000\n")
                  .find("huge.csv:2: more than 50000000 requests"),
              std::string::npos);
}

// A streamed ServeGen trace whose rates add up to more than a replay finishes is refused
// as it opens, naming the row where it goes over, before minutes of drawing requests.
TEST(RequestTraceInput, AServeGenTraceTooLargeToReplayIsRefusedAsItOpens)
{
    test::TempDir dir;
    const std::string path = dir.file("big.csv");
    // 600,000 requests a second is 360 million a window: the third (after a blank line)
    // passes a billion.
    std::ofstream(path) << "window_start_s,total_rate_rps\n0,600000\n600,600000\n\n1200,600000\n";
    auto file = TraceFileSource::open(path);
    ASSERT_TRUE(file.ok()) << file.error().message;
    ASSERT_TRUE((*file)->error());
    EXPECT_NE((*file)->error()->message.find("big.csv:5: more than 1000000000 requests; replay a "
                                             "part of it (--hours)"),
              std::string::npos)
        << (*file)->error()->message;
    TraceRequest request;
    EXPECT_FALSE((*file)->next(request));
    // Its first two windows are a part that fits.
    auto part = TraceFileSource::open(path, 1200);
    ASSERT_TRUE(part.ok());
    EXPECT_FALSE((*part)->error());
    // A lower limit is checked from the start again.
    (*part)->setRequestLimit(500'000'000);
    ASSERT_TRUE((*part)->error());
    EXPECT_NE((*part)->error()->message.find("big.csv:3: more than 500000000"), std::string::npos)
        << (*part)->error()->message;
}

TEST(RequestTraceInput, AGoodTraceStillReads)
{
    test::TempDir dir;
    const std::string path = dir.file("ok.csv");
    std::ofstream(path) << kAzureHeader << "2023-11-16 18:15:46.5,374,44\n"
                        << "2023-11-16 18:15:46.5,10,1\n"
                        << "2023-11-16 18:15:50.0,396,109\n";
    auto trace = loadRequestTrace(path);
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    ASSERT_EQ(trace->requests.size(), 3u);
    EXPECT_DOUBLE_EQ(trace->requests[2].arrivalS, 3.5);
}

TEST(RequestTraceInput, ACompressedTraceReadsAsThePlainOneAndACutOneIsNamed)
{
    test::TempDir dir;
    std::string text = kAzureHeader;
    for (int i = 0; i < 2000; ++i)
        text += "2023-11-16 18:15:" + std::to_string(10 + i / 100) + ".5,374,44\n";
    std::ofstream(dir.file("plain.csv")) << text;
    const std::string compressed = gzipped(text);
    std::ofstream(dir.file("trace.csv.gz"), std::ios::binary) << compressed;
    auto plain = loadRequestTrace(dir.file("plain.csv"));
    auto packed = loadRequestTrace(dir.file("trace.csv.gz"));
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    ASSERT_TRUE(packed.ok()) << packed.error().message;
    EXPECT_EQ(packed->requests.size(), 2000u);
    EXPECT_EQ(packed->requests.size(), plain->requests.size());
    EXPECT_DOUBLE_EQ(packed->requests.back().arrivalS, plain->requests.back().arrivalS);
    EXPECT_EQ(packed->name, "trace.csv");  // as the reports name it, without .gz

    // Cut short, as a copy interrupted half-way: refused with the file, not read as less.
    std::ofstream(dir.file("cut.csv.gz"), std::ios::binary)
        << compressed.substr(0, compressed.size() / 2);
    auto truncated = loadRequestTrace(dir.file("cut.csv.gz"));
    ASSERT_FALSE(truncated.ok());
    EXPECT_NE(truncated.error().message.find("cut.csv.gz:"), std::string::npos)
        << truncated.error().message;
    EXPECT_NE(truncated.error().message.find("cut short"), std::string::npos)
        << truncated.error().message;
}

// Files that never end are refused at once: a device, a FIFO nobody writes, one line
// longer than any trace row.
TEST(RequestTraceInput, FilesThatNeverEndAreRefusedAtOnce)
{
    auto zero = loadRequestTrace("/dev/zero");
    ASSERT_FALSE(zero.ok());
    EXPECT_NE(zero.error().message.find("/dev/zero: not a regular file"), std::string::npos)
        << zero.error().message;

    test::TempDir dir;
    const std::string fifo = dir.file("trace.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto piped = loadRequestTrace(fifo);  // with no writer: must not wait for one
    ASSERT_FALSE(piped.ok());
    EXPECT_NE(piped.error().message.find("trace.fifo: not a regular file"), std::string::npos)
        << piped.error().message;

    std::ofstream(dir.file("long.csv")) << kAzureHeader << "2023-11-16 18:15:46.5,374,44\n"
                                        << std::string(3 * 1024 * 1024, '7') << "\n";
    auto endless = loadRequestTrace(dir.file("long.csv"));
    ASSERT_FALSE(endless.ok());
    EXPECT_NE(endless.error().message.find("long.csv:3: a line longer than"), std::string::npos)
        << endless.error().message;
}

TEST(ServicesFile, ALoadBalancerIsReadAndOneMissingItsAddressIsRefused)
{
    test::TempDir dir;
    const std::string path = dir.file("services.yaml");
    std::ofstream(path) << serviceWith(
        "    load_balancer: {kind: haproxy, runtime_api: 127.0.0.1:9999, backend: chat,\n"
        "                    server_options: maxconn 16 inter 2s fall 2 rise 1}\n");
    auto loaded = loadInferenceServices(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ASSERT_TRUE(loaded->front().loadBalancer);
    EXPECT_EQ(loaded->front().loadBalancer->runtimeApi, "127.0.0.1:9999");
    EXPECT_EQ(loaded->front().loadBalancer->backend, "chat");
    EXPECT_EQ(loaded->front().loadBalancer->serverOptions, "maxconn 16 inter 2s fall 2 rise 1");
    // Options that would end HAProxy's command line and start another are refused.
    EXPECT_NE(servicesError(dir, serviceWith("    load_balancer: {kind: haproxy, runtime_api: x:1, "
                                             "backend: chat, server_options: \"maxconn 1;"
                                             " shutdown frontend chat\"}\n"))
                  .find(":4: load_balancer: server_options are HAProxy server keywords"),
              std::string::npos);
    EXPECT_NE(servicesError(dir, serviceWith("    load_balancer: {kind: haproxy, backend: chat}\n"))
                  .find("services.yaml:4: load_balancer needs runtime_api"),
              std::string::npos);
    EXPECT_NE(servicesError(dir, serviceWith("    load_balancer: {kind: nginx, runtime_api: x:1, "
                                             "backend: chat}\n"))
                  .find(":4: load_balancer: kind haproxy is the one known"),
              std::string::npos);
}

TEST(ServicesFile, AServiceMayNameAPolicyOfItsOwnAndABrokenOneIsNamed)
{
    test::TempDir dir;
    const std::string path = dir.file("services.yaml");
    std::ofstream(path) << serviceWith("    policy: chat-policy.yaml\n");
    std::ofstream(dir.file("chat-policy.yaml")) << "target_occupancy: 0.5\n";
    auto services = loadInferenceServices(path);
    ASSERT_TRUE(services.ok()) << services.error().message;
    EXPECT_EQ(services->front().policyFile, dir.file("chat-policy.yaml"));
    auto policies = loadServicePolicies(services.value());
    ASSERT_TRUE(policies.ok()) << policies.error().message;
    EXPECT_DOUBLE_EQ(policies->at("chat").targetOccupancy, 0.5);
    std::ofstream(dir.file("chat-policy.yaml")) << "target_occupancy: 0.5\nforecast_days: lots\n";
    auto broken = loadServicePolicies(services.value());
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().message.find("service chat: " + dir.file("chat-policy.yaml") + ":2:"),
              std::string::npos)
        << broken.error().message;
}

TEST(ServicesFile, AWordWhereANumberBelongsIsRefusedNotDefaulted)
{
    test::TempDir dir;
    const std::string eight = servicesError(dir, serviceWith("    cards_per_replica: eight\n"));
    EXPECT_NE(eight.find("services.yaml:4: cards_per_replica must be a whole number ('eight')"),
              std::string::npos)
        << eight;
    EXPECT_NE(servicesError(dir, serviceWith("    rent: {max_cny_per_card_hour: .nan}\n"))
                  .find(":4: max_cny_per_card_hour must be a finite number"),
              std::string::npos);
    EXPECT_NE(servicesError(dir, serviceWith("    cold_start_seconds: .inf\n"))
                  .find(":4: cold_start_seconds must be a finite number"),
              std::string::npos);
    EXPECT_NE(servicesError(dir, serviceWith("    replicas: {min: two}\n")).find(":4: min must be"),
              std::string::npos);
    EXPECT_NE(servicesError(dir, serviceWith("    slo: 5\n")).find(":4: expected a mapping"),
              std::string::npos);
    EXPECT_NE(servicesError(dir, "services:\n  - chat\n").find(":2: expected a mapping"),
              std::string::npos);
}

// The services file shipped for a machine without accelerators loads as written, and
// tells its agent to run the stand-in server behind the shipped HAProxy backend.
TEST(ServicesFileInput, TheShippedDemoServicesLoad)
{
    auto services =
        loadInferenceServices(MERIDIAN_SOURCE_DIR "/packaging/scaled/demo-services.yaml");
    ASSERT_TRUE(services.ok()) << services.error().message;
    ASSERT_EQ(services->size(), 1u);
    const InferenceService &chat = services->front();
    ASSERT_TRUE(chat.serving.has_value());
    ASSERT_FALSE(chat.serving->command.empty());
    EXPECT_EQ(chat.serving->command.front(), "meridian-sim");
    ASSERT_TRUE(chat.loadBalancer.has_value());
    EXPECT_EQ(chat.loadBalancer->runtimeApi, "127.0.0.1:9999") << "the shipped haproxy.cfg's";
    EXPECT_EQ(chat.loadBalancer->backend, "chat");
}

// What a file may unfold to is bounded in text and in lines, blank ones counted; and
// members joined one after another are read through.
TEST(LineReaderBounds, TextAndLinesAreBoundedAndJoinedMembersRead)
{
    test::TempDir dir;
    const std::string joined = dir.file("joined.gz");
    std::ofstream(joined, std::ios::binary) << gzipped("a\nb\n") << gzipped("c\n");
    auto reader = LineReader::open(joined);
    ASSERT_TRUE(reader) << reader.error().message;
    std::string line;
    std::vector<std::string> lines;
    while ((*reader)->next(line))
        lines.push_back(line);
    EXPECT_FALSE((*reader)->error()) << (*reader)->error()->message;
    EXPECT_EQ(lines, (std::vector<std::string>{"a", "b", "c"}));

    const std::string big = dir.file("big.gz");
    std::ofstream(big, std::ios::binary) << gzipped(std::string(3 << 20, 'x') + "\n");
    auto bytes = LineReader::open(big, 8 << 20);
    ASSERT_TRUE(bytes);
    (*bytes)->setBounds(1 << 20, 1000);
    while ((*bytes)->next(line)) {
    }
    ASSERT_TRUE((*bytes)->error());
    EXPECT_NE((*bytes)->error()->message.find("unfolds to more than 1 MiB"), std::string::npos)
        << (*bytes)->error()->message;

    const std::string blank = dir.file("blank.txt");
    std::ofstream(blank) << std::string(5000, '\n');
    auto many = LineReader::open(blank);
    ASSERT_TRUE(many);
    (*many)->setBounds(1 << 20, 1000);
    size_t read = 0;
    while ((*many)->next(line))
        ++read;
    EXPECT_EQ(read, 1000u);
    ASSERT_TRUE((*many)->error());
    EXPECT_NE((*many)->error()->message.find("blank.txt:1001: more than 1000 lines"),
              std::string::npos)
        << (*many)->error()->message;
}

// What is held is counted whole: the lines' index as well as their text. A file of blank
// lines is four bytes of index for each byte of text (eight before the index was 32-bit),
// and was held at nine times the bound (a gzip of 64 million blank lines, 576 MB where
// 256 MB were meant).
TEST(TraceLinesHeld, TheIndexOfManyShortLinesCountsAgainstWhatIsHeld)
{
    test::TempDir dir;
    const std::string blank = dir.file("blank.csv");
    std::ofstream(blank) << std::string(2000, '\n');  // 2,000 bytes of text, 8,000 of index
    auto small = TraceLines::read(blank, /*holdAtMost=*/8192);
    ASSERT_TRUE(small) << small.error().message;
    EXPECT_FALSE((*small)->held()) << "2,000 lines held in 8 KiB";
    auto roomy = TraceLines::read(blank, /*holdAtMost=*/32768);
    ASSERT_TRUE(roomy) << roomy.error().message;
    EXPECT_TRUE((*roomy)->held());
    auto cursor = TraceLines::begin(small.value());
    std::string line;
    size_t lines = 0;
    while (cursor.next(line))
        ++lines;
    EXPECT_EQ(lines, 2000u) << "streamed, every line is still read";
}

// A trace is read once and held; a larger one than may be held is streamed on each
// pass instead, and both give the same lines, with the same numbers in their errors.
TEST(TraceLinesHeld, HeldAndStreamedPassesReadTheSameAndBrokenEndsAreRefusedAtOnce)
{
    test::TempDir dir;
    const std::string trace = dir.file("azure.csv.gz");
    std::ofstream(trace, std::ios::binary) << gzipped(
        "TIMESTAMP,ContextTokens,GeneratedTokens\n"
        "2023-11-16 18:15:46.6805900,374,44\n\n"
        "2023-11-16 18:15:50.9951690,396,109\n"
        "2023-11-16 18:15:40.0000000,10,10\n");
    auto held = TraceLines::read(trace);
    auto streamed = TraceLines::read(trace, /*holdAtMost=*/16);
    ASSERT_TRUE(held && streamed);
    EXPECT_TRUE((*held)->held());
    EXPECT_FALSE((*streamed)->held());
    for (int pass = 0; pass < 2; ++pass) {
        auto a = TraceLines::begin(held.value());
        auto b = TraceLines::begin(streamed.value());
        std::string x, y;
        size_t lines = 0;
        while (a.next(x)) {
            ASSERT_TRUE(b.next(y));
            EXPECT_EQ(x, y);
            EXPECT_EQ(a.lineNumber(), b.lineNumber());
            ++lines;
        }
        EXPECT_FALSE(b.next(y));
        EXPECT_EQ(lines, 5u);
    }
    // Replayed from what is held, the out-of-order row is named by its line either way.
    for (const auto &lines : {held.value(), streamed.value()}) {
        auto source = TraceFileSource::open(lines, 0, 1);
        ASSERT_TRUE(source);
        TraceRequest request;
        while ((*source)->next(request)) {
        }
        ASSERT_TRUE((*source)->error());
        EXPECT_NE((*source)->error()->message.find("azure.csv.gz:5: rows out of order"),
                  std::string::npos)
            << (*source)->error()->message;
    }
    // Garbage after the gzip data is refused when the file is read, not on some pass.
    const std::string trailing = dir.file("trailing.csv.gz");
    std::ofstream(trailing, std::ios::binary)
        << gzipped("TIMESTAMP,ContextTokens,GeneratedTokens\n") << "not gzip at all";
    const auto refused = TraceLines::read(trailing);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("trailing.csv.gz"), std::string::npos)
        << refused.error().message;
}

// `meridian-sim evaluate` given a trace that never ends: /dev/zero, a FIFO nobody writes,
// one line of megabytes. The program used to grow without limit on the first and wait
// for ever on the second; each is now refused at once, naming the file and why. So are
// options out of range, NaN among them. And `meridian-sim tune` writes a policy file
// that loads; `meridian-sim robustness` judges the policy against the causal baselines only.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zlib.h>

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>

#include "childprocess.h"
#include "scaling/scalingpolicy.h"
#include "testsupport.h"

using namespace meridian;
using namespace meridian::test;

namespace {

struct Refusal {
    bool endedInTime = false;
    int exitCode = -1;
    std::string said;
    double cpuSeconds = 0;  // once it ended
};

Refusal evaluate(const std::string &trace, const TempDir &dir,
                 const std::vector<std::string> &options = {},
                 std::chrono::seconds within = std::chrono::seconds(2),
                 const std::string &verb = "evaluate")
{
    const std::string log = dir.file(verb + ".log");
    std::vector<std::string> command{MERIDIAN_SIM_BIN, verb, "--trace", trace};
    command.insert(command.end(), options.begin(), options.end());
    ChildProcess sim(command, log);
    Refusal refusal;
    refusal.endedInTime = waitUntil([&] { return sim.ended(); }, within);
    if (refusal.endedInTime && WIFEXITED(sim.waitStatus()))
        refusal.exitCode = WEXITSTATUS(sim.waitStatus());
    refusal.cpuSeconds = sim.cpuSeconds();
    refusal.said = sim.log();
    return refusal;
}

// A CSV line's fields, a quoted field whole.
std::vector<std::string> csvFields(const std::string &line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (const char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            fields.emplace_back();
        else
            fields.back() += c;
    }
    return fields;
}

// The file's bytes as they are (readFile unfolds gzip).
std::string rawBytes(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// `lines` blank lines, gzip-compressed: a megabyte or so that unfolds to hundreds.
void writeGzipBomb(const std::string &path, size_t lines)
{
    gzFile out = gzopen(path.c_str(), "wb9");
    ASSERT_NE(out, nullptr);
    const std::string chunk(1 << 20, '\n');
    for (size_t written = 0; written < lines; written += chunk.size())
        ASSERT_GT(gzwrite(out, chunk.data(), static_cast<unsigned>(chunk.size())), 0);
    gzclose(out);
}

}  // namespace

// A gzip bomb (a trace header, then 64 million blank lines in 64 kB) used to keep
// `evaluate` and `tune` running for ever, and bytes after the last gzip member were
// dropped silently: both are refused by name within seconds. Both commands read a trace
// through one reader (TraceLines): the bomb's 50 million lines are read by `evaluate`,
// and `tune` is shown to read through the same checks by the data after the gzip.
TEST(SimEvaluate, AGzipBombOrDataAfterTheGzipIsRefusedInSeconds)
{
    TempDir dir;
    const std::string bomb = dir.file("bomb.csv.gz");
    {
        gzFile out = gzopen(bomb.c_str(), "wb9");
        ASSERT_NE(out, nullptr);
        const std::string header = "TIMESTAMP,ContextTokens,GeneratedTokens\n";
        gzwrite(out, header.data(), static_cast<unsigned>(header.size()));
        gzclose(out);
    }
    const std::string blanks = dir.file("blanks.gz");
    writeGzipBomb(blanks, 64u << 20);  // past the 50 million lines a trace may have
    {
        // Two members, one after the other, as `cat a.gz b.gz` makes: still gzip.
        std::ofstream joined(bomb, std::ios::binary | std::ios::app);
        joined << rawBytes(blanks);
    }
    EXPECT_LT(rawBytes(bomb).size(), 2u << 20);
    // Seconds of processor time, not of the clock: the tests beside this one share the
    // machine's cores, and a replay started next to it made 5 s of reading take 57.
    const Refusal refusal = evaluate(bomb, dir, {}, std::chrono::seconds(120));
    EXPECT_TRUE(refusal.endedInTime) << "read the bomb for more than 120 s";
    EXPECT_LT(refusal.cpuSeconds, 30) << "read the bomb for more than 30 s";
    EXPECT_EQ(refusal.exitCode, 2) << refusal.said;
    EXPECT_NE(refusal.said.find("bomb.csv.gz:50000001: more than 50000000 lines"),
              std::string::npos)
        << refusal.said;

    const std::string trailing = dir.file("trailing.csv.gz");
    std::ofstream(trailing, std::ios::binary)
        << rawBytes(realData("traces/azure_llm_2023_conv.csv.gz")) << std::string(20, '\x5a');
    for (const std::string verb : {"evaluate", "tune"}) {
        const Refusal refused = evaluate(trailing, dir, {}, std::chrono::seconds(30), verb);
        EXPECT_EQ(refused.exitCode, 2) << verb << ": " << refused.said;
        EXPECT_NE(refused.said.find("trailing.csv.gz:"), std::string::npos) << refused.said;
        EXPECT_NE(refused.said.find("data after the last gzip member"), std::string::npos)
            << verb << ": " << refused.said;
    }
}

TEST(SimEvaluate, TracesThatNeverEndAreRefusedAtOnceWithTheirName)
{
    TempDir dir;
    const std::string fifo = dir.file("trace.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string oneLine = dir.file("one-line.csv");
    std::ofstream(oneLine) << std::string(3 << 20, 'x');
    const struct {
        std::string trace;
        std::string why;
    } cases[] = {{"/dev/zero", "/dev/zero: not a regular file"},
                 {fifo, "trace.fifo: not a regular file"},
                 {oneLine, "one-line.csv:1: a line longer than 1048576 bytes"}};
    for (const auto &c : cases) {
        const Refusal refusal = evaluate(c.trace, dir);
        EXPECT_TRUE(refusal.endedInTime) << c.trace << " was read for more than 2 s";
        EXPECT_EQ(refusal.exitCode, 2) << c.trace;
        EXPECT_NE(refusal.said.find(c.why), std::string::npos) << refusal.said;
    }
}

TEST(SimEvaluate, OptionsOutOfRangeAreRefusedByName)
{
    TempDir dir;
    const std::string conv = realData("traces/azure_llm_2023_conv.csv.gz");
    const struct {
        std::vector<std::string> options;
        std::string why;
    } cases[] = {
        // Owned cards by the trillion once asked for more memory than there is, and aborted.
        {{"--local-cards", "1e12"}, "--local-cards must be 0..100000"},
        {{"--local-cards", "nan"}, "--local-cards must be 0..100000"},
        {{"--hours", "nan"}, "--hours must be 0..100000"},
        {{"--hours", "-1"}, "--hours must be 0..100000"},
        {{"--told-ahead", "nan"}, "--told-ahead must be 0..7200 seconds"},
        {{"--peak-cards", "nan"}, "--peak-cards must be 4..100000"},
    };
    for (const auto &c : cases) {
        const Refusal refusal = evaluate(conv, dir, c.options);
        EXPECT_TRUE(refusal.endedInTime) << c.options.front();
        EXPECT_EQ(refusal.exitCode, 2) << c.options.front() << " " << refusal.said;
        EXPECT_NE(refusal.said.find(c.why), std::string::npos) << refusal.said;
    }
}

// A service's policy file chosen from its own traffic, by the real binary: the table of
// candidates, the one chosen and why, and a file the services file's `policy:` can name.
TEST(SimTune, ChoosesAndWritesAPolicyFileThatLoads)
{
    TempDir dir;
    const std::string out = dir.file("conv-policy.yaml");
    ChildProcess tune({MERIDIAN_SIM_BIN, "tune", "--trace",
                       realData("traces/azure_llm_2023_conv.csv.gz"), "--seeds", "1", "--out", out},
                      dir.file("tune.log"));
    ASSERT_TRUE(waitUntil([&] { return tune.ended(); }, std::chrono::seconds(60))) << tune.log();
    ASSERT_TRUE(WIFEXITED(tune.waitStatus()));
    EXPECT_EQ(WEXITSTATUS(tune.waitStatus()), 0) << tune.log();
    const std::string said = tune.log();
    EXPECT_NE(said.find("12 candidates"), std::string::npos) << said;
    EXPECT_NE(said.find("window 3 h, occupancy 0.80"), std::string::npos) << said;
    EXPECT_NE(said.find("chosen: window"), std::string::npos) << said;
    EXPECT_NE(said.find("(no seed below 98.5%) with at most 20 actions a day"), std::string::npos)
        << said;
    const auto policy = loadScalingPolicy(out);
    ASSERT_TRUE(policy.ok()) << policy.error().message;
    // On conv every candidate keeps 99% (the defaults 99.66%); less headroom is cheaper.
    EXPECT_GT(policy->targetOccupancy, 0.8) << readFile(out);
    EXPECT_NE(readFile(out).find("# Chosen by meridian-sim tune from azure_llm_2023_conv"),
              std::string::npos)
        << readFile(out);

    // Across the family of surges: the file's header quotes the figures of the candidate it
    // holds (its cover included), as the table printed them.
    const std::string covered = dir.file("conv-covered.yaml");
    ChildProcess family(
        {MERIDIAN_SIM_BIN, "tune", "--trace", realData("traces/azure_llm_2023_conv.csv.gz"),
         "--seeds", "1", "--shapes", "1", "--out", covered},
        dir.file("family.log"));
    ASSERT_TRUE(waitUntil([&] { return family.ended(); }, std::chrono::seconds(120)))
        << family.log();
    ASSERT_EQ(WEXITSTATUS(family.waitStatus()), 0) << family.log();
    const std::string table = family.log().substr(family.log().find("across the family"));
    const size_t marked = table.find("\n* ");
    ASSERT_NE(marked, std::string::npos) << table;
    std::istringstream chosenRow(table.substr(marked + 3, table.find('\n', marked + 1) - marked));
    std::vector<std::string> words;
    for (std::string word; chosenRow >> word;)
        words.push_back(word);
    // The row ends with: rented c-h, in SLO, surges median, surges worst 10%, surges c-h.
    ASSERT_GE(words.size(), 5u) << table;
    const std::vector<std::string> last(words.end() - 5, words.end());
    const std::string header = readFile(covered).substr(0, readFile(covered).find('\n'));
    EXPECT_NE(header.find("on the traffic as it is " + last[1] +
                          " of requests inside the "
                          "objective, " +
                          last[0] + " rented card-hours"),
              std::string::npos)
        << header << "\n"
        << table;
    EXPECT_NE(header.find(last[2] + " (median) and " + last[3] + " (worst tenth) inside, " +
                          last[4] + " rented card-hours (median)"),
              std::string::npos)
        << header << "\n"
        << table;
    const auto coveredPolicy = loadScalingPolicy(covered);
    ASSERT_TRUE(coveredPolicy.ok()) << coveredPolicy.error().message;

    ChildProcess refused({MERIDIAN_SIM_BIN, "tune", "--trace",
                          realData("traces/azure_llm_2023_conv.csv.gz"), "--inside", "nan"},
                         dir.file("refused.log"));
    ASSERT_TRUE(waitUntil([&] { return refused.ended(); }, std::chrono::seconds(5)));
    EXPECT_EQ(WEXITSTATUS(refused.waitStatus()), 2) << refused.log();
    EXPECT_NE(refused.log().find("--inside must be 0.5..1"), std::string::npos) << refused.log();

    // An --out that cannot be written is said before the replays, not after them.
    ChildProcess nowhere(
        {MERIDIAN_SIM_BIN, "tune", "--trace", realData("traces/azure_llm_2023_conv.csv.gz"),
         "--out", dir.file("no-such-folder/policy.yaml")},
        dir.file("nowhere.log"));
    ASSERT_TRUE(waitUntil([&] { return nowhere.ended(); }, std::chrono::seconds(2)))
        << "replayed before saying the file cannot be written";
    EXPECT_EQ(WEXITSTATUS(nowhere.waitStatus()), 2) << nowhere.log();
    EXPECT_NE(nowhere.log().find("policy.yaml: cannot write (--out)"), std::string::npos)
        << nowhere.log();
}

// Six cases (steps, bursts, quiet hours; two seeds each) over the real conv trace, every
// row beside Meridian's. Static peak is sized on the busiest minute of the shaped trace, so
// it knows the step is coming: it is shown as foresight and never judges Meridian. Static
// past peak is sized on the trace's own busiest minute, as an operator would have sized it
// before the shape came; with HPA- and Knative-style it is what "dominated" counts, and
// the report's count agrees with the rows it writes to the CSV.
TEST(SimRobustness, MeridianIsJudgedAgainstCausalBaselinesAndStaticPeakIsForesight)
{
    TempDir dir;
    const std::string csv = dir.file("family.csv");
    ChildProcess family(
        {MERIDIAN_SIM_BIN, "robustness", "--trace", realData("traces/azure_llm_2023_conv.csv.gz"),
         "--seeds", "2", "--kinds", "step", "burst", "quiet", "--jobs", "2", "--csv", csv},
        dir.file("robustness.log"));
    ASSERT_TRUE(waitUntil([&] { return family.ended(); }, std::chrono::seconds(120)))
        << family.log();
    ASSERT_TRUE(WIFEXITED(family.waitStatus()));
    ASSERT_EQ(WEXITSTATUS(family.waitStatus()), 0) << family.log();
    const std::string report = family.log();
    for (const char *row : {"meridian ", "static peak (foresight)", "static past peak", "hpa-style",
                            "knative-style", "oracle"})
        EXPECT_NE(report.find(row), std::string::npos) << row << " missing:\n" << report;
    EXPECT_NE(report.find("dominated by a causal baseline"), std::string::npos) << report;
    EXPECT_NE(report.find("the whole family: median"), std::string::npos) << report;

    // kind → seed → row → (inside, card-hours)
    std::map<std::string, std::map<std::string, std::map<std::string, std::pair<double, double>>>>
        rows;
    std::istringstream lines(readFile(csv));
    std::string line;
    std::getline(lines, line);  // the header
    int count = 0;
    while (std::getline(lines, line)) {
        const std::vector<std::string> f = csvFields(line);
        ASSERT_GE(f.size(), 9u) << line;
        rows[f[0]][f[1]][f[6]] = {std::stod(f[7]), std::stod(f[8])};
        ++count;
    }
    EXPECT_EQ(count, 3 * 2 * 6) << "three kinds, two seeds, six rows each";
    std::map<std::string, int> dominated;
    for (const auto &[kind, seeds] : rows) {
        for (const auto &[seed, of] : seeds) {
            ASSERT_EQ(of.size(), 6u) << kind << " " << seed;
            const auto [pastInside, pastCardHours] = of.at("static past peak");
            const auto [peakInside, peakCardHours] = of.at("static peak");
            // The trace's own busiest minute needs 21.3 cards, inside the 32 owned.
            EXPECT_EQ(pastCardHours, 0) << kind << " " << seed;
            if (kind == "step")
                EXPECT_LT(pastInside, peakInside) << "foresight is worth something on a step";
            const auto [inside, cardHours] = of.at("meridian");
            if (kind == "quiet")
                EXPECT_EQ(cardHours, 0) << "nothing is rented on a quiet hour";
            bool beaten = false;
            for (const char *causal : {"static past peak", "hpa-style", "knative-style"}) {
                const auto [bInside, bCardHours] = of.at(causal);
                beaten |= bInside >= inside - 0.001 && bCardHours <= cardHours &&
                          (bInside > inside + 0.001 || bCardHours < cardHours);
            }
            dominated[kind] += beaten;
        }
    }
    // The report's word for Meridian on each kind, from the same rows.
    for (const char *kind : {"step", "burst", "quiet"}) {
        const size_t table = report.find(std::string(kind) + " (2 cases");
        ASSERT_NE(table, std::string::npos) << report;
        const size_t meridianRow = report.find("\n  meridian ", table);
        const std::string said =
            report.substr(meridianRow, report.find('\n', meridianRow + 1) - meridianRow);
        const std::string expected =
            dominated[kind] == 0 ? "never" : std::to_string(dominated[kind]) + " of 2";
        EXPECT_NE(said.find(expected), std::string::npos) << kind << ": " << said;
    }
}

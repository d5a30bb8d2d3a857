// The house rules of docs/ARCHITECTURE.md, read off the sources themselves: which folder
// includes which, no cycle between folders, no back-arrow (shared never reaches up, node
// and console are siblings that never include each other, models never include widgets,
// widgets reach the console's services only through models, services never use Qt).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = MERIDIAN_SOURCE_DIR;

// "services/console/cost/x.h" → "services/console/cost"; "widgets/x.h" → "widgets";
// "widgets/fleet/x.h" → "widgets/fleet".
std::string folderOf(const std::string &relative)
{
    std::vector<std::string> parts;
    for (const auto &part : fs::path(relative))
        parts.push_back(part.string());
    if (parts.size() < 2)
        return parts.front();
    if (parts[0] == "app")
        return parts[0] + "/" + parts[1];
    if (parts[0] != "services")
        return parts.size() > 2 ? parts[0] + "/" + parts[1] : parts[0];
    const bool side = parts[1] == "shared" || parts[1] == "node" || parts[1] == "console";
    return side && parts.size() > 3 ? parts[0] + "/" + parts[1] + "/" + parts[2]
                                    : parts[0] + "/" + parts[1];
}

struct Sources {
    std::set<std::string> files;                           // relative to the root
    std::map<std::string, std::set<std::string>> modules;  // "a/b" (a/b.h + a/b.cpp) → includes
    std::map<std::string, std::set<std::string>> arrows;   // folder → folders it includes
    std::map<std::string, std::vector<std::string>> because;  // "a -> b" → "file: include"
    std::vector<std::string> qtInServices;
};

std::string resolve(const Sources &sources, const std::string &file, const std::string &include)
{
    // As the build resolves it: beside the file first, then each side's include folder.
    const std::string beside =
        (fs::path(file).parent_path() / include).lexically_normal().generic_string();
    if (sources.files.count(beside))
        return beside;
    for (const char *root :
         {"services/shared", "services/node", "services/console", "services", ""}) {
        const std::string candidate =
            (fs::path(root) / include).lexically_normal().generic_string();
        if (sources.files.count(candidate))
            return candidate;
    }
    return {};
}

// A header and its source are one module: "models/alerts/alertcenter".
std::string moduleOf(const std::string &file)
{
    return fs::path(file).replace_extension().generic_string();
}

Sources readSources()
{
    Sources sources;
    for (const char *top : {"app", "models", "widgets", "services"}) {
        for (const auto &entry : fs::recursive_directory_iterator(kRoot / top)) {
            const std::string ext = entry.path().extension().string();
            if (entry.is_regular_file() && (ext == ".h" || ext == ".cpp"))
                sources.files.insert(fs::relative(entry.path(), kRoot).generic_string());
        }
    }
    const std::regex quoted(R"re(^\s*#\s*include\s+"([^"]+)")re");
    const std::regex qt(R"(^\s*#\s*include\s+<Q)");
    for (const std::string &file : sources.files) {
        std::ifstream in(kRoot / file);
        std::string line;
        const std::string from = folderOf(file);
        while (std::getline(in, line)) {
            std::smatch match;
            if (from.rfind("services", 0) == 0 && std::regex_search(line, qt))
                sources.qtInServices.push_back(file + ": " + line);
            if (!std::regex_search(line, match, quoted))
                continue;
            const std::string target = resolve(sources, file, match[1]);
            if (target.empty())
                continue;
            const std::string module = moduleOf(file);
            if (moduleOf(target) != module)
                sources.modules[module].insert(moduleOf(target));
            if (folderOf(target) == from)
                continue;
            const std::string to = folderOf(target);
            sources.arrows[from].insert(to);
            sources.because[from + " -> " + to].push_back(file + ": " + match[1].str());
        }
    }
    return sources;
}

const Sources &sources()
{
    static const Sources read = readSources();
    return read;
}

bool startsWith(const std::string &text, const std::string &prefix)
{
    return text.rfind(prefix, 0) == 0;
}

// Every arrow from a folder matching `from` to one matching `to`, with the includes behind it;
// From::Exactly takes `from` as the one folder, not a prefix.
enum class From { Below, Exactly };
std::vector<std::string> arrows(const std::string &from, const std::string &to,
                                From match = From::Below)
{
    std::vector<std::string> found;
    for (const auto &[source, targets] : sources().arrows) {
        const bool fromMatches = match == From::Exactly ? source == from : startsWith(source, from);
        for (const std::string &target : targets) {
            if (fromMatches && startsWith(target, to))
                found.push_back(sources().because.at(source + " -> " + target).front());
        }
    }
    return found;
}

// Every loop of `graph`, each as "a -> b -> a".
std::vector<std::string> cyclesOf(const std::map<std::string, std::set<std::string>> &graph)
{
    std::map<std::string, int> state;  // 0 unseen, 1 on the path, 2 done
    std::vector<std::string> path;
    std::vector<std::string> cycles;
    std::function<void(const std::string &)> visit = [&](const std::string &folder) {
        state[folder] = 1;
        path.push_back(folder);
        if (const auto it = graph.find(folder); it != graph.end()) {
            for (const std::string &next : it->second) {
                if (state[next] == 1) {
                    std::string cycle;
                    for (auto p = std::find(path.begin(), path.end(), next); p != path.end(); ++p)
                        cycle += *p + " -> ";
                    cycles.push_back(cycle + next);
                } else if (state[next] == 0) {
                    visit(next);
                }
            }
        }
        path.pop_back();
        state[folder] = 2;
    };
    for (const auto &[folder, targets] : graph) {
        if (state[folder] == 0)
            visit(folder);
    }
    return cycles;
}

}  // namespace

TEST(Layers, TheSourcesAreFound)
{
    EXPECT_GT(sources().files.size(), 300u) << kRoot;
    EXPECT_TRUE(sources().arrows.count("widgets/fleet"));
    EXPECT_TRUE(sources().arrows.at("services/console/cost").count("services/console/history"));
    EXPECT_TRUE(sources().modules.at("models/cardhealth").count("models/metricscale"));
}

TEST(Layers, NoFolderReachesItselfThroughOthers)
{
    const std::vector<std::string> cycles = cyclesOf(sources().arrows);
    EXPECT_TRUE(cycles.empty()) << cycles.front();
}

// Inside a folder too: no header and its source reach themselves through another module.
TEST(Layers, NoModuleReachesItselfThroughOthers)
{
    const std::vector<std::string> cycles = cyclesOf(sources().modules);
    EXPECT_TRUE(cycles.empty()) << cycles.size() << " loops, the first " << cycles.front();
}

TEST(Layers, SharedNodeAndConsoleKeepTheirPlaces)
{
    for (const char *above : {"services/node", "services/console", "services/pool", "services/sim",
                              "models", "widgets", "app"})
        EXPECT_EQ(arrows("services/shared", above), std::vector<std::string>{}) << above;
    EXPECT_EQ(arrows("services/node", "services/console"), std::vector<std::string>{});
    EXPECT_EQ(arrows("services/console", "services/node"), std::vector<std::string>{});
    EXPECT_EQ(arrows("services/pool", "services/node"), std::vector<std::string>{});
    EXPECT_EQ(arrows("services/pool", "services/console"), std::vector<std::string>{});
}

TEST(Layers, WidgetsReachTheServicesOnlyThroughModels)
{
    EXPECT_EQ(arrows("widgets", "services/console"), std::vector<std::string>{});
    EXPECT_EQ(arrows("widgets", "services/node"), std::vector<std::string>{});
    EXPECT_EQ(arrows("models", "widgets"), std::vector<std::string>{});
    EXPECT_EQ(arrows("services", "models"), std::vector<std::string>{});
    EXPECT_EQ(arrows("services", "widgets"), std::vector<std::string>{});
    EXPECT_EQ(sources().qtInServices, std::vector<std::string>{});
}

// The console's UI by feature: a feature's widgets use its own feature's models and the
// shared ones at the roots of models/ and widgets/, never another feature's; the shell is
// the one place that puts the features together, and nothing below reaches up to it.
TEST(Layers, EachFeaturesWidgetsUseItsOwnModels)
{
    const std::vector<std::string> features = {"fleet", "alerts", "cost",
                                               "plan",  "fabric", "scaling"};
    for (const std::string &feature : features) {
        EXPECT_TRUE(fs::is_directory(kRoot / "widgets" / feature)) << feature;
        EXPECT_TRUE(fs::is_directory(kRoot / "models" / feature)) << feature;
        for (const std::string &other : features) {
            if (other == feature)
                continue;
            EXPECT_EQ(arrows("widgets/" + feature, "models/" + other), std::vector<std::string>{});
            EXPECT_EQ(arrows("widgets/" + feature, "widgets/" + other), std::vector<std::string>{});
        }
        EXPECT_EQ(arrows("widgets/" + feature, "widgets/shell"), std::vector<std::string>{});
        // The shared pieces at the roots serve every feature and depend on none.
        EXPECT_EQ(arrows("widgets", "widgets/" + feature, From::Exactly),
                  std::vector<std::string>{});
        EXPECT_EQ(arrows("models", "models/" + feature, From::Exactly), std::vector<std::string>{});
    }
}

TEST(Layers, HistoryKeepsUsageAndTheHeadlessControllerStaysSmall)
{
    // The history file's rooms all point at history; history points at none of them.
    for (const char *room : {"cost", "alerts", "autoscaler", "scaling", "fleetlink"})
        EXPECT_EQ(arrows("services/console/history", std::string("services/console/") + room),
                  std::vector<std::string>{})
            << room;
    // meridian-scaled: the controller and the fleet, no alerts, no node telemetry.
    EXPECT_EQ(arrows("app/scaled", "services/console/alerts"), std::vector<std::string>{});
    EXPECT_EQ(arrows("app/scaled", "services/node"), std::vector<std::string>{});
    EXPECT_EQ(arrows("services/console/autoscaler", "services/console/alerts"),
              std::vector<std::string>{});
}

// Every function a screen long at most: one that grows past 60 lines is doing more than one
// thing, and is split by what it does. Counted from its signature to its closing brace, as
// the sources are formatted (.clang-format: a function's braces at the margin).
TEST(Layers, NoFunctionIsLongerThanSixtyLines)
{
    const std::regex opens(R"(^[A-Za-z].*\)\s*(const)?\s*(override)?\s*\{$)");
    std::vector<std::string> tooLong;
    for (const std::string &file : sources().files) {
        std::ifstream in(kRoot / file);
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);)
            lines.push_back(line);
        for (size_t i = 0; i < lines.size(); ++i) {
            const std::string &line = lines[i];
            const bool body =
                line == "{" || (std::regex_match(line, opens) && !startsWith(line, "namespace") &&
                                !startsWith(line, "struct") && !startsWith(line, "class") &&
                                !startsWith(line, "enum"));
            if (!body)
                continue;
            size_t start = i;
            while (start > 0 && !lines[start - 1].empty() && !startsWith(lines[start - 1], "}") &&
                   !startsWith(lines[start - 1], "//") && !startsWith(lines[start - 1], "#") &&
                   lines[start - 1].back() != ';')
                --start;
            size_t end = i + 1;
            while (end < lines.size() && lines[end] != "}")
                ++end;
            if (end - start + 1 > 60)
                tooLong.push_back(file + ":" + std::to_string(start + 1) + " " + lines[start] +
                                  " (" + std::to_string(end - start + 1) + " lines)");
            i = end;
        }
    }
    EXPECT_EQ(tooLong, std::vector<std::string>{});
}

// lupdate reads the literals handed to tr() and translate(); a helper that hands translate()
// a variable hides every string its callers pass it, and the translation check then cannot
// see them missing (52 of the console's columns and reasons once showed in English). Such
// a call belongs only in a file that marks those strings with QT_TRANSLATE_NOOP.
TEST(Layers, EveryStringTheConsoleShowsIsWhereLupdateReadsIt)
{
    const std::regex hidden(R"(\b(translate\(\s*[^,()]+,|tr\()\s*[A-Za-z_])");
    std::vector<std::string> hiding;
    for (const std::string &file : sources().files) {
        if (!(startsWith(file, "models/") || startsWith(file, "widgets/") ||
              startsWith(file, "app/console/")) ||
            !file.ends_with(".cpp"))
            continue;
        std::ifstream in(kRoot / file);
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        if (text.find("QT_TRANSLATE_NOOP") != std::string::npos)
            continue;
        if (std::smatch match; std::regex_search(text, match, hidden))
            hiding.push_back(file + ": " + match.str());
    }
    EXPECT_EQ(hiding, std::vector<std::string>{});
}

// The fabric's findings in the user's language: a fabric with one finding of every kind,
// each said from its values exactly as the assembly's English says it, and in Chinese
// with the same values and none of the English words.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QTranslator>
#include <set>

#include "fabric/fabricfile.h"
#include "fabric/fabricmodel.h"
#include "models/fabric/findingwords.h"
#include "railnics.h"
#include "testsupport.h"

using namespace meridian;

namespace {

using test::kNow;

// Eight hosts on two rails, with one of each thing the fabric finds wrong.
Fabric fabricWithEveryFinding()
{
    std::vector<HostNic> nics;
    for (int host = 0; host < 8; ++host) {
        for (uint32_t rail = 0; rail < 2; ++rail)
            nics.push_back(test::railHostNic(host, rail, kNow - 30'000));
    }
    nics[0].sample.emplace().counters.linkState = LinkState::Down;  // link down
    nics[2].recentLinkDrops = 4;                                    // flapping
    nics[4].sample.emplace().rxPausePerSecond[3] = 48'000;          // PFC storm
    nics[5].neighborSeenMs = kNow - 30 * 60'000;                    // stale
    nics[6].nic.neighbor.reset();                                   // no neighbour
    nics[8].nic.neighbor->portId = "Ethernet16";                    // claims xm-n2's port
    nics[10].nic.neighbor->systemName = "leaf-x";                   // not in the file
    nics[12].nic.pfcEnabledPriorities = {3, 4};                     // PFC mismatch
    nics[15].nic.neighbor->systemName = "leaf-r0";                  // rail 1 on a rail-0 leaf
    nics[15].nic.neighbor->portId = "Ethernet99";
    auto file = parseFabricFile(R"(data_centers:
  - name: xiamen
    spines: [spine-1]
    leaves:
      - {name: leaf-r0, pod: 0, rail: 0, pfc_priorities: [3], uplink_gbps: 1600}
      - {name: leaf-r1, pod: 0, rail: 1, pfc_priorities: [3], uplink_gbps: 1600}
)",
                                "fabric.yaml");
    EXPECT_TRUE(file.ok());
    return assembleFabric(nics, &file.value(), kNow);
}

}  // namespace

TEST(FindingWords, EveryKindIsSaidFromItsValuesAsTheEnglishSaysIt)
{
    const Fabric fabric = fabricWithEveryFinding();
    std::set<FindingKind> kinds;
    for (const FabricFinding &f : fabric.findings) {
        kinds.insert(f.kind);
        EXPECT_EQ(findingWords(f).toStdString(), f.what) << findingTitle(f.kind).toStdString();
        EXPECT_EQ(findingTitle(f.kind).toStdString(), findingKindName(f.kind));
    }
    EXPECT_EQ(kinds.size(), 9u) << "one finding of every kind";
    // A finding whose values are not all there keeps its English rather than a "%2".
    FabricFinding short_ = fabric.findings.front();
    short_.facts.pop_back();
    EXPECT_EQ(findingWords(short_).toStdString(), short_.what);
}

TEST(FindingWords, InChineseTheFindingsSpeakChineseWithTheSameValues)
{
    const Fabric fabric = fabricWithEveryFinding();
    QTranslator chinese;
    ASSERT_TRUE(
        chinese.load(QStringLiteral("meridian_zh_CN"), QStringLiteral(MERIDIAN_TRANSLATIONS_DIR)));
    QCoreApplication::installTranslator(&chinese);
    for (const FabricFinding &f : fabric.findings) {
        const QString line = findingLine(f);
        EXPECT_NE(findingWords(f).toStdString(), f.what) << "left in English: " << f.what;
        for (const std::string &fact : f.facts)
            EXPECT_TRUE(line.contains(QString::fromStdString(fact)))
                << fact << " missing from " << line.toStdString();
        EXPECT_TRUE(line.contains(QStringLiteral("厦门"))) << line.toStdString();
    }
    QCoreApplication::removeTranslator(&chinese);
}

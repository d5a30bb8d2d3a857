#include "findingwords.h"

#include <QCoreApplication>

#include "models/placenames.h"

namespace meridian {

namespace {

// The words' translation context, in a form lupdate reads.
struct FabricFindings {
    Q_DECLARE_TR_FUNCTIONS(FabricFindings)
};

// How many values each kind's words take.
size_t factsOf(FindingKind kind)
{
    switch (kind) {
    case FindingKind::NoNeighbor: return 0;
    case FindingKind::UnknownSwitch:
    case FindingKind::LinkDown: return 2;
    case FindingKind::LinkFlapping:
    case FindingKind::PfcStorm:
    case FindingKind::StaleNeighbor: return 3;
    case FindingKind::PortClaimedTwice:
    case FindingKind::PfcMismatch:
    case FindingKind::WrongLeaf: return 4;
    }
    return 0;
}

QString wordsFor(FindingKind kind)
{
    switch (kind) {
    case FindingKind::NoNeighbor:
        return FabricFindings::tr("the link is up but no LLDP neighbour names its switch");
    case FindingKind::UnknownSwitch:
        return FabricFindings::tr("%1 is not in the fabric file (%2 sees it)");
    case FindingKind::LinkDown:
        return FabricFindings::tr("down (to %1 %2): its rail's traffic takes the other NICs");
    case FindingKind::LinkFlapping:
        return FabricFindings::tr(
            "went down %1 times in ten minutes (to %2 %3): replace the cable or transceiver");
    case FindingKind::PfcStorm:
        return FabricFindings::tr(
            "%1 pause frames/s with %2 %3: a stuck receiver is holding the fabric; isolate its "
            "port");
    case FindingKind::StaleNeighbor:
        return FabricFindings::tr("%1 %2 not reported for %3 min; drawn as last seen");
    case FindingKind::PortClaimedTwice:
        return FabricFindings::tr("%1 %2 is claimed by %3 and by %4");
    case FindingKind::PfcMismatch:
        return FabricFindings::tr(
            "PFC on priorities %1 on the host, %2 on %3 %4: pauses will not be honoured and "
            "lossless traffic drops");
    case FindingKind::WrongLeaf:
        return FabricFindings::tr(
            "rail %1 NIC is cabled to %2 %3, a rail %4 leaf: its traffic crosses the spines");
    }
    return {};
}

}  // namespace

QString findingTitle(FindingKind kind)
{
    switch (kind) {
    case FindingKind::WrongLeaf: return FabricFindings::tr("wrong leaf");
    case FindingKind::PfcMismatch: return FabricFindings::tr("PFC mismatch");
    case FindingKind::StaleNeighbor: return FabricFindings::tr("stale neighbour");
    case FindingKind::NoNeighbor: return FabricFindings::tr("no neighbour");
    case FindingKind::PortClaimedTwice: return FabricFindings::tr("port claimed twice");
    case FindingKind::UnknownSwitch: return FabricFindings::tr("unknown switch");
    case FindingKind::LinkDown: return FabricFindings::tr("link down");
    case FindingKind::LinkFlapping: return FabricFindings::tr("link flapping");
    case FindingKind::PfcStorm: return FabricFindings::tr("PFC storm");
    }
    return FabricFindings::tr("finding");
}

QString findingWords(const FabricFinding &finding)
{
    if (finding.facts.size() != factsOf(finding.kind))
        return QString::fromStdString(finding.what);
    QString words = wordsFor(finding.kind);
    for (const std::string &fact : finding.facts)
        words = words.arg(QString::fromStdString(fact));
    return words;
}

QString findingLine(const FabricFinding &finding)
{
    return FabricFindings::tr("[%1] %2 — %3: %4")
        .arg(dataCenterTitle(finding.dataCenter), findingTitle(finding.kind),
             QString::fromStdString(finding.where), findingWords(finding));
}

}  // namespace meridian

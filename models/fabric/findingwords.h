// A fabric finding in the user's language: its kind as a title and what it says, from the
// values the assembly kept (FabricFinding::facts), not from its English sentence.
#pragma once

#include <QString>

#include "fabric/fabricmodel.h"

namespace meridian {

QString findingTitle(FindingKind kind);
// What the finding says, translated; its English words where its values are not all there.
QString findingWords(const FabricFinding &finding);
// The list's line: "[Wuhu] link down — wh-r40-n2 ens1np0: down (to … Ethernet232) …".
QString findingLine(const FabricFinding &finding);

}  // namespace meridian

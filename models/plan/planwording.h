// The plan in the user's words, one source for the Plan view and its PDF: what was picked
// (or how the backtest did), what the plan is unsure of, and its table's rows: the pick,
// each card model's cheapest mix and the simple rules (or the backtest's rows), with the
// points its chart marks.
#pragma once

#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

#include "planloader.h"

namespace meridian {

struct PlanRow {
    QString what;  // "Recommended", "Rule: own the peak", …
    Mix mix;
    MixOutcome outcome;
    bool marked = false;  // drawn on the chart beside the front
};

QString planHeadline(const PlanLoaded &loaded);
QString planUnsure(const PlanLoaded &loaded);
QString planStatus(const PlanLoaded &loaded);
QStringList planTableHeader();
std::vector<PlanRow> planRows(const PlanLoaded &loaded);
QStringList planRowCells(const PlanLoaded &loaded, const PlanRow &row);
// The front drawn behind the marked rows (empty for a backtest).
std::vector<PlanCandidate> planFront(const PlanLoaded &loaded);
// The name the pick's point carries on the chart (drawn larger than the others).
QString planPickName();

}  // namespace meridian

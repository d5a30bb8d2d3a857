// The plan as a PDF a manager files with next quarter's budget: what was picked and what
// the plan is unsure of, its chart, and its table (the pick, each card model's cheapest
// and the simple rules; or the backtest's rows), in the user's language, A4.
#pragma once

#include <QString>

#include "core/result.h"
#include "models/plan/planloader.h"
#include "widgets/pdfpages.h"

namespace meridian {

Status writePlanPdf(const QString &path, const PlanLoaded &loaded, PdfFacts *facts = nullptr);

}  // namespace meridian

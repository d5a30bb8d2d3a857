#include "planpdf.h"

#include <QCoreApplication>
#include <QPalette>

#include "models/plan/planwording.h"
#include "planchart.h"

namespace meridian {

namespace {

struct PlanPdf {
    Q_DECLARE_TR_FUNCTIONS(PlanWindow)
};

}  // namespace

Status writePlanPdf(const QString &path, const PlanLoaded &loaded, PdfFacts *facts)
{
    if (!loaded.plan && !loaded.backtest)
        return Error{PlanPdf::tr("%1: no plan to write").arg(path).toStdString()};
    const std::vector<PlanRow> rows = planRows(loaded);
    QList<QStringList> table;
    for (const PlanRow &row : rows)
        table << planRowCells(loaded, row);
    const QString title = loaded.backtest ? PlanPdf::tr("Plan, held to the week after")
                                          : PlanPdf::tr("Plan: own, contract, rent");
    return writeA4Pdf(
        path, PlanPdf::tr("Meridian capacity plan"),
        [&](PdfPages &pages) {
            pages.text(title, 18, true);
            pages.text(QString::fromStdString(loaded.plan ? loaded.plan->service
                                                          : loaded.asked.demandFile.toStdString()),
                       10, false, QColor(0x44, 0x44, 0x44));
            pages.advance(6);
            pages.text(planHeadline(loaded), 11, true);
            if (const QString unsure = planUnsure(loaded); !unsure.isEmpty())
                pages.text(unsure, 10, false, QColor(0xb3, 0x59, 0x00));
            pages.advance(6);
            pages.chart(makePlanChart(planFront(loaded), rows, QPalette()), 300);
            pages.table(planTableHeader(), table, 0);
            pages.text(planStatus(loaded), 8, false, QColor(0x66, 0x66, 0x66));
        },
        facts);
}

}  // namespace meridian

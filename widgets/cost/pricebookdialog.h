// Editing the price book: prices per card model, vendor and data center with the time
// they apply from, and contracts. A price already in force is history: only its end can
// be set; a change is a new row from now on, so no edit ever re-prices the past. Saved
// to the user's own copy, checked by loading it back first.
#pragma once

#include <QDialog>

#include "core/result.h"
#include "models/cost/pricebookfiles.h"

class QLabel;
class QTableWidget;

namespace meridian {

class PriceBookDialog final : public QDialog {
    Q_OBJECT
public:
    // nowUnixS: what counts as the past (rows that start before it are locked).
    PriceBookDialog(const PriceBook &book, QString saveTo, int64_t nowUnixS,
                    QWidget *parent = nullptr);

    QTableWidget *prices() const { return m_prices; }
    QTableWidget *contracts() const { return m_contracts; }
    // A new price row from the next midnight UTC, ready to fill in.
    void addPrice();
    void addContract();
    // Reads the tables; on a mistake names the table and row, and saves nothing.
    Result<PriceBook> edited() const;
    Status save();
    QString problem() const;

Q_SIGNALS:
    void saved(const QString &path);

private:
    // One row of each table, checked; the error names the table and the row.
    Result<PriceRule> editedRule(int row) const;
    Result<Contract> editedContract(int row) const;
    void fill(const PriceBook &book);
    void lockPast(QTableWidget *table, int row, int64_t fromUnixS, int editableColumn);

    QTableWidget *m_prices;
    QTableWidget *m_contracts;
    QLabel *m_problem;
    QString m_saveTo;
    int64_t m_nowUnixS;
};

}  // namespace meridian

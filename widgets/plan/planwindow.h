// Reports → Plan: what a service should own, contract and rent, from its demand, for a
// manager preparing a budget. A demand file and the service's size at its peak are
// asked; the plan comes back off the UI thread (PlanLoader) with its pick, what it is
// unsure of, the front of mixes (each cheaper only by keeping fewer requests inside, drawn
// with the pick and the simple rules) and a table of the pick, each card model's cheapest
// and the rules. Backtest plans from the first week and judges on the week after.
#pragma once

#include <QWidget>

#include "core/result.h"
#include "models/plan/planloader.h"

class QChartView;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace meridian {

class PlanWindow final : public QWidget {
    Q_OBJECT
public:
    explicit PlanWindow(QWidget *parent = nullptr);

    void setDemandFile(const QString &path);
    // The history file whose recorded services can be planned from (listed beside "a
    // demand file"); a file that cannot be read is said, and files still serve.
    void setHistoryFile(const QString &path);
    // Plans from what this service's controller recorded in the history file.
    void chooseRecordedService(const QString &service);
    QStringList recordedServices() const;
    // The price book in force, whose cost side (`card_costs:`) is used when no costs file
    // is chosen.
    void setPriceBook(const QString &path) { m_priceBook = path; }
    void plan(bool backtest);
    const PlanLoaded &latest() const { return m_loader->latest(); }
    QTableWidget *table() const { return m_table; }
    QChartView *chart() const { return m_chart; }
    QString headline() const;
    QString unsure() const;
    QString status() const;
    // The plan shown, as a PDF: its words, chart and table.
    Status exportPdf(const QString &path) const;

Q_SIGNALS:
    void shown();

private:
    QWidget *buildControls();
    // Where the demand comes from: a file, or a service the history file recorded.
    QHBoxLayout *buildSourceRow(QWidget *row);
    void showLoaded();
    void addRow(const QStringList &cells);

    PlanLoader *m_loader;
    QComboBox *m_source = nullptr;  // a demand file, or a recorded service
    QPushButton *m_browse = nullptr;
    QString m_historyFile;
    QLineEdit *m_demand = nullptr;
    QLineEdit *m_costs = nullptr;
    QSpinBox *m_peak = nullptr;
    QPushButton *m_plan = nullptr;
    QPushButton *m_backtest = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_unsure = nullptr;
    QChartView *m_chart = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_status = nullptr;
    QString m_priceBook;
};

}  // namespace meridian

// Reports for managers: utilisation and cost for any period, by data center, vendor,
// card model, node or inference service; busy against idle card-hours and what idle
// cost; cloud burst spend; the trend per day or week; export to CSV and PDF; the price
// book editor; how fast alerts were answered (Fault response…). Reports are built on a worker
// thread from the history file, so the window never freezes, even over a year of 6,000 cards.
#pragma once

#include <QDate>
#include <QWidget>

#include "core/clock.h"
#include "core/result.h"
#include "models/cost/reportbuilder.h"
#include "reportsources.h"

class QChartView;
class QComboBox;
class QDateEdit;
class QHBoxLayout;
class QSplitter;
class QLabel;
class QPushButton;
class QTableView;

namespace meridian {

class CloudSpendModel;
class FaultResponseWindow;
class ReportTableModel;

class ReportsWindow final : public QWidget {
    Q_OBJECT
public:
    // `clock` says what today is (the presets) and what now is (running leases billed to
    // it); it must outlive the window.
    explicit ReportsWindow(ReportSources sources, QWidget *parent = nullptr,
                           const Clock &clock = SystemClock::instance());
    ~ReportsWindow() override;

    enum class Preset {
        Today,
        Last7Days,
        ThisMonth,
        LastMonth,
        Last30Days,
        ThisQuarter,
        YearToDate,
        Custom
    };
    // The days a preset covers on `today` (UTC), the last one included.
    static std::pair<QDate, QDate> presetDays(Preset preset, const QDate &today);
    void setPreset(Preset preset);
    // Dates are UTC days; `lastDay` is included.
    void setPeriod(const QDate &firstDay, const QDate &lastDay);
    void setGroup(ReportGroup group);
    void setWeekly(bool weekly);
    // Builds the report in the background; reportReady() or reportFailed() follows.
    void refresh();
    bool building() const;

    ReportTableModel *table() const { return m_model; }
    const LoadedReport &built() const;
    QString statusText() const;
    // The groups table at `path`; with cloud leases, their table beside it
    // (name-cloud.csv). Each row carries the period.
    Status exportCsv(const QString &path) const;
    // "meridian-report-2026-12-01_2026-12-03-by-dc": what a saved file is called.
    QString defaultFileName() const;
    QString tile(int index) const;
    Status exportPdf(const QString &path) const;
    void editPrices();
    // How fast alerts were answered over this window's period, in a window of its own.
    FaultResponseWindow *showFaultResponse();

Q_SIGNALS:
    void reportReady();
    void reportFailed(const QString &why);
    void pricesSaved(const QString &path);

private:
    void buildControls();
    QHBoxLayout *buildPeriodBar(QPushButton *&prices);
    QSplitter *buildTablesAndCharts();
    void connectControls(QPushButton *prices);
    void showBuilt();
    void showTiles(const UsageReport &report, const UsageReport *previous);
    void showCharts(const UsageReport &report);
    QString reportStatus(const UsageReport &report) const;
    ReportRequest request() const;

    ReportSources m_sources;
    const Clock &m_clock;
    ReportTableModel *m_model;
    QComboBox *m_preset = nullptr;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    QComboBox *m_group = nullptr;
    QComboBox *m_bucket = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_csv = nullptr;
    QPushButton *m_pdf = nullptr;
    QPushButton *m_response = nullptr;
    FaultResponseWindow *m_faultResponse = nullptr;
    QLabel *m_cost = nullptr;
    QLabel *m_idle = nullptr;
    QLabel *m_hours = nullptr;
    QLabel *m_cloud = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_coverage = nullptr;
    QTableView *m_view = nullptr;
    QWidget *m_charts = nullptr;
    QChartView *m_trendView = nullptr;
    QChartView *m_costView = nullptr;
    QTableView *m_leases = nullptr;
    CloudSpendModel *m_leasesModel = nullptr;
    ReportBuilder *m_builder;
};

}  // namespace meridian

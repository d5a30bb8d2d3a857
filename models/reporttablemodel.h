// A utilisation/cost report as a table: one row per group, the total pinned last.
// Sorting (by clicking a header) orders the groups and leaves the total at the bottom.
// A new report replaces the table whole. Lives on the UI thread.
#pragma once

#include <QAbstractTableModel>

#include "cost/usagereport.h"

namespace meridian {

class ReportTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Group,
        Cards,
        CardHours,
        BusyPercent,
        MeanUtilization,
        IdleCardHours,
        Cost,
        IdleCost,
        Energy,
        Unpriced,
        ColumnCount
    };

    explicit ReportTableModel(QObject *parent = nullptr);

    void setReport(const UsageReport &report);
    const UsageReport &report() const { return m_report; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    // The group's name as a person reads it ("Xiamen", "(no service)").
    static QString groupTitle(ReportGroup group, const std::string &name);
    static QString groupHeader(ReportGroup group);

private:
    const ReportRow &rowAt(int row) const;
    static double value(const ReportRow &row, int column);

    UsageReport m_report;
};

}  // namespace meridian

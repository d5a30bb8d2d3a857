// A utilisation/cost report as a table: one row per group, then the total. The view
// sorts through ReportSortProxy, which orders the groups by a header's figure (names in
// natural order) and leaves the total at the bottom. A new report replaces the table
// whole. Lives on the UI thread.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "cost/usagereport.h"

namespace meridian {

class ReportTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Group,
        Cards,
        CardHours,
        Coverage,  // of the card-hours the group's cards would give over the period
        BusyPercent,
        MeanUtilization,
        IdleCardHours,
        Cost,
        IdleCost,
        Energy,
        Unpriced,
        ColumnCount
    };

    static constexpr int SortRole = Qt::UserRole + 1;   // the figure; the group's own name
    static constexpr int TotalRole = Qt::UserRole + 2;  // true on the total's row

    explicit ReportTableModel(QObject *parent = nullptr);

    void setReport(const UsageReport &report);
    const UsageReport &report() const { return m_report; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The group's name as a person reads it ("Xiamen", "(no service)").
    static QString groupTitle(ReportGroup group, const std::string &name);
    static QString groupHeader(ReportGroup group);

private:
    const ReportRow &rowAt(int row) const;
    double value(const ReportRow &row, int column) const;

    UsageReport m_report;
};

class ReportSortProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ReportSortProxy(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

}  // namespace meridian

// The alert list for triage: one row per alert, merged by alert key on every update
// (insert, remove, dataChanged: never a reset), newest activity sortable through the
// SortRole. Lives on the UI thread.
#pragma once

#include <vector>

#include "alerts/alert.h"
#include "models/keyedtablemodel.h"

namespace meridian {

class AlertCenter;

class AlertsModel final : public KeyedTableModel<Alert> {
    Q_OBJECT
public:
    enum Column {
        Severity,
        What,
        Where,
        DataCenter,
        Since,  // how long it has been going on
        FirstSeen,
        LastSeen,
        Count,
        State,
        NextStep,
        Note,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    // The Severity column sorts by rank, then by when the occurrence began: each rank
    // spans this many milliseconds (past the year 2286).
    static constexpr qlonglong kRankSpanMs = 10'000'000'000'000LL;
    static constexpr int KeyRole = Qt::UserRole + 2;

    explicit AlertsModel(QObject *parent = nullptr);
    // Follows the center: its list, merged at every change.
    explicit AlertsModel(const AlertCenter &center, QObject *parent = nullptr);

    void setAlerts(std::vector<Alert> alerts, int64_t nowMs);
    const Alert *alertAt(int row) const;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static QString stateText(const Alert &alert, int64_t nowMs);
    // "45 s", "12 min", "3 h 5 min", "2 d 4 h".
    static QString durationText(int64_t ms);
    // A time with its zone, so consoles in two time zones read the same moment.
    static QString timeText(int64_t unixMs);

private:
    int64_t m_nowMs = 0;
};

}  // namespace meridian

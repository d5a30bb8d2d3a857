// The fault-response clock as a table for the Reports window: one row per week, data
// center, kind or person, then the total. Loaded from the history file on a worker thread
// (Qt Concurrent); a load asked for while one runs follows it with the newest choices
// only. Lives on the UI thread.
#pragma once

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <optional>
#include <vector>

#include "alerts/responseclock.h"
#include "core/result.h"

namespace meridian {

class FaultResponseModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Group,
        Incidents,
        MedianToAcknowledge,
        P90ToAcknowledge,
        AcknowledgedInTime,
        MedianToResolve,
        P90ToResolve,
        ResolvedInTime,
        Open,
        ColumnCount
    };

    struct Ask {
        QString historyFile;
        int64_t fromMs = 0;
        int64_t toMs = 0;
        ResponseGrouping grouping = ResponseGrouping::Week;
        ResponseTargets targets;
    };

    explicit FaultResponseModel(QObject *parent = nullptr);
    ~FaultResponseModel() override;

    void load(const Ask &ask);
    bool loading() const { return m_watcher.isRunning(); }
    // The last load's problem, in words; empty when it loaded.
    const QString &problem() const { return m_problem; }
    const std::vector<ResponseRow> &rows() const { return m_rows; }
    const Ask &shown() const { return m_shown; }
    std::string csv() const { return responseToCsv(m_rows, m_shown.grouping); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static QString groupingTitle(ResponseGrouping grouping);

Q_SIGNALS:
    void loaded();

private:
    struct Loaded {
        Ask ask;
        Result<std::vector<ResponseRow>> rows = Error{""};
    };
    static Loaded read(const Ask &ask);
    void start(const Ask &ask);
    void take();

    QFutureWatcher<Loaded> m_watcher;
    std::optional<Ask> m_next;
    Ask m_shown;
    std::vector<ResponseRow> m_rows;
    QString m_problem;
};

}  // namespace meridian

// How fast alerts were answered, for managers and the on-call lead: time from an alert
// being sent to its acknowledgement and to its resolution, by week, data center, kind or
// person, with the share acknowledged within the escalation time and resolved within the
// hour promised to customers. Opened from the Reports window for its period; exports CSV
// and PDF. Read off the UI thread (FaultResponseModel).
#pragma once

#include <QDate>
#include <QWidget>

#include "core/result.h"

class QComboBox;
class QDateEdit;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace meridian {

class FaultResponseModel;

class FaultResponseWindow final : public QWidget {
    Q_OBJECT
public:
    FaultResponseWindow(const QString &historyFile, const QDate &firstDay, const QDate &lastDay,
                        QWidget *parent = nullptr);

    // Dates are UTC days; `lastDay` is included.
    void setPeriod(const QDate &firstDay, const QDate &lastDay);
    void refresh();
    FaultResponseModel *model() const { return m_model; }
    QString statusText() const;
    Status exportCsv(const QString &path) const;
    Status exportPdf(const QString &path) const;

Q_SIGNALS:
    void refreshed();

private:
    QString periodText() const;
    // The period, grouping and threshold, and the buttons, in one row.
    QHBoxLayout *controlRow(QPushButton *refresh, QPushButton *csv, QPushButton *pdf);
    // Asks where, then writes the table there with `write`; says how it went.
    void saveAs(const QString &title, const QString &extension, const QString &filter,
                Status (FaultResponseWindow::*write)(const QString &) const);
    void showLoaded();

    QString m_historyFile;
    FaultResponseModel *m_model;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    QComboBox *m_grouping = nullptr;
    QSpinBox *m_ackWithin = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_status = nullptr;
};

}  // namespace meridian

// Where alerts go, as the routing file says, and how delivery is going: per route what
// it takes, how many were delivered, what failed last; a test button per route and one
// for the desktop.
#pragma once

#include <QDialog>

class QLabel;
class QTableView;
class QTimer;

namespace meridian {

class AlertNotifier;
class AlertRoutesModel;
class AlertDesk;

class AlertRoutingDialog final : public QDialog {
    Q_OBJECT
public:
    AlertRoutingDialog(AlertNotifier &notifier, AlertDesk *desktop, const QString &routingFile,
                       QWidget *parent = nullptr);
    // Sends the test notice to the selected route (off the UI thread).
    void testSelected();
    QString lastTestResult() const;
    QTableView *table() const { return m_table; }

Q_SIGNALS:
    void testFinished(const QString &result);

private:
    void refresh();

    AlertNotifier &m_notifier;
    AlertDesk *m_desktop;
    AlertRoutesModel *m_routes;
    QTableView *m_table;
    QLabel *m_result;
};

}  // namespace meridian

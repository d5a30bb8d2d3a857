// The inference services file, edited as the YAML it is: Save checks it exactly as the
// autoscaler will load it and writes the user's copy only when it loads cleanly; an
// error names the line.
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace meridian {

class ServicesDialog final : public QDialog {
    Q_OBJECT
public:
    ServicesDialog(const QString &servicesFile, QString userFile, QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QString problem() const;
    // Checks and saves; false with the problem shown when it does not load.
    bool save();

Q_SIGNALS:
    void saved(const QString &path);

private:
    QString m_userFile;
    QPlainTextEdit *m_editor = nullptr;
    QLabel *m_problem = nullptr;
};

}  // namespace meridian

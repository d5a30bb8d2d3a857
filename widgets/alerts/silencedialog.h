// Silencing from an alert: this alert, its kind on its node, everything on its node, its
// kind in its data center, or everything there; for how long and why. What it makes is a
// SilenceRule, shared through the history file.
#pragma once

#include <QDialog>

#include "models/alerts/alertcenter.h"

class QComboBox;
class QLineEdit;
class QPushButton;

namespace meridian {

class SilenceDialog final : public QDialog {
    Q_OBJECT
public:
    enum class Scope { ThisAlert, KindOnNode, Node, KindInDataCenter, DataCenter };

    SilenceDialog(const Alert &alert, int64_t nowMs, QWidget *parent = nullptr);
    SilenceRule rule() const;
    void setScope(Scope scope);
    void setHours(int hours);
    void setReason(const QString &reason);

    static SilenceRule ruleFor(const Alert &alert, Scope scope, int64_t untilMs);

private:
    Alert m_alert;
    int64_t m_nowMs;
    QComboBox *m_scope;
    QComboBox *m_duration;
    QLineEdit *m_reason;
    QPushButton *m_ok;
};

}  // namespace meridian

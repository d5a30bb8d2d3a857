#include "silencedialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>

#include "models/alerts/alertguidance.h"
#include "models/metricscale.h"

namespace meridian {

SilenceDialog::SilenceDialog(const Alert &alert, int64_t nowMs, QWidget *parent)
    : QDialog(parent), m_alert(alert), m_nowMs(nowMs)
{
    setWindowTitle(tr("Silence"));
    const QString kind = alertKindTitle(alert.kind);
    const QString node = QString::fromStdString(alert.nodeName);
    const QString dc = dataCenterTitle(alert.dataCenter);
    m_scope = new QComboBox(this);
    m_scope->addItem(tr("This alert: %1").arg(alertWhere(alert)),
                     static_cast<int>(Scope::ThisAlert));
    if (!alert.nodeName.empty()) {
        m_scope->addItem(tr("%1 on %2").arg(kind, node), static_cast<int>(Scope::KindOnNode));
        m_scope->addItem(tr("Everything on %1").arg(node), static_cast<int>(Scope::Node));
    }
    if (!alert.dataCenter.empty()) {
        m_scope->addItem(tr("%1 in %2").arg(kind, dc), static_cast<int>(Scope::KindInDataCenter));
        m_scope->addItem(tr("Everything in %1").arg(dc), static_cast<int>(Scope::DataCenter));
    }
    m_duration = new QComboBox(this);
    for (int hours : {1, 4, 8, 24, 72})
        m_duration->addItem(tr("%n hour(s)", nullptr, hours), hours);
    m_reason = new QLineEdit(this);
    m_reason->setPlaceholderText(tr("Why (seen by every console on this history file)"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Silence"));
    // A silence quiets the whole team's pages: it says why, as the watcher requires too.
    m_ok->setEnabled(false);
    m_ok->setToolTip(tr("Say why first: every console and receiver shows the reason"));
    connect(m_reason, &QLineEdit::textChanged, this, [this](const QString &text) {
        const bool given = !text.trimmed().isEmpty();
        m_ok->setEnabled(given);
        m_ok->setToolTip(given ? QString()
                               : tr("Say why first: every console and receiver shows the reason"));
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *form = new QFormLayout(this);
    form->addRow(tr("What"), m_scope);
    form->addRow(tr("For"), m_duration);
    form->addRow(tr("Reason"), m_reason);
    form->addRow(buttons);
}

SilenceRule SilenceDialog::ruleFor(const Alert &alert, Scope scope, int64_t untilMs)
{
    SilenceRule rule;
    rule.untilMs = untilMs;
    switch (scope) {
    case Scope::ThisAlert: rule.alertKey = alert.key; break;
    case Scope::KindOnNode:
        rule.kind = alert.kind;
        rule.node = alert.nodeName;
        break;
    case Scope::Node: rule.node = alert.nodeName; break;
    case Scope::KindInDataCenter:
        rule.kind = alert.kind;
        rule.dataCenter = alert.dataCenter;
        break;
    case Scope::DataCenter: rule.dataCenter = alert.dataCenter; break;
    }
    return rule;
}

SilenceRule SilenceDialog::rule() const
{
    const auto scope = static_cast<Scope>(m_scope->currentData().toInt());
    const int64_t until = m_nowMs + m_duration->currentData().toLongLong() * 3600'000LL;
    SilenceRule rule = ruleFor(m_alert, scope, until);
    rule.reason = m_reason->text().trimmed().toStdString();
    return rule;
}

void SilenceDialog::setScope(Scope scope)
{
    const int index = m_scope->findData(static_cast<int>(scope));
    if (index >= 0)
        m_scope->setCurrentIndex(index);
}

void SilenceDialog::setHours(int hours)
{
    const int index = m_duration->findData(hours);
    if (index >= 0)
        m_duration->setCurrentIndex(index);
}

void SilenceDialog::setReason(const QString &reason)
{
    m_reason->setText(reason);
}

}  // namespace meridian

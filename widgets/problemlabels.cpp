#include "problemlabels.h"

#include <QLabel>
#include <QStatusBar>

namespace meridian {

void ProblemLabels::show(const QString &cause, const QString &text)
{
    QLabel *&label = m_labels[cause];
    if (!label) {
        label = new QLabel(m_bar);
        label->setStyleSheet(QStringLiteral("color: #d62728"));
        m_bar->addPermanentWidget(label);
    }
    label->setText(text);
    label->setToolTip(text);
    label->setVisible(!text.isEmpty());
}

QString ProblemLabels::text(const QString &cause) const
{
    const auto it = m_labels.find(cause);
    return it == m_labels.end() ? QString() : it->second->text();
}

}  // namespace meridian

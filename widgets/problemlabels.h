// Lasting problems in a window's status bar, each in its own red label that stays until
// its cause says it has ended (the history file cannot be written, the fleet's source does
// not answer): unlike a status message, none is pushed away by the next.
#pragma once

#include <QString>
#include <map>

class QLabel;
class QStatusBar;

namespace meridian {

class ProblemLabels {
public:
    explicit ProblemLabels(QStatusBar *bar) : m_bar(bar) {}
    // Shows `text` under `cause`; an empty text takes it away.
    void show(const QString &cause, const QString &text);
    QString text(const QString &cause) const;

private:
    QStatusBar *m_bar;
    std::map<QString, QLabel *> m_labels;  // owned by the bar
};

}  // namespace meridian

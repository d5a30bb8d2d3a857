#include "timemachinebar.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>

#include "widgets/elidedlabel.h"

namespace meridian {

namespace {

constexpr int kWeekMinutes = 7 * 24 * 60;
constexpr int kAlertsNamed = 3;

QString timeText(int64_t unixMs, const char *format)
{
    return QDateTime::fromMSecsSinceEpoch(unixMs).toString(QString::fromLatin1(format));
}

}  // namespace

TimeMachineBar::TimeMachineBar(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *title = new QLabel(tr("Time"), this);
    title->setToolTip(
        tr("Drag back through the last 7 days of the history file: each card's "
           "utilisation that minute (that hour beyond a day), the alerts open "
           "then, the scaling steps taken"));
    layout->addWidget(title);
    // Minutes back from now: the right end is live.
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(-kWeekMinutes, 0);
    m_slider->setValue(0);
    m_slider->setPageStep(60);
    m_slider->setSingleStep(1);
    m_slider->setToolTip(title->toolTip());
    layout->addWidget(m_slider, 3);
    m_when = new QLabel(this);
    m_when->setObjectName(QStringLiteral("timeMachineWhen"));
    layout->addWidget(m_when);
    // What was open then is cut to the room the bar has, whole in its tooltip: a moment
    // with many alerts never widens the window.
    m_then = new ElidedLabel(this);
    m_then->setObjectName(QStringLiteral("timeMachineThen"));
    layout->addWidget(m_then, 2);
    m_liveButton = new QPushButton(tr("Live"), this);
    m_liveButton->setToolTip(tr("Back to the fleet as it is now"));
    layout->addWidget(m_liveButton);
    connect(m_slider, &QSlider::valueChanged, this, &TimeMachineBar::sliderMoved);
    connect(m_liveButton, &QPushButton::clicked, this, &TimeMachineBar::goLive);
    goLive();
}

void TimeMachineBar::setNow(int64_t nowUnixMs)
{
    m_nowUnixMs = nowUnixMs;
}

void TimeMachineBar::goLive()
{
    {
        const QSignalBlocker quiet(m_slider);
        m_slider->setValue(0);
    }
    const bool wasLive = m_live;
    m_live = true;
    m_when->setText(tr("Live"));
    m_when->setStyleSheet(QString());
    m_then->setFullText(QString());
    m_then->setToolTip(QString());
    m_liveButton->hide();  // live already: the label says so
    if (!wasLive)
        Q_EMIT liveChosen();
}

void TimeMachineBar::sliderMoved(int minute)
{
    if (minute >= 0) {
        goLive();
        return;
    }
    m_live = false;
    m_liveButton->show();
    const int64_t at = m_nowUnixMs + static_cast<int64_t>(minute) * 60'000;
    // Said at once, read when the file answers: the drag never waits for it.
    m_when->setText(timeText(at, "ddd MM-dd HH:mm"));
    m_when->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #5c4400; "
                       "padding: 1px 4px; border-radius: 2px; }"));
    Q_EMIT momentChosen(at);
}

void TimeMachineBar::showMoment(const FleetMoment &moment)
{
    if (m_live)
        return;
    if (!moment.problem.empty()) {
        m_then->setFullText(tr("History not read: %1").arg(QString::fromStdString(moment.problem)));
        return;
    }
    const QString grain = moment.grainS >= 3600 ? tr("hour") : tr("minute");
    m_when->setText(tr("%1 (%2)").arg(
        timeText(moment.atUnixMs, moment.grainS >= 3600 ? "ddd MM-dd HH:00" : "ddd MM-dd HH:mm"),
        grain));
    QStringList said;
    if (moment.historyBeginsUnixMs == 0 ||
        moment.atUnixMs + moment.grainS * 1000 <= moment.historyBeginsUnixMs) {
        said << (moment.historyBeginsUnixMs == 0
                     ? tr("the history file holds nothing yet")
                     : tr("before the history file begins (%1)")
                           .arg(timeText(moment.historyBeginsUnixMs, "MM-dd HH:mm")));
    } else {
        said << tr("%1 cards recorded").arg(QLocale().toString(moment.cardsRecorded));
    }
    QStringList alerts;
    for (const AlertIncident &a : moment.openAlerts)
        alerts << openAlertLine(a);
    said << tr("%n alert(s) open", nullptr, static_cast<int>(alerts.size()));
    if (!alerts.isEmpty())
        said.last() += QStringLiteral(": ") +
                       alerts.mid(0, kAlertsNamed).join(QStringLiteral(", ")) +
                       (alerts.size() > kAlertsNamed ? QStringLiteral(", …") : QString());
    said << tr("%n scaling step(s) in the hour before", nullptr,
               static_cast<int>(moment.steps.size()));
    m_then->setFullText(said.join(QStringLiteral(" · ")));
    QStringList tip = {m_then->fullText()};
    tip << alerts;
    for (const JournalStep &s : moment.steps)
        tip << tr("%1 %2: %3 (%4)")
                   .arg(timeText(s.createdUnixMs, "HH:mm"), QString::fromStdString(s.service),
                        QString::fromStdString(s.reason),
                        QString::fromStdString(std::string(stepStateName(s.state))));
    m_then->setToolTip(tip.join(QLatin1Char('\n')));
}

QString TimeMachineBar::momentText() const
{
    return m_when->text() + QStringLiteral(" · ") + m_then->fullText();
}

}  // namespace meridian

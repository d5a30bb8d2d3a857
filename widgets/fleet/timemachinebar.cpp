#include "timemachinebar.h"

#include <QDateTime>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QKeyEvent>
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

// In the user's language ("周一" in Chinese), in local time as the alert list is.
QString timeText(int64_t unixMs, const char *format)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(unixMs), QString::fromLatin1(format));
}

// Keys go where their arrows point: ← and PgUp into the past (a minute, an hour), → and
// PgDn toward now. An hour toward now stops at the last minute of the past: live is a
// choice of its own (→ from there, End, the button), never a page key's overshoot.
class MomentSlider final : public QSlider {
public:
    using QSlider::QSlider;

protected:
    void keyPressEvent(QKeyEvent *event) override
    {
        if (event->key() == Qt::Key_PageUp) {
            setValue(value() - pageStep());
        } else if (event->key() == Qt::Key_PageDown) {
            setValue(value() < 0 ? std::min(value() + pageStep(), -1) : value());
        } else {
            QSlider::keyPressEvent(event);
            return;
        }
        event->accept();
    }
};

// A label as wide as the widest of its texts, so that the slider beside it keeps its
// length and its handle stays under the mouse while the texts change.
void fixWidthFor(QLabel *label, const QStringList &texts)
{
    int widest = 0;
    for (const QString &text : texts)
        widest = std::max(widest, label->fontMetrics().horizontalAdvance(text));
    label->setFixedWidth(widest + 12);  // the past's background has 4 px of padding a side
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
    m_slider = new MomentSlider(Qt::Horizontal, this);
    m_slider->setRange(-kWeekMinutes, 0);
    m_slider->setValue(0);
    m_slider->setPageStep(60);
    m_slider->setSingleStep(1);
    m_slider->setToolTip(title->toolTip() + QLatin1Char('\n') +
                         tr("← → a minute, PgUp an hour back, PgDn an hour toward now, End live"));
    layout->addWidget(m_slider, 3);
    m_box = new QDateTimeEdit(this);
    m_box->setObjectName(QStringLiteral("timeMachineMoment"));
    m_box->setDisplayFormat(QStringLiteral("ddd yyyy-MM-dd HH:mm"));
    m_box->setToolTip(tr("Type a moment of the last 7 days and press Enter"));
    // Sized once, with a little room for the widest weekday: its size hint follows the
    // range, which moves with the clock, and the slider beside it must not.
    m_box->setFixedWidth(m_box->sizeHint().width() +
                         m_box->fontMetrics().horizontalAdvance(QStringLiteral("00")));
    layout->addWidget(m_box);
    m_zone = new QLabel(QDateTime::currentDateTime().timeZoneAbbreviation(), this);
    m_zone->setToolTip(tr("Times are the computer's local time, as in the alert list"));
    layout->addWidget(m_zone);
    m_when = new QLabel(this);
    m_when->setObjectName(QStringLiteral("timeMachineWhen"));
    m_when->setAlignment(Qt::AlignCenter);
    fixWidthFor(m_when, {tr("Live"), tr("minute"), tr("hour")});
    layout->addWidget(m_when);
    // What was open then is cut to the room the bar has, whole in its tooltip: a moment
    // with many alerts never widens the window.
    m_then = new ElidedLabel(this);
    m_then->setObjectName(QStringLiteral("timeMachineThen"));
    layout->addWidget(m_then, 2);
    // Always there, greyed when live: the row's widths never change under the mouse.
    m_liveButton = new QPushButton(tr("Live"), this);
    m_liveButton->setToolTip(tr("Back to the fleet as it is now"));
    layout->addWidget(m_liveButton);
    connect(m_slider, &QSlider::valueChanged, this, &TimeMachineBar::sliderMoved);
    connect(m_liveButton, &QPushButton::clicked, this, &TimeMachineBar::goLive);
    connect(m_box, &QDateTimeEdit::editingFinished, this, &TimeMachineBar::boxEdited);
    goLive();
}

void TimeMachineBar::setNow(int64_t nowUnixMs)
{
    m_nowUnixMs = nowUnixMs;
    const QDateTime now = QDateTime::fromMSecsSinceEpoch(nowUnixMs);
    const QSignalBlocker quiet(m_box);
    m_box->setDateTimeRange(now.addDays(-7), now);
    m_zone->setText(now.timeZoneAbbreviation());
    if (m_live && !m_box->hasFocus())  // never under the fingers of someone typing
        showInBox(nowUnixMs);
}

void TimeMachineBar::showInBox(int64_t unixMs)
{
    const QSignalBlocker quiet(m_box);
    m_box->setDateTime(QDateTime::fromMSecsSinceEpoch(unixMs));
}

void TimeMachineBar::boxEdited()
{
    const int64_t typed = m_box->dateTime().toMSecsSinceEpoch();
    const int64_t shownMinute = m_nowUnixMs + static_cast<int64_t>(m_slider->value()) * 60'000;
    if (typed / 60'000 == shownMinute / 60'000)
        return;  // focus left the box with the moment as it was
    // The minute typed, counted back from now; at or past now is live.
    const int64_t back = (typed - m_nowUnixMs) / 60'000;
    m_slider->setValue(static_cast<int>(std::clamp<int64_t>(back, -kWeekMinutes, 0)));
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
    m_liveButton->setEnabled(false);  // live already: the label says so
    if (!m_box->hasFocus())
        showInBox(m_nowUnixMs);
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
    m_liveButton->setEnabled(true);
    const int64_t at = m_nowUnixMs + static_cast<int64_t>(minute) * 60'000;
    // Said at once, read when the file answers: the drag never waits for it.
    showInBox(at);
    m_when->setText(tr("minute"));
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
    // Beyond a day the file keeps hours: the box shows the hour read, the label says so.
    m_when->setText(moment.grainS >= 3600 ? tr("hour") : tr("minute"));
    showInBox(moment.atUnixMs);
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
    return m_box->text() + QLatin1Char(' ') + m_zone->text() + QStringLiteral(" (") +
           m_when->text() + QStringLiteral(") · ") + m_then->fullText();
}

}  // namespace meridian

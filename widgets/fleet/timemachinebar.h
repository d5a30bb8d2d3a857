// The fleet time machine's bar over the fleet: a slider back through the last 7 days that
// moves a minute with ← and →, an hour with PgUp (into the past) and PgDn (toward now); a
// box to type the moment in, the time zone beside it; what was open then, and one click
// back to live. It only chooses moments; the window reads and draws them.
#pragma once

#include <QWidget>

#include "models/fleet/fleettimemachine.h"

class QDateTimeEdit;
class QLabel;
class QPushButton;
class QSlider;

namespace meridian {

class ElidedLabel;

class TimeMachineBar final : public QWidget {
    Q_OBJECT
public:
    explicit TimeMachineBar(QWidget *parent = nullptr);

    // The live end of the slider moves with the console's clock while it is there.
    void setNow(int64_t nowUnixMs);
    // What was read for the moment chosen: its time, the alerts and steps of then.
    void showMoment(const FleetMoment &moment);
    bool isLive() const { return m_live; }
    QSlider *slider() const { return m_slider; }
    QDateTimeEdit *momentBox() const { return m_box; }
    QString momentText() const;
    // Back to live, as the button does.
    void goLive();

Q_SIGNALS:
    void momentChosen(int64_t atUnixMs);
    void liveChosen();

private:
    void sliderMoved(int minute);
    void boxEdited();
    void showInBox(int64_t unixMs);

    QSlider *m_slider;
    QDateTimeEdit *m_box;
    QLabel *m_zone;
    QLabel *m_when;
    ElidedLabel *m_then;
    QPushButton *m_liveButton;
    int64_t m_nowUnixMs = 0;
    bool m_live = true;
};

}  // namespace meridian

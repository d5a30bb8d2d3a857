// The fleet time machine's bar over the fleet: a slider back through the last 7 days,
// what moment is shown (the minute, or the hour beyond a day), what was open then, and
// one click back to live. It only chooses moments; the window reads and draws them.
#pragma once

#include <QWidget>

#include "models/fleet/fleettimemachine.h"

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
    QString momentText() const;
    // Back to live, as the button does.
    void goLive();

Q_SIGNALS:
    void momentChosen(int64_t atUnixMs);
    void liveChosen();

private:
    void sliderMoved(int minute);

    QSlider *m_slider;
    QLabel *m_when;
    ElidedLabel *m_then;
    QPushButton *m_liveButton;
    int64_t m_nowUnixMs = 0;
    bool m_live = true;
};

}  // namespace meridian

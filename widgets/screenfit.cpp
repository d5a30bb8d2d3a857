#include "screenfit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace meridian {

namespace {

// What a window manager's frame and a desktop panel typically take.
constexpr int kFrameAllowance = 48;

}  // namespace

QSize availableScreenSize(const QWidget *window)
{
    const QScreen *screen = window ? window->screen() : nullptr;
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    return screen ? screen->availableGeometry().size() : QSize(1366, 768);
}

void fitToScreen(QWidget *window, QSize preferred)
{
    const QSize available = availableScreenSize(window);
    const QSize room(available.width() - kFrameAllowance / 2, available.height() - kFrameAllowance);
    window->resize(preferred.boundedTo(room));
    const QScreen *screen = window->screen();
    if (screen && window->isWindow()) {
        QRect frame(QPoint(), window->size());
        frame.moveCenter(screen->availableGeometry().center());
        window->move(frame.topLeft());
    }
}

}  // namespace meridian

// Sizing top-level windows to the screen they open on: a laptop's 1366×768 must show
// every window whole, title bar and buttons included.
#pragma once

#include <QSize>

class QWidget;

namespace meridian {

// Resizes `window` to `preferred`, or to the share of its screen's available area that
// leaves room for a window frame and a panel, whichever is smaller; then centres it.
void fitToScreen(QWidget *window, QSize preferred);

// The size a window's content may take on the screen `window` is on (or the primary one).
QSize availableScreenSize(const QWidget *window);

}  // namespace meridian

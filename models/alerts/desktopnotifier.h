// Desktop notifications through the freedesktop Notifications service on the session
// bus (GNOME, KDE, Xfce, mako, dunst all provide it). Calls are asynchronous: a missing or
// hung notification daemon never holds up the window.
#pragma once

#include <QDBusConnection>
#include <QObject>
#include <QString>

#include "alertdesk.h"

namespace meridian {

class DesktopNotifier final : public QObject, public AlertDesk {
    Q_OBJECT
public:
    explicit DesktopNotifier(QDBusConnection bus = QDBusConnection::sessionBus(),
                             QObject *parent = nullptr);

    bool available() const override { return m_bus.isConnected(); }
    void notify(const QString &summary, const QString &body, bool critical) override;

Q_SIGNALS:
    // The daemon refused or did not answer (empty: it answered).
    void problem(const QString &text);

private:
    QDBusConnection m_bus;
};

}  // namespace meridian

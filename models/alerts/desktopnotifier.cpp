#include "desktopnotifier.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

namespace meridian {

namespace {

const auto kService = QStringLiteral("org.freedesktop.Notifications");
const auto kPath = QStringLiteral("/org/freedesktop/Notifications");

}  // namespace

DesktopNotifier::DesktopNotifier(QDBusConnection bus, QObject *parent)
    : QObject(parent), m_bus(std::move(bus))
{}

void DesktopNotifier::notify(const QString &summary, const QString &body, bool critical)
{
    if (!m_bus.isConnected())
        return;
    QDBusMessage call =
        QDBusMessage::createMethodCall(kService, kPath, kService, QStringLiteral("Notify"));
    QVariantMap hints;
    hints.insert(QStringLiteral("urgency"), QVariant::fromValue<uchar>(critical ? 2 : 1));
    hints.insert(QStringLiteral("category"), QStringLiteral("device.error"));
    call << QStringLiteral("Meridian") << 0u
         << (critical ? QStringLiteral("dialog-error") : QStringLiteral("dialog-warning"))
         << summary << body << QStringList() << hints << (critical ? 0 : 15'000);
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call, 5000), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher] {
        const QDBusPendingReply<uint> reply = *watcher;
        Q_EMIT problem(reply.isError()
                           ? tr("desktop notifications: %1").arg(reply.error().message())
                           : QString());
        watcher->deleteLater();
    });
}

}  // namespace meridian

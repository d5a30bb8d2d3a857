#include "alertcenter.h"

#include <QString>
#include <cstdlib>

namespace meridian {

AlertCenter::AlertCenter(const FleetState &state, QObject *parent) : QObject(parent), m_state(state)
{
    const char *user = std::getenv("USER");
    m_user = user ? user : "operator";
}

void AlertCenter::update(const FleetSnapshot &snapshot)
{
    m_nowMs = snapshot.takenUnixMs;
    m_engine.evaluate(snapshot, m_state.eventsSince(m_eventCounter, &m_eventCounter));
    publish();
}

void AlertCenter::publish()
{
    m_model.setAlerts(m_engine.alerts(), m_nowMs);
    Q_EMIT alertsChanged();
}

int AlertCenter::openCount(const QString &dataCenter) const
{
    return m_engine.openCount(dataCenter.toStdString(), m_nowMs);
}

void AlertCenter::acknowledge(const QString &key)
{
    if (m_engine.acknowledge(key.toStdString(), m_user, m_nowMs))
        publish();
}

void AlertCenter::silence(const QString &key, int64_t untilMs)
{
    if (m_engine.silence(key.toStdString(), untilMs))
        publish();
}

void AlertCenter::setNote(const QString &key, const QString &note)
{
    if (m_engine.setNote(key.toStdString(), note.toStdString()))
        publish();
}

}  // namespace meridian

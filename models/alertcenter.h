// Triage on the UI thread: feeds each snapshot and the events that arrived since the
// last one to the alert engine, keeps the alert list model current, and carries out
// what the on-call engineer does (acknowledge, silence, note).
#pragma once

#include <QObject>
#include <memory>

#include "alerts/alertengine.h"
#include "alertsmodel.h"

namespace meridian {

class AlertCenter final : public QObject {
    Q_OBJECT
public:
    AlertCenter(const FleetState &state, QObject *parent = nullptr);

    void update(const FleetSnapshot &snapshot);
    AlertsModel *model() { return &m_model; }
    const AlertEngine &engine() const { return m_engine; }
    int openCount(const QString &dataCenter) const;

    void acknowledge(const QString &key);
    void silence(const QString &key, int64_t untilMs);
    void setNote(const QString &key, const QString &note);

Q_SIGNALS:
    void alertsChanged();

private:
    void publish();

    const FleetState &m_state;
    AlertEngine m_engine;
    AlertsModel m_model;
    uint64_t m_eventCounter = 0;
    int64_t m_nowMs = 0;
    std::string m_user;
};

}  // namespace meridian

// Where an alert that opens is shown to someone at this machine: the desktop's
// notifications in a console (desktopnotifier.h), nothing in the headless watcher. The
// notifier is handed one, so that it links no desktop service itself.
#pragma once

#include <QString>

namespace meridian {

class AlertDesk {
public:
    virtual ~AlertDesk() = default;
    virtual bool available() const = 0;
    // Critical ones stay until dismissed and ask for urgency; warnings time out.
    virtual void notify(const QString &summary, const QString &body, bool critical) = 0;
};

}  // namespace meridian

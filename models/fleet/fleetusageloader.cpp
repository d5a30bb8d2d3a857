#include "fleetusageloader.h"

#include <QtConcurrent/QtConcurrentRun>

namespace meridian {

FleetUsageLoader::FleetUsageLoader(QString historyFile, QObject *parent)
    : QObject(parent), m_historyFile(std::move(historyFile))
{
    connect(&m_watcher, &QFutureWatcher<FleetUsageLoad>::finished, this, [this] {
        m_latest = m_watcher.result();
        Q_EMIT loaded();
        if (m_next) {
            start(m_next->first, m_next->second);
            m_next.reset();
        }
    });
}

FleetUsageLoader::~FleetUsageLoader()
{
    m_watcher.waitForFinished();  // it reads the file only; never leave it running
}

void FleetUsageLoader::request(int64_t fromUnixS, int64_t toUnixS)
{
    if (loading()) {
        m_next = {fromUnixS, toUnixS};
        return;
    }
    start(fromUnixS, toUnixS);
}

void FleetUsageLoader::start(int64_t fromUnixS, int64_t toUnixS)
{
    const std::string file = m_historyFile.toStdString();
    m_watcher.setFuture(QtConcurrent::run([file, fromUnixS, toUnixS] {
        return FleetUsageLoad{readFleetUsageByHour(file, fromUnixS, toUnixS)};
    }));
}

}  // namespace meridian

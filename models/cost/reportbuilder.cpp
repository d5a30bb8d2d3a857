#include "reportbuilder.h"

#include <QtConcurrent/QtConcurrentRun>

#include "pricebookfiles.h"

namespace meridian {

ReportBuilder::ReportBuilder(QObject *parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<LoadedReport>::finished, this, [this] {
        m_loaded = m_watcher.result();
        Q_EMIT built();
        if (m_next) {
            start(*m_next);  // the newest choices
            m_next.reset();
        }
    });
}

ReportBuilder::~ReportBuilder()
{
    m_watcher.waitForFinished();  // the worker reads files only; never leave it running
}

void ReportBuilder::build(const QString &historyFile, const QString &priceBookFile,
                          const ReportAsk &ask)
{
    const Order order{historyFile, priceBookFile, ask};
    if (building()) {
        m_next = order;
        return;
    }
    start(order);
}

void ReportBuilder::start(const Order &order)
{
    m_watcher.setFuture(QtConcurrent::run([order] {
        auto prices = loadPriceBookFile(order.priceBookFile);
        if (!prices) {
            LoadedReport failed;
            failed.report = prices.error();
            return failed;
        }
        return loadReport(order.historyFile.toStdString(), prices.value(), order.ask);
    }));
}

}  // namespace meridian

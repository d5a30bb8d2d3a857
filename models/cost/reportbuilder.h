// Builds the Reports window's report off the UI thread (Qt Concurrent) through the cost
// room's one loader (cost/reportloader), price book included, and hands it back on the UI
// thread. A build asked for while one runs follows it, with the newest choices only, so
// impatient clicks never queue a backlog. Owned by the UI thread.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <optional>

#include "cost/reportloader.h"

namespace meridian {

class ReportBuilder final : public QObject {
    Q_OBJECT
public:
    explicit ReportBuilder(QObject *parent = nullptr);
    ~ReportBuilder() override;

    // From `historyFile`, priced by the book in `priceBookFile` (empty: none); built()
    // follows.
    void build(const QString &historyFile, const QString &priceBookFile, const ReportAsk &ask);
    bool building() const { return m_watcher.isRunning(); }
    const LoadedReport &loaded() const { return m_loaded; }

Q_SIGNALS:
    void built();

private:
    struct Order {
        QString historyFile;
        QString priceBookFile;
        ReportAsk ask;
    };
    void start(const Order &order);

    QFutureWatcher<LoadedReport> m_watcher;
    LoadedReport m_loaded;
    std::optional<Order> m_next;
};

}  // namespace meridian

// Fleet utilisation over the last 24 hours or 7 days, hour by hour, for the fleet and each
// data center, from the history file: a line each, broken where an hour has no data, and
// the period's figures beside. Lives on the UI thread; the file is read off it.
#pragma once

#include <QWidget>
#include <map>
#include <string>

#include "core/clock.h"

QT_BEGIN_NAMESPACE
class QChartView;
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace meridian {

class FleetUsageLoader;

class FleetUsageWindow final : public QWidget {
    Q_OBJECT
public:
    FleetUsageWindow(const QString &historyFile, const Clock &clock, QWidget *parent = nullptr);

    void setRangeSeconds(int seconds);  // 86400 or 7 × 86400
    QString summary() const;
    // The lines drawn, by name ("Fleet", "Xiamen", …), and their points.
    std::vector<std::pair<QString, int>> lines() const;

Q_SIGNALS:
    void shown();  // a new reading is on screen

private:
    void refresh();
    void showLoaded();
    // The means, the hours without data, and each data center's missed hours.
    QString summaryText(const QStringList &means, int hoursWithoutData,
                        const std::map<std::string, int> &missed) const;

    const Clock &m_clock;
    FleetUsageLoader *m_loader;
    QComboBox *m_range;
    QChartView *m_chart;
    QLabel *m_summary;
};

}  // namespace meridian

// One service's last hour: replicas (serving, starting, desired) and the load it carries
// (arrivals per second, the queueing delay p95 against its objective, the TTFT p95 beside
// it). Qt Charts, redrawn from points.
#pragma once

#include <QWidget>
#include <memory>

#include "models/scaling/scalingviewmodel.h"

namespace meridian {

class ScalingCharts final : public QWidget {
    Q_OBJECT
public:
    explicit ScalingCharts(QWidget *parent = nullptr);
    ~ScalingCharts() override;
    // `viewAtMs` (the view's time) ends the axes when the service has no history yet.
    void show(const ServiceScalingView &service, int64_t viewAtMs);
    void clear();

private:
    struct Charts;
    std::unique_ptr<Charts> m_charts;  // the series and axes; the charts belong to their views
};

}  // namespace meridian

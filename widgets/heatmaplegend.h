// The colour scale beside the heatmap: the ramp with its range for the chosen metric,
// and swatches for "no reading" and "stale".
#pragma once

#include <QWidget>

#include "models/metricscale.h"

namespace meridian {

class HeatmapLegend final : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapLegend(QWidget *parent = nullptr);
    void setMetric(FleetMetric metric);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    FleetMetric m_metric = FleetMetric::Utilization;
};

}  // namespace meridian

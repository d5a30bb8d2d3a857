// The key beside the heatmap: for a reading, its ramp with its range; for Health, the
// quiet ramp of healthy cards and a swatch for each condition and for a link fault.
// Swatches for "no reading" and "stale" either way.
#pragma once

#include <QWidget>

#include "models/metricscale.h"

class QPainter;

namespace meridian {

class HeatmapLegend final : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapLegend(QWidget *parent = nullptr);
    void setMetric(FleetMetric metric);
    FleetMetric metric() const { return m_metric; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    // Lays the key out from x = 0; paints it too when given a painter. Returns its width.
    int drawKey(QPainter *painter) const;

    FleetMetric m_metric = FleetMetric::Health;
};

}  // namespace meridian

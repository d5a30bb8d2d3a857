// The metrics a user can colour the fleet by, their ranges and their colours. One place
// decides what "hot" means, for the heatmap, its legend and tooltips.
#pragma once

#include <QColor>
#include <QString>
#include <optional>

#include "fleet/fleetstate.h"
#include "placenames.h"

namespace meridian {

// Health: the worst condition of each card (cardhealth.h) over its utilisation.
enum class FleetMetric { Health, Utilization, Memory, Temperature, Power, Errors };

// The key a colouring is remembered by (settings), and back; nullopt for an unknown key.
QString metricKey(FleetMetric metric);
std::optional<FleetMetric> metricFromKey(const QString &key);

QString metricName(FleetMetric metric);
QString formatMetric(FleetMetric metric, float value);

// The reading for a card; NaN when absent.
float metricValue(const FleetSnapshot &snapshot, FleetMetric metric, CardHandle card);

// 0..1 along the metric's useful range (temperature 30..90 °C, power 0..700 W).
float metricFraction(FleetMetric metric, float value);

// A colour-blind-safe ramp (viridis, purple to yellow) for amounts, where neither end is
// bad; fixed colours for "no reading" and "agent stale" that no value can take.
QColor rampColor(float fraction);
// For readings where high is trouble (temperature, errors): cool blue through amber to
// red (ColorBrewer's RdYlBu, reversed; safe for the common colour blindness).
QColor alarmRampColor(float fraction);
// The ramp a metric is drawn with.
QColor metricColor(FleetMetric metric, float fraction);
QColor noReadingColor();
// Healthy cards under the Health colouring: utilisation in quiet tones (light to dark
// grey-green on a light background, the reverse on a dark one), so no healthy card looks
// like a fault.
QColor healthyColor(float utilizationFraction, bool darkBackground);
QColor staleColor();

}  // namespace meridian

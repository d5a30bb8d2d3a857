#include "metricscale.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace meridian {

QString metricName(FleetMetric metric)
{
    switch (metric) {
    case FleetMetric::Health: return QCoreApplication::translate("FleetMetric", "Health");
    case FleetMetric::Utilization: return QCoreApplication::translate("FleetMetric", "Utilisation");
    case FleetMetric::Memory: return QCoreApplication::translate("FleetMetric", "Memory");
    case FleetMetric::Temperature: return QCoreApplication::translate("FleetMetric", "Temperature");
    case FleetMetric::Power: return QCoreApplication::translate("FleetMetric", "Power");
    case FleetMetric::Errors: return QCoreApplication::translate("FleetMetric", "Errors");
    }
    return {};
}

QString formatMetric(FleetMetric metric, float value)
{
    if (std::isnan(value))
        return QCoreApplication::translate("FleetMetric", "n/a");
    switch (metric) {
    case FleetMetric::Health:
    case FleetMetric::Utilization:
    case FleetMetric::Memory: return QStringLiteral("%1%").arg(value, 0, 'f', 0);
    case FleetMetric::Temperature: return QStringLiteral("%1 °C").arg(value, 0, 'f', 0);
    case FleetMetric::Power: return QStringLiteral("%1 W").arg(value, 0, 'f', 0);
    case FleetMetric::Errors: return QString::number(static_cast<int>(value));
    }
    return {};
}

namespace {

constexpr std::pair<FleetMetric, const char *> kMetricKeys[] = {
    {FleetMetric::Health, "health"}, {FleetMetric::Utilization, "utilisation"},
    {FleetMetric::Memory, "memory"}, {FleetMetric::Temperature, "temperature"},
    {FleetMetric::Power, "power"},   {FleetMetric::Errors, "errors"},
};

}  // namespace

QString metricKey(FleetMetric metric)
{
    for (const auto &[m, key] : kMetricKeys) {
        if (m == metric)
            return QString::fromLatin1(key);
    }
    return {};
}

std::optional<FleetMetric> metricFromKey(const QString &key)
{
    for (const auto &[m, name] : kMetricKeys) {
        if (key == QLatin1String(name))
            return m;
    }
    return std::nullopt;
}

float metricValue(const FleetSnapshot &s, FleetMetric metric, CardHandle card)
{
    switch (metric) {
    case FleetMetric::Health:
    case FleetMetric::Utilization: return s.utilization[card];
    case FleetMetric::Memory: return s.memoryPercent[card];
    case FleetMetric::Temperature: return s.temperature[card];
    case FleetMetric::Power: return s.power[card];
    case FleetMetric::Errors: return static_cast<float>(s.errors[card]);
    }
    return NAN;
}

float metricFraction(FleetMetric metric, float value)
{
    float f = 0;
    switch (metric) {
    case FleetMetric::Health:
    case FleetMetric::Utilization:
    case FleetMetric::Memory: f = value / 100.0f; break;
    case FleetMetric::Temperature: f = (value - 30.0f) / 60.0f; break;
    case FleetMetric::Power: f = value / 700.0f; break;
    case FleetMetric::Errors: f = value > 0 ? 1.0f : 0.0f; break;
    }
    return std::clamp(f, 0.0f, 1.0f);
}

namespace {

template <size_t N>
QColor interpolate(const QColor (&stops)[N], float fraction)
{
    const float x = std::clamp(fraction, 0.0f, 1.0f) * static_cast<float>(N - 1);
    const int i = std::min(static_cast<int>(N) - 2, static_cast<int>(x));
    const float t = x - static_cast<float>(i);
    const QColor &a = stops[i];
    const QColor &b = stops[i + 1];
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                            a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}

}  // namespace

QColor rampColor(float fraction)
{
    // Stops of the viridis map: readable for the colour-blind, in print, and with no grey
    // in it that could be mistaken for "no reading" or "stale".
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                                   QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62),
                                   QColor(0xfd, 0xe7, 0x25)};
    return interpolate(stops, fraction);
}

QColor alarmRampColor(float fraction)
{
    static const QColor stops[] = {QColor(0x45, 0x75, 0xb4), QColor(0x91, 0xbf, 0xdb),
                                   QColor(0xfe, 0xe0, 0x90), QColor(0xfc, 0x8d, 0x59),
                                   QColor(0xd7, 0x30, 0x27)};
    return interpolate(stops, fraction);
}

QColor metricColor(FleetMetric metric, float fraction)
{
    switch (metric) {
    case FleetMetric::Health: return healthyColor(fraction, false);
    case FleetMetric::Temperature:
    case FleetMetric::Errors: return alarmRampColor(fraction);
    default: return rampColor(fraction);
    }
}

QColor noReadingColor()
{
    // Mid grey: an empty box in it reads on light and dark backgrounds alike.
    return QColor(0x8c, 0x8c, 0x8c);
}

QColor staleColor()
{
    return QColor(0xbd, 0xbd, 0xbd);
}

QColor healthyColor(float fraction, bool darkBackground)
{
    const float f = std::clamp(std::isnan(fraction) ? 0.0f : fraction, 0.0f, 1.0f);
    // Idle is close to the background, busy further from it; both stay grey-green. Idle
    // stays far enough from the background that it is never drawn as an outlined box,
    // which is what "no reading" looks like.
    const QColor idle = darkBackground ? QColor(0x46, 0x51, 0x4c) : QColor(0xc8, 0xd6, 0xcd);
    const QColor busy = darkBackground ? QColor(0x7f, 0x9c, 0x8f) : QColor(0x6b, 0x8c, 0x7d);
    return QColor::fromRgbF(idle.redF() + (busy.redF() - idle.redF()) * f,
                            idle.greenF() + (busy.greenF() - idle.greenF()) * f,
                            idle.blueF() + (busy.blueF() - idle.blueF()) * f);
}

}  // namespace meridian

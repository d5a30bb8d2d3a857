// A load's arrival rate over time as a multiple of a trace's own: 1 leaves the trace as it
// is, 3 from minute 20 on is a ×3 step there. Piecewise linear between knots, held before
// the first and after the last, so a step, a ramp, a burst or a decay is a few knots, and
// the trace's own minute-to-minute burstiness stays under whatever shape is laid on it.
#pragma once

#include <utility>
#include <vector>

namespace meridian {

class LoadShape {
public:
    // The same factor all along.
    static LoadShape flat(double factor);
    // (seconds from the start, factor) in time order; factors are clamped at 0.
    explicit LoadShape(std::vector<std::pair<double, double>> knots);

    double factorAt(double seconds) const;
    // The highest factor anywhere (a knot's, since it is piecewise linear).
    double highest() const;
    // The same shape with every factor multiplied by `factor`.
    LoadShape times(double factor) const;
    const std::vector<std::pair<double, double>> &knots() const { return m_knots; }

private:
    std::vector<std::pair<double, double>> m_knots;
};

}  // namespace meridian

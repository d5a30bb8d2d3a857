#include "loadshape.h"

#include <algorithm>

namespace meridian {

LoadShape LoadShape::flat(double factor)
{
    return LoadShape({{0.0, factor}});
}

LoadShape::LoadShape(std::vector<std::pair<double, double>> knots) : m_knots(std::move(knots))
{
    if (m_knots.empty())
        m_knots.emplace_back(0.0, 1.0);
    std::stable_sort(m_knots.begin(), m_knots.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto &[at, factor] : m_knots)
        factor = std::max(0.0, factor);
}

double LoadShape::factorAt(double seconds) const
{
    if (seconds <= m_knots.front().first)
        return m_knots.front().second;
    const auto after = std::upper_bound(
        m_knots.begin(), m_knots.end(), seconds,
        [](double s, const std::pair<double, double> &knot) { return s < knot.first; });
    if (after == m_knots.end())
        return m_knots.back().second;
    const auto &[t1, f1] = *after;
    const auto &[t0, f0] = *(after - 1);
    return t1 > t0 ? f0 + (f1 - f0) * (seconds - t0) / (t1 - t0) : f1;
}

double LoadShape::highest() const
{
    double high = 0;
    for (const auto &[at, factor] : m_knots)
        high = std::max(high, factor);
    return high;
}

LoadShape LoadShape::times(double factor) const
{
    std::vector<std::pair<double, double>> knots = m_knots;
    for (auto &[at, f] : knots)
        f *= factor;
    return LoadShape(std::move(knots));
}

}  // namespace meridian

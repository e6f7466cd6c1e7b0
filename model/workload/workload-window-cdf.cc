/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-window-cdf.h"

#include "ns3/csv-field.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadWindowCdf");

namespace
{

/// Milliseconds rounded to the nanosecond, the timelines' resolution (it also drops the
/// rounding noise of subtracting large clock values).
double
RoundMs(double ms)
{
    return std::round(ms * 1e6) / 1e6;
}

} // namespace

void
WorkloadWindowCdf::Add(const std::string& input,
                       const std::string& view,
                       const std::vector<WorkloadWindow>& windows,
                       double thresholdS)
{
    WorkloadWindowCurve curve;
    curve.input = input;
    curve.view = view;
    curve.stats = WorkloadWindows::Summarize(windows, thresholdS);
    for (const auto& w : windows)
    {
        curve.zeros += w.DurationS() <= 0 ? 1 : 0;
    }
    for (const auto& [seconds, fraction] : WorkloadWindows::Cdf(windows))
    {
        curve.points.emplace_back(seconds * 1e3, fraction);
    }
    curve.classes = WorkloadWindows::Classify(windows);
    m_curves.push_back(curve);
}

const std::vector<WorkloadWindowCurve>&
WorkloadWindowCdf::GetCurves() const
{
    return m_curves;
}

void
WorkloadWindowCdf::WriteCsv(std::ostream& os) const
{
    os << "input,view,window_ms,fraction\n" << std::setprecision(12);
    for (const auto& c : m_curves)
    {
        for (const auto& [ms, fraction] : c.points)
        {
            os << CsvField(c.input) << ',' << CsvField(c.view) << ',' << RoundMs(ms) << ','
               << fraction << '\n';
        }
    }
}

void
WorkloadWindowCdf::WriteClassesCsv(std::ostream& os) const
{
    os << "input,view,next_phase,windows,mean_ms,min_ms,max_ms\n" << std::setprecision(12);
    for (const auto& c : m_curves)
    {
        for (const auto& k : c.classes)
        {
            os << CsvField(c.input) << ',' << CsvField(c.view) << ',' << CsvField(k.label) << ','
               << k.count << ',' << RoundMs(k.meanS * 1e3) << ',' << RoundMs(k.minS * 1e3) << ','
               << RoundMs(k.maxS * 1e3) << '\n';
        }
    }
}

bool
WorkloadWindowCdf::LogRangeMs(double alsoMs, std::pair<double, double>& range) const
{
    double low = alsoMs > 0 ? alsoMs : HUGE_VAL;
    double high = alsoMs > 0 ? alsoMs : 0;
    bool any = false;
    for (const auto& c : m_curves)
    {
        for (const auto& point : c.points)
        {
            if (point.first > 0)
            {
                any = true;
                low = std::min(low, point.first);
                high = std::max(high, point.first);
            }
        }
    }
    if (!any)
    {
        return false;
    }
    double a = std::floor(std::log10(low));
    double b = std::max(std::ceil(std::log10(high)), a + 1);
    range = {std::pow(10.0, a), std::pow(10.0, b)};
    return true;
}

std::vector<std::pair<double, double>>
WorkloadWindowCdf::LogStepPoints(const WorkloadWindowCurve& curve,
                                 const std::pair<double, double>& range)
{
    std::vector<std::pair<double, double>> points;
    points.emplace_back(range.first, double(curve.zeros) / curve.stats.count);
    for (const auto& point : curve.points)
    {
        if (point.first > 0)
        {
            points.push_back(point);
        }
    }
    points.emplace_back(range.second, 1.0);
    return points;
}

} // namespace ns3

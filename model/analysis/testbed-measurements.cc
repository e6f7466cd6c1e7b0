/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "testbed-measurements.h"

#include "ns3/log.h"

#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TestbedMeasurements");

const std::vector<TestbedStep>&
TestbedMeasurements::Steps()
{
    NS_LOG_FUNCTION_NOARGS();
    // data/measured-step-times.csv (mean column), whose header says where each comes from.
    static const std::vector<TestbedStep> steps = {
        {"b16", "no-controller", 0, 10.1775},   {"b16", "on-demand", 0, 10.4415},
        {"b16", "on-demand", 10, 10.4607},      {"b16", "on-demand", 50, 10.6815},
        {"b16", "on-demand", 100, 10.9043},     {"b16", "on-demand", 250, 11.8843},
        {"b16", "on-demand", 500, 13.1078},     {"b16", "on-demand", 750, 14.1565},
        {"b16", "on-demand", 1000, 15.4008},    {"b16", "on-demand", 2000, 21.2268},
        {"b16", "on-demand", 3000, 27.3225},    {"b16", "provisioning", 0, 10.2220},
        {"b16", "provisioning", 10, 10.3705},   {"b16", "provisioning", 50, 10.3203},
        {"b16", "provisioning", 100, 10.6142},  {"b16", "provisioning", 250, 11.2692},
        {"b16", "provisioning", 500, 12.5570},  {"b16", "provisioning", 750, 13.9538},
        {"b16", "provisioning", 1000, 15.1215}, {"b16", "provisioning", 2000, 20.3465},
        {"b16", "provisioning", 3000, 26.4348}, {"b24", "provisioning", 0, 13.97},
    };
    return steps;
}

std::optional<double>
TestbedMeasurements::Find(const std::string& job, const std::string& mode, double delayMs)
{
    NS_LOG_FUNCTION(job << mode << delayMs);
    for (const TestbedStep& step : Steps())
    {
        if (step.job == job && step.mode == mode && step.delayMs == delayMs)
        {
            return step.meanS;
        }
    }
    return std::nullopt;
}

double
TestbedMeasurements::LeastSquaresSlope(const std::vector<double>& x, const std::vector<double>& y)
{
    NS_LOG_FUNCTION_NOARGS();
    const double none = std::numeric_limits<double>::quiet_NaN();
    if (x.size() != y.size() || x.size() < 2)
    {
        return none;
    }
    double meanX = 0;
    double meanY = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        meanX += x[i] / x.size();
        meanY += y[i] / y.size();
    }
    double covariance = 0;
    double variance = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        covariance += (x[i] - meanX) * (y[i] - meanY);
        variance += (x[i] - meanX) * (x[i] - meanX);
    }
    return variance > 0 ? covariance / variance : none;
}

} // namespace ns3

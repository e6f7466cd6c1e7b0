/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_MEASUREMENTS_H
#define TESTBED_MEASUREMENTS_H

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One measured step time of the paper's job (data/measured-step-times.csv).
 */
struct TestbedStep
{
    std::string job;   //!< b16 or b24 (WorkloadGeneratorFlags' --job)
    std::string mode;  //!< no-controller, on-demand or provisioning
    double delayMs{0}; //!< Emulated reconfiguration delay
    double meanS{0};   //!< Mean step time, seconds
};

/**
 * \ingroup photonic-rails
 * \brief The step times measured on the paper's testbed, compiled in so that every program
 *        can print them beside its results (data/measured-step-times.csv gives their origin;
 *        a test checks that the two agree), and the least-squares slope used to compare
 *        delay curves.
 */
class TestbedMeasurements
{
  public:
    /// \return every measured step, in the order of data/measured-step-times.csv
    static const std::vector<TestbedStep>& Steps();

    /**
     * \param job b16 or b24
     * \param mode no-controller, on-demand or provisioning
     * \param delayMs the delay
     * \return the mean step time in seconds, if it was measured
     */
    static std::optional<double> Find(const std::string& job,
                                      const std::string& mode,
                                      double delayMs);

    /**
     * \param x abscissas (at least two distinct)
     * \param y ordinates, as many
     * \return the least-squares slope of y on x (NaN if x has fewer than two distinct values)
     */
    static double LeastSquaresSlope(const std::vector<double>& x, const std::vector<double>& y);
};

} // namespace ns3

#endif /* TESTBED_MEASUREMENTS_H */

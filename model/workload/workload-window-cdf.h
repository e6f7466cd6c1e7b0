/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_WINDOW_CDF_H
#define WORKLOAD_WINDOW_CDF_H

#include "workload-windows.h"

#include <cstddef>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The windows of one input (or of all inputs) as the paper's Fig. 4 shows them.
 */
struct WorkloadWindowCurve
{
    std::string input; //!< the input file, or "all inputs"
    std::string view;  //!< where the windows were seen: "all rails", "rail 1", "rank 0", ...
    WorkloadWindowStats stats; //!< count, median, share above the threshold, ...
    std::size_t zeros{0};      //!< windows of 0 ms (a log axis cannot show them)
    /// (window in ms, fraction of the windows <= it), one point per distinct window, ascending
    std::vector<std::pair<double, double>> points;
    /// one row per class of the following phase, by decreasing mean window (Fig. 4(b))
    std::vector<WorkloadWindowClass> classes;
};

/**
 * \ingroup photonic-rails
 * \brief The data of the paper's Fig. 4: the CDF of the windows between parallelism phases
 *        (panel (a)) and the windows per class of the following phase (panel (b)), one
 *        curve per input, with their CSV tables and the points of a log-x step plot.
 */
class WorkloadWindowCdf
{
  public:
    /**
     * \brief Adds a curve.
     * \param input the input file, or "all inputs"
     * \param view where the windows were seen
     * \param windows its windows
     * \param thresholdS threshold of stats.shareAbove (the paper uses 1 ms)
     */
    void Add(const std::string& input,
             const std::string& view,
             const std::vector<WorkloadWindow>& windows,
             double thresholdS);

    /// \return the curves, in the order they were added
    const std::vector<WorkloadWindowCurve>& GetCurves() const;

    /**
     * \brief Writes the CDF points: input,view,window_ms,fraction (one row per point).
     * \param os output stream
     */
    void WriteCsv(std::ostream& os) const;

    /**
     * \brief Writes the classes: input,view,next_phase,windows,mean_ms,min_ms,max_ms.
     * \param os output stream
     */
    void WriteClassesCsv(std::ostream& os) const;

    /**
     * \brief The decades of a log axis that hold every window longer than 0 ms.
     * \param alsoMs a value to include too (e.g. the 1 ms threshold); ignored if <= 0
     * \param range receives [10^a, 10^b] in ms, a < b
     * \return false if no window is longer than 0 ms (nothing to draw on a log axis)
     */
    bool LogRangeMs(double alsoMs, std::pair<double, double>& range) const;

    /**
     * \brief The points of a curve as a step plot on a log x axis over range: it starts at
     *        (range.first, share of the 0 ms windows), steps at each window longer than
     *        0 ms and ends at (range.second, 1).
     * \param curve a curve with at least one window
     * \param range the axis range (LogRangeMs)
     * \return the points
     */
    static std::vector<std::pair<double, double>> LogStepPoints(
        const WorkloadWindowCurve& curve,
        const std::pair<double, double>& range);

  private:
    std::vector<WorkloadWindowCurve> m_curves; //!< curves
};

} // namespace ns3

#endif /* WORKLOAD_WINDOW_CDF_H */

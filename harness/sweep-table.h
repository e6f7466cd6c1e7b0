/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWEEP_TABLE_H
#define SWEEP_TABLE_H

#include "sweep-runner.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class ExperimentOutput;

/**
 * \ingroup photonic-rails
 * \brief A sweep's results in one CSV: a row per point (its folder, state and varied flags)
 *        with every scalar of its summary.json, and a plot of one of them.
 *
 * Scalars are numbers, strings and booleans; a nested object's are named by their path
 * ("config.fabric", "faults.recovery_s"); lists are left out (they stay in the run folder).
 * Columns are the union over the points, in the order they first appear; a point without a
 * value (no summary.json: pending, or failed before writing one) has an empty cell. A
 * number is written as the shortest text that reads back the same double (as in the file).
 */
class SweepTable
{
  public:
    /// (name, text) of every scalar of \p summary, in its order
    static std::vector<std::pair<std::string, std::string>> Scalars(const nlohmann::json& summary);

    /**
     * \param runner the sweep
     */
    explicit SweepTable(const SweepRunner& runner);

    /**
     * \brief Writes the CSV, through a temporary file and a rename (an interrupted merge
     *        leaves the last whole one).
     * \param path the file
     */
    void WriteCsv(const std::string& path) const;

    /// \return the finished points without a readable summary.json (empty rows)
    std::vector<std::size_t> FinishedWithoutSummary() const;

    /**
     * \brief Writes STEM.plt (and STEM.png if \p render and gnuplot is installed): \p metric
     *        against the first varied flag, a line per combination of the others.
     * \throws std::invalid_argument if no finished point has \p metric as a number
     */
    void Plot(const std::string& metric,
              const ExperimentOutput& out,
              const std::string& stem,
              bool render) const;

  private:
    /// \return the cell of \p column in row \p i, "" if none
    std::string Cell(std::size_t i, const std::string& column) const;

    const SweepRunner& m_runner;                            //!< The sweep
    std::vector<std::string> m_columns;                     //!< Summary scalars
    std::vector<std::map<std::string, std::string>> m_rows; //!< Per point: scalar -> text
};

} // namespace ns3

#endif /* SWEEP_TABLE_H */

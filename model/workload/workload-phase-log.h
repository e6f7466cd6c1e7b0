/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_PHASE_LOG_H
#define WORKLOAD_PHASE_LOG_H

#include "workload-windows.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One line of the authors' phase logs: a maximal run of collectives of one
 *        parallelism as one rank saw it (../shared/data/opus-llama3-8b-perlmutter/README.md).
 */
struct WorkloadPhaseLogEntry
{
    std::string parallelism;  //!< "PP" or "DP"
    uint32_t startBackend{0}; //!< communicator of the first collective
    uint32_t startIdx{0};     //!< its running index on that communicator
    uint32_t endBackend{0};   //!< communicator of the last collective
    uint32_t endIdx{0};       //!< its running index
    uint32_t len{0};          //!< collectives in the phase
    double startMs{0};        //!< host clock at the start, ms
    double endMs{0};          //!< host clock at the end, ms (as logged)
    uint32_t iteration{0};    //!< training step (0-based)
    std::size_t line{0};      //!< line number in the file
};

/**
 * \ingroup photonic-rails
 * \brief Imports a measured phase log and turns it into phases for WorkloadWindows.
 *
 * Line format: `<PP|DP> start_backend: B start_idx: I end_backend: B2 end_idx: I2 len: N,
 * start_time: T0, end_time: T1` (times in ms). As the README says: an end before the start
 * (a one-collective PP phase where the shim logged the previous end) means zero duration;
 * a training step ends after the phase that starts on the optimizer's communicator
 * (backend 6).
 *
 * Times are checked, so that no step time comes out as a silently wrong number: every time
 * is in [0, MAX_TIME_MS]; phases are in time order (a start_time is not before the previous
 * phase's); an end before its start only on a one-collective phase; nothing before the log's
 * first start_time or more than MAX_SPAN_MS after it. A leading UTF-8 byte order mark is
 * skipped.
 */
class WorkloadPhaseLog
{
  public:
    /// Communicator id of the optimizer-step AllReduces in the authors' shim.
    static constexpr uint32_t OPTIMIZER_BACKEND = 6;
    /// Largest time (ms, about 317 years): a host clock in ms, Unix time included, with a
    /// double still resolving 2 us there (1e300 would leave no digit for the steps).
    static constexpr double MAX_TIME_MS = 1e13;
    /// Longest log, from its first start_time (ms, about 11.6 days): a profiled run of a few
    /// training steps; a longer span is a typo in a time, not a measurement.
    static constexpr double MAX_SPAN_MS = 1e9;

    /**
     * \param text the log
     * \param fileName name used in messages
     * \return the log
     * \throws std::runtime_error "FILE:LINE: reason" on a malformed line
     */
    static WorkloadPhaseLog Parse(const std::string& text, const std::string& fileName);
    /**
     * \param path log file
     * \return the log
     * \throws std::runtime_error if it cannot be read or is malformed
     */
    static WorkloadPhaseLog ReadFile(const std::string& path);
    /**
     * \param text some file's text
     * \return true if its first non-empty line looks like a phase log line
     */
    static bool LooksLikePhaseLog(const std::string& text);

    /// \return the entries in file order
    const std::vector<WorkloadPhaseLogEntry>& GetEntries() const;
    /// \return the number of training steps seen (complete or not)
    uint32_t GetIterationCount() const;
    /**
     * \return the entries as phases (seconds; end clamped to start; label "DP x17", with
     *         " opt" when the phase starts on the optimizer's communicator)
     */
    std::vector<WorkloadPhase> ToPhases() const;

  private:
    std::vector<WorkloadPhaseLogEntry> m_entries; //!< entries
};

} // namespace ns3

#endif /* WORKLOAD_PHASE_LOG_H */

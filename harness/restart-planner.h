/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RESTART_PLANNER_H
#define RESTART_PLANNER_H

#include "ns3/fault-schedule.h"
#include "ns3/nstime.h"
#include "ns3/restart-policy.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One failure of a server that ran the job (or of one of its GPUs), and the restart
 *        it caused.
 */
struct RestartRecord
{
    std::string part;             //!< As the schedule names it, e.g. "server:3" or "gpu:gpu13"
    uint32_t server{0};           //!< The fabric's server that failed
    uint32_t replacement{0};      //!< The server its ranks restarted on (itself when it waited)
    double failedS{0};            //!< When it failed
    double detectedS{0};          //!< When the failure was detected (--failureDetection later)
    double orderedS{0};           //!< When the restart was ordered (spare ready, or repaired)
    double resumedS{0};           //!< When training went on (--restoreTime later)
    uint64_t checkpoint{0};       //!< The iteration the job restarted from (its checkpoint)
    uint64_t lostIterations{0};   //!< Iterations finished since that checkpoint, run again
    double lostWorkS{0};          //!< Training time since the checkpoint, run again
    uint32_t reconfigurations{0}; //!< OCS reconfigurations that moved circuits to the spare
};

/**
 * \ingroup photonic-rails
 * \brief What GPU and server failures did to a job.
 */
struct RestartOutcome
{
    std::vector<RestartRecord> restarts; //!< One per failure that struck the job
    /// Failures that struck no rank: of servers (or GPUs) running none while they failed
    std::vector<std::string> idle;
    std::vector<std::string> afterEnd; //!< Failures at or after the job's end
    /// \return restarts of the job: failures while it was down share its restart
    uint32_t Restarts() const;
    uint32_t attempts{0}; //!< Runs of the job (1 + restarts that re-ran work)
    double endS{0};       //!< When its last iteration ended
    double noFailureS{0}; //!< Its end without failures (the first attempt's)
    double lostWorkS{0};  //!< Training time lost to failures and run again
    double downS{0};      //!< From each failure to training again
};

/**
 * \ingroup photonic-rails
 * \brief Plays a job's GPU and server failures: the job restarts from its last checkpoint.
 *
 * A synchronous job stops when a server that runs ranks fails. The failure is detected
 * (--failureDetection); its ranks then restart on the repaired server (wait) or on a spare
 * (swap: the lowest-numbered server that runs no rank and is up; on optical rails one
 * reconfiguration of every rail's OCS, in parallel, re-points the circuits); training
 * starts again --restoreTime after that, from the last checkpoint, and re-runs what was done
 * since. A failure while the job is down (another server, the spare) is detected in turn and
 * the restart waits for it: training starts again --restoreTime after the last restart order.
 * A swapped-out server, once repaired, is a spare. Without a spare up, swap waits for the
 * repair. Checkpoints are taken every --checkpointInterval iterations, at no cost, and at
 * every restart point.
 *
 * Each attempt is a run of the remaining iterations from a fresh start (the job relaunches),
 * given by a callback: the planner itself does no simulation.
 */
class RestartPlanner
{
  public:
    /**
     * \brief Runs the job's remaining iterations on a placement.
     * \param placement per server of the job, the fabric's server running it
     * \param iterations iterations to run, from a fresh start
     * \return when each iteration ended, seconds from the attempt's start (\p iterations
     *         values, non-decreasing)
     */
    using Attempt = std::function<std::vector<double>(const std::vector<uint32_t>& placement,
                                                      uint64_t iterations)>;

    /**
     * \param policy the restart policy (checked)
     * \param jobServers servers the job runs on (0..jobServers-1 at first)
     * \param fabricServers servers of the fabric: the job's, then the spares
     * \param iterations the job's iterations
     * \param swapReconfiguration an OCS reconfiguration's delay on optical rails (zero on
     *        electrical rails: a swap changes nothing in the network)
     * \param rails rails of the fabric (an OCS each on optical rails), its GPUs per server
     * \param ranks ranks of the job (server i of the job runs ranks i x rails to
     *        i x rails + rails - 1, those below \p ranks)
     */
    RestartPlanner(const RestartPolicy& policy,
                   uint32_t jobServers,
                   uint32_t fabricServers,
                   uint64_t iterations,
                   Time swapReconfiguration,
                   uint32_t rails,
                   uint32_t ranks);

    /**
     * \param schedule GPU and server failures, in failure time order
     * \param attempt runs the remaining iterations
     * \return what the failures did (std::runtime_error, one line, for a failure the job
     *         cannot get past: a server never repaired and no spare)
     */
    RestartOutcome Run(const std::vector<Fault>& schedule, const Attempt& attempt) const;

  private:
    /// Where the job runs: per server of the job, the fabric's server, and since when (a
    /// spare's failures before it took the ranks are not the job's).
    struct Placement
    {
        std::vector<uint32_t> servers; //!< Per server of the job, the fabric's server
        std::vector<double> since;     //!< When each took the ranks, seconds
    };

    /// \return true if \p fault strikes a rank of the job placed as \p placement
    bool StrikesJob(const Fault& fault, const Placement& placement) const;

    /// Restarts the ranks of failed \p fault's server: fills \p record's times after
    /// \p earliestOrder and moves them in \p placement.
    void Recover(const Fault& fault,
                 const std::vector<Fault>& failures,
                 Placement& placement,
                 double earliestOrder,
                 RestartRecord& record) const;

    /// \return true if \p server is up at \p when by \p failures
    static bool IsUp(uint32_t server, double when, const std::vector<Fault>& failures);

    /// \return the first time from \p when on that \p server is up by \p failures
    ///         (infinity if a failure that covers it is never repaired)
    static double UpAgain(uint32_t server, double when, const std::vector<Fault>& failures);

    RestartPolicy m_policy;   //!< The policy
    uint32_t m_jobServers;    //!< Servers of the job
    uint32_t m_fabricServers; //!< Servers of the fabric
    uint64_t m_iterations;    //!< The job's iterations
    double m_swapS;           //!< Reconfiguration for a swap, seconds
    uint32_t m_rails;         //!< Rails
    uint32_t m_ranks;         //!< Ranks of the job
};

} // namespace ns3

#endif /* RESTART_PLANNER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_RESTARTS_H
#define JOB_RESTARTS_H

#include "ns3/job-runner.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Runs a job whose fault schedule fails GPUs or servers: each failure that strikes it
 *        restarts it from its last checkpoint (RestartPlanner), each attempt a simulation.
 *
 * The fabric has the job's servers and --spareServers more. Every attempt runs the
 * iterations left from a fresh start, the lost server's ranks moved to their new server;
 * it runs to its end, so the first attempt is also the run without failures. Outputs: the
 * last attempt's files in the run's folder, each interrupted attempt's in attempt-K/ (its
 * whole run: only what ended before the failure counted), summary.json's "restarts" and
 * faults.csv with every failure, detection, swap or repair and restart.
 */
class JobRestarts
{
  public:
    /// \return true if \p o's fault schedule fails GPUs or servers
    static bool Applies(const JobOptions& o);

    /**
     * \brief Checks what the runs need before any starts (std::invalid_argument, one line):
     *        GPU and server failures with no other fault kind, iterations that checkpoints
     *        can split, and the restart flags only with such failures.
     * \param cmd the program's flags (which were given)
     * \param o the options (checked)
     * \param dag the job
     */
    static void Check(const StrictCommandLine& cmd, const JobOptions& o, const WorkloadDag& dag);

    /**
     * \brief Runs the job through its failures on one fabric.
     * \param o the options (Check()ed)
     * \param dag the job
     * \param fabric the fabric
     * \param outDir its folder
     * \return the last attempt's result with the restarts (std::runtime_error as
     *         JobRunner::Run's, or for a failure the job cannot get past)
     */
    static JobResult Run(const JobOptions& o,
                         std::shared_ptr<const WorkloadDag> dag,
                         const JobFabric& fabric,
                         const std::string& outDir);
};

} // namespace ns3

#endif /* JOB_RESTARTS_H */

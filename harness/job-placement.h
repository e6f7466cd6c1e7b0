/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_PLACEMENT_H
#define JOB_PLACEMENT_H

#include "ns3/jobs-file.h"
#include "ns3/workload-dag.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Gives every job of a --jobs file its servers.
 *
 * Jobs that list their servers take them first; the others then take a count of the servers
 * left, in file order, by their policy: packed (the lowest-numbered free ones, so a job's
 * servers share leaf switches), spread (evenly spaced over the free ones: free server
 * floor(i * free / count) for i = 0 .. count - 1, across leaves) or random (a draw without
 * replacement from the free ones, by a generator seeded with the run's seed: the same seed
 * gives the same placement on every machine). Servers are not shared: a job holds its
 * servers for the whole run, so two jobs naming one server are refused, whatever their
 * start times.
 */
class JobPlacement
{
  public:
    /**
     * \param jobs the jobs (their explicit servers are kept)
     * \param servers servers of the fabric
     * \param seed the run's seed (random placement)
     * \return per job, its servers in rank order (a job's rank r runs on server
     *         servers[r / gpusPerServer])
     * \throws std::invalid_argument one line: a server beyond the fabric, a server two jobs
     *         name, or jobs that do not fit
     */
    static std::vector<std::vector<uint32_t>> Place(const std::vector<JobEntry>& jobs,
                                                    uint32_t servers,
                                                    uint32_t seed);

    /**
     * \param jobs the jobs
     * \return the servers the jobs need: their counts, and at least one more than the
     *         highest server they name
     */
    static uint32_t ServersNeeded(const std::vector<JobEntry>& jobs);

    /**
     * \brief Moves a job's ranks onto the fabric's GPUs.
     * \param dag the job's DAG, its own ranks
     * \param gpus per rank of \p dag, the fabric's GPU running it
     * \param tag prepended to its group names ("" keeps them)
     * \param groups receives its groups, over the fabric's GPUs
     * \param ops receives its ops, over the fabric's GPUs
     */
    static void Relocate(const WorkloadDag& dag,
                         const std::vector<uint32_t>& gpus,
                         const std::string& tag,
                         WorkloadDag::GroupMap& groups,
                         std::vector<WorkloadOp>& ops);
};

} // namespace ns3

#endif /* JOB_PLACEMENT_H */

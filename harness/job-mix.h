/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_MIX_H
#define JOB_MIX_H

#include "ns3/job-runner.h"
#include "ns3/jobs-file.h"
#include "ns3/nstime.h"
#include "ns3/workload-dag.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Several jobs on one fabric (--jobs): their workloads, loaded and placed, and the
 *        one DAG that runs them all.
 *
 * Each job's workload flags are read as the program reads its own (JobWorkload: a DAG
 * file, a Chakra trace, --job or the generator's flags) on the fabric's server size; a
 * relative path in them is taken from the jobs file's folder. The
 * jobs are placed (JobPlacement) and merged into one DAG over every GPU of the fabric: job
 * rank r runs on GPU servers[r / g] * g + r % g (g GPUs per server, so its local index, and
 * thus its rail, is kept), peers and roots are renumbered the same way, and with several
 * jobs each group is renamed "<job>/<group>" so that no two jobs share a communicator. GPUs
 * of no job have no op. Each job's replays and start are its runtimes' (JobSlice), so a
 * job that arrives later starts its ranks then and the others never wait for it.
 */
class JobMix
{
  public:
    /**
     * \brief Reads, places and checks the jobs.
     * \param path the --jobs file (for messages)
     * \param entries its jobs
     * \param o the program's options (hardware, --servers, --seed)
     * \throws std::invalid_argument or InputFileError, one line naming the job
     */
    JobMix(const std::string& path, const std::vector<JobEntry>& entries, const JobOptions& o);

    /// \return the fabric's servers: --servers, or just those the jobs need
    uint32_t GetServers() const;

    /// \return the jobs, in file order, with their servers and GPUs
    const std::vector<JobSlice>& GetJobs() const;

    /// \return the DAG of every job (a job's own when there is one)
    std::shared_ptr<const WorkloadDag> GetDag() const;

    /**
     * \param job a job's index
     * \return the DAG of that job alone on its GPUs of the same fabric (its groups named as
     *         in GetDag())
     */
    std::shared_ptr<const WorkloadDag> GetAloneDag(std::size_t job) const;

    /// \return the most replays a job asks for (the runs' --iterations)
    uint32_t GetMaxIterations() const;

    /**
     * \brief Runs the jobs on a fabric: with several, each alone first (on its GPUs of the
     *        same fabric, into DIR/alone/NAME), then all of them (into DIR), so that each
     *        job's share has its time alone; one job is that job's run.
     * \param o the options (o.servers and o.iterations are the mix's)
     * \param fabric the fabric
     * \param dir the output folder
     * \return the run of all the jobs (its jobs: a JobShare each, with several)
     */
    JobResult Run(const JobOptions& o, const JobFabric& fabric, const std::string& dir) const;

  private:
    /// \return job \p entry's DAG, read as the program reads its workload flags
    std::shared_ptr<const WorkloadDag> Load(const JobEntry& entry,
                                            const JobOptions& o,
                                            std::string& description) const;
    /// \return the jobs \p which merged over the fabric's GPUs
    std::shared_ptr<const WorkloadDag> Merge(const std::vector<std::size_t>& which) const;

    std::string m_path;           //!< The file
    std::string m_folder;         //!< Its folder: relative workload paths are taken from it
    uint32_t m_servers{0};        //!< GetServers()
    uint32_t m_gpusPerServer{0};  //!< The fabric's
    std::vector<JobSlice> m_jobs; //!< GetJobs()
    std::vector<std::shared_ptr<const WorkloadDag>> m_dags; //!< Per job, its own ranks
    std::shared_ptr<const WorkloadDag> m_merged;            //!< GetDag()
};

} // namespace ns3

#endif /* JOB_MIX_H */

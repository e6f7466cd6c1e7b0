/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_ATTRIBUTION_H
#define JOB_ATTRIBUTION_H

#include "ns3/job-runner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Which of several jobs on a fabric a GPU, a communication or a reconfiguration
 *        belongs to, for the per-job reports.
 *
 * Communications are named as RankRuntime names them: "g:<job>/<group>#k" for a
 * collective (JobMix prefixes every group with its job) and "p:<from>><to>:<tag>#k" for a
 * send or receive (the job of GPU <from>); Opus names its fault repairs "reconnect:<name>",
 * "reconnect:<a>-<b>" and "detour:<a>-<b>" (the job of GPU <a>).
 */
class JobAttribution
{
  public:
    static constexpr int NONE = -1; //!< Belongs to no job

    /**
     * \param jobs the jobs
     * \param gpus the fabric's GPUs
     * \param gpusPerServer GPUs per server
     */
    JobAttribution(const std::vector<JobSlice>& jobs, uint32_t gpus, uint32_t gpusPerServer);

    /// \param gpu a GPU \return the index of its job, or NONE
    int OfGpu(uint32_t gpu) const;

    /// \param name a communication, an Opus request group or a group name
    /// \return the index of its job, or NONE
    int OfName(const std::string& name) const;

    /// \param names names (a reconfiguration's groups) \return their jobs' names, in job
    ///        order, separated by spaces ("" for none)
    std::string JobsOf(const std::vector<std::string>& names) const;

    /// \return per GPU its job's name ("" for none)
    std::vector<std::string> GpuJobs() const;

    /// \return per server its job's name ("" for none)
    std::vector<std::string> ServerJobs() const;

  private:
    const std::vector<JobSlice>& m_jobs; //!< The jobs
    std::vector<int> m_ofGpu;            //!< Per GPU, its job or NONE
    uint32_t m_gpusPerServer;            //!< GPUs per server
};

} // namespace ns3

#endif /* JOB_ATTRIBUTION_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_REPORT_H
#define JOB_REPORT_H

#include "ns3/job-builder.h"
#include "ns3/job-runner.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class CircuitRecorder;
class ControllerFailover;
class FaultInjector;
class JobAttribution;
class JobRecorder;

/**
 * \ingroup photonic-rails
 * \brief What a finished job measured, and the files that say it.
 *
 * Reads the fabric, the control plane and the recorders once the simulation has run (and
 * before it is destroyed), and writes the main program's CONTRACT into an output folder:
 * summary.json, collectives.csv, reconfigurations.csv, timeline.json and, with faults,
 * faults.csv. The measurements go into a JobResult too; nothing is printed. It keeps
 * references to the options, the builder, the recorder and the faults it was given: they
 * must outlive it.
 */
class JobReport
{
  public:
    /**
     * \brief Reads what the job did and fills \p result's measurements (iteration times,
     *        makespan, reconfigurations, speculation, fault recovery, algorithms).
     * \param o the options the job ran with
     * \param fabric the fabric it ran on
     * \param builder the builder that assembled it
     * \param job the job, run
     * \param recorder the recorder attached to its runtimes
     * \param circuits the recorder attached to its OCSes (optical rails)
     * \param faults the faults injected, or null
     * \param result the result to fill
     * \param jobs several jobs on the fabric (two or more: a JobShare each in result, and
     *        per-job outputs; JobAttribution says what belongs to which)
     */
    JobReport(const JobOptions& o,
              const JobFabric& fabric,
              const JobBuilder& builder,
              const Job& job,
              const JobRecorder& recorder,
              const CircuitRecorder& circuits,
              const FaultInjector* faults,
              JobResult& result,
              const std::vector<JobSlice>& jobs = {});
    ~JobReport();

    /**
     * \brief Writes every output file.
     * \param outDir the folder (created; std::runtime_error if it cannot be, or a file
     *        cannot be written)
     * \param result the measurements, wall time and events included
     */
    void Write(const std::string& outDir, const JobResult& result) const;

    /**
     * \brief Reports controller faults too: their events in faults.csv, their outages on
     *        the timeline, summary.json's controller_failover (stall, outages, messages held).
     * \param failover the run's controller faults (none: nothing changes); must outlive it
     */
    void SetControllerFailover(const ControllerFailover* failover);

  private:
    struct Measured; //!< What the run's parts measured, for the files

    /// Fills result.jobs: each job's iterations, reconfigurations, exposure and bytes.
    void MeasureJobs(const Job& job, JobResult& result) const;

    const JobOptions& m_options;                   //!< The options
    const JobBuilder& m_builder;                   //!< The builder
    const JobRecorder& m_recorder;                 //!< The runtimes' record
    const FaultInjector* m_faults;                 //!< Faults, or null
    const std::vector<JobSlice>& m_jobs;           //!< Several jobs, or none
    std::unique_ptr<JobAttribution> m_attribution; //!< With two jobs or more, else null
    std::unique_ptr<Measured> m_measured;          //!< Read at construction
    const ControllerFailover* m_failover{nullptr}; //!< Controller faults, or null
};

} // namespace ns3

#endif /* JOB_REPORT_H */

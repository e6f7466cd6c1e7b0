/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_REPORT_H
#define JOB_REPORT_H

#include "ns3/job-builder.h"
#include "ns3/job-runner.h"

#include <memory>
#include <string>

namespace ns3
{

class CircuitRecorder;
class FaultInjector;
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
     */
    JobReport(const JobOptions& o,
              const JobFabric& fabric,
              const JobBuilder& builder,
              const Job& job,
              const JobRecorder& recorder,
              const CircuitRecorder& circuits,
              const FaultInjector* faults,
              JobResult& result);
    ~JobReport();

    /**
     * \brief Writes every output file.
     * \param outDir the folder (created; std::runtime_error if it cannot be, or a file
     *        cannot be written)
     * \param result the measurements, wall time and events included
     */
    void Write(const std::string& outDir, const JobResult& result) const;

  private:
    struct Measured; //!< What the run's parts measured, for the files

    const JobOptions& m_options;          //!< The options
    const JobBuilder& m_builder;          //!< The builder
    const JobRecorder& m_recorder;        //!< The runtimes' record
    const FaultInjector* m_faults;        //!< Faults, or null
    std::unique_ptr<Measured> m_measured; //!< Read at construction
};

} // namespace ns3

#endif /* JOB_REPORT_H */

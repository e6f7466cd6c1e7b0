/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_WORKLOAD_H
#define JOB_WORKLOAD_H

#include "ns3/job-runner.h"
#include "ns3/strict-command-line.h"
#include "ns3/workload-dag.h"
#include "ns3/workload-format-registry.h"
#include "ns3/workload-generator-flags.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The workload a program runs: a file of one of WorkloadFormatRegistry's formats
 *        (a DAG file --dag, a Chakra execution trace --chakra with --commGroups), a generated
 *        job (--model and the generator's flags), or, when none is named, the paper's job.
 *
 * The paper's job is the measured run: --job=b16 (Llama3-8B with TP 4, FSDP 2, PP 2 1F1B,
 * two 4-sequence micro-batches, calibrated compute) on the perlmutter-testbed preset (4
 * servers x 4 A100 at the testbed's 1.0 GiB/s per GPU), two iterations (provisioning
 * profiles the first), coalesced 60 KiB rail frames and a 100 ms reconfiguration delay.
 * Flags given explicitly win over these defaults.
 */
class JobWorkload
{
  public:
    /// \param cmd the program's flags: every workload format's (--dag, --chakra,
    ///        --commGroups) and the generator's flags are added
    void AddFlags(StrictCommandLine& cmd);

    /**
     * \brief After parsing: applies --job (the generator's defaults and, unless given,
     *        --gpusPerServer), and selects the paper's job when no workload is named.
     * \param cmd the parsed flags
     * \param o the job options (the paper's defaults are set where no flag was given)
     * \return true if the paper's job runs
     */
    bool ApplyDefault(const StrictCommandLine& cmd, JobOptions& o);

    /**
     * \brief Loads or generates the workload (one-line std::invalid_argument on errors);
     *        sets o.workload.
     * \param cmd the parsed flags
     * \param o the checked job options
     * \return the DAG
     */
    std::shared_ptr<const WorkloadDag> Load(const StrictCommandLine& cmd, JobOptions& o) const;

    /**
     * \return the measured job this workload is (b16, b24), or "" when it is not one: the
     *         job's preset with no other generator flag, on the perlmutter-testbed preset's
     *         hardware (no --servers, --gpusPerServer, --nicPorts, --nicRate)
     */
    const std::string& GetMeasuredJob() const;

    /// \return what reading the file did, one line each (a Chakra trace's; empty for a DAG
    ///         file and a generated job)
    const std::vector<std::string>& GetNotes() const;

    /// \return the flags AddFlags registered, without dashes (--jobs checks a job's
    ///         workload flags against them before parsing)
    std::vector<std::string> GetFlagNames() const;

    /// \return of them, those that name a file or a prefix (--dag, --chakra, --commGroups)
    std::vector<std::string> GetFileFlagNames() const;

  private:
    /// \return the file of format read with its companion flags, the server size and
    ///         --gpu/--mfu, replayed first if the format asks for it
    std::shared_ptr<const WorkloadDag> LoadFile(const WorkloadFormatEntry& format,
                                                const StrictCommandLine& cmd,
                                                JobOptions& o,
                                                uint32_t gpusPerServer) const;
    /// \return one line naming every setting of a generated job (summary.json's workload)
    std::string Describe(const WorkloadGenerator& generator) const;
    /// \return what GetMeasuredJob() says, from the parsed flags and options
    std::string MeasuredJob(const StrictCommandLine& cmd, const JobOptions& o) const;

    /// The formats' input and companion flags by name (--dag, --chakra, --commGroups)
    std::map<std::string, std::string> m_files;
    mutable std::vector<std::string> m_notes; //!< GetNotes()
    std::string m_measured;                   //!< GetMeasuredJob()
    WorkloadGeneratorFlags m_gen;             //!< The generator's flags
};

} // namespace ns3

#endif /* JOB_WORKLOAD_H */

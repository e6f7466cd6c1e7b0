/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_RECORDER_H
#define JOB_RECORDER_H

#include "ns3/application-container.h"
#include "ns3/rank-runtime.h"
#include "ns3/workload-timeline.h"

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Something that happened to the fabric over a time span (a part down), for traces.
 */
struct FabricSpan
{
    std::string name; //!< What, e.g. "nic:gpu5.port1 down"
    double startS;    //!< Start, seconds
    double endS;      //!< End, seconds (at startS: an instant)
};

/**
 * \ingroup photonic-rails
 * \brief Observes the rank runtimes of a job and keeps what the outputs report.
 *
 * It listens to the OpStart/OpEnd trace sources only: it never steers the simulation.
 * An op's reported iteration is replay x (iterations in the DAG) + its own iteration
 * field, so iteration k ends when its last op on any rank ends, and lasts that end minus
 * the end of iteration k-1 (0 for the first), as the main program's CONTRACT says. Ops
 * labelled with iterations may overlap (iteration 1's last op may end before iteration
 * 0's): an iteration's end is taken as the latest end of it and of every earlier one, so
 * no iteration lasts less than 0, and an iteration without ops lasts 0.
 */
class JobRecorder
{
  public:
    /**
     * \brief Starts listening.
     * \param runtimes RankRuntime applications
     * \param dagIterations iterations inside the DAG (WorkloadDag::GetIterationCount())
     * \param replays times the runtimes replay the DAG
     */
    void Attach(const ApplicationContainer& runtimes, uint32_t dagIterations, uint32_t replays);

    /**
     * \brief Records, for every collective, the plan its communicator ran (algorithm,
     *        channels, chunk): asked of the communicator when the op ends (plans are cached
     *        per shape, so this reads what ran and changes nothing).
     * \param dag the job (groups of the calls)
     * \param communicators every rank's communicator, by rank
     */
    void AttachPlans(std::shared_ptr<const WorkloadDag> dag,
                     std::vector<Ptr<CollectiveCommunicator>> communicators);

    /// Per collective type: how many collective ops (one per member) ran each algorithm
    using AlgorithmCounts = std::map<std::string, std::map<std::string, uint64_t>>;

    /// \return the algorithms collectives ran (empty without AttachPlans)
    AlgorithmCounts GetAlgorithmCounts() const;

    /// \param startS seconds: when the first iteration starts (the first job's start; 0
    ///        by default)
    void SetStart(double startS);

    /// \return per reported iteration (replays x DAG iterations of them), its time in seconds
    std::vector<double> GetIterationTimes() const;

    /**
     * \brief The iterations of one of several jobs on the fabric, as GetIterationTimes()
     *        counts the whole run's: its reported iteration k ends when its last op of k on
     *        any of its ranks ends.
     * \param ranks the job's ranks (GPUs)
     * \param replays its replays
     * \param startS seconds: its start (its first iteration's)
     * \return per reported iteration of the job, seconds
     */
    std::vector<double> GetIterationTimes(const std::vector<uint32_t>& ranks,
                                          uint32_t replays,
                                          double startS) const;

    /// \return the end of the last op, seconds
    double GetMakespan() const;

    /// \param ranks some ranks (one of several jobs') \return the end of their last op,
    ///        seconds (0 if none ran)
    double GetMakespan(const std::vector<uint32_t>& ranks) const;

    /// \return ops finished so far
    uint64_t GetOpsDone() const;

    /// \return when an op last started or ended, seconds
    double GetLastActivity() const;

    /// \return one record per communication op and replay, in order of completion
    const WorkloadTimeline& GetTimeline() const;

    /**
     * \brief Writes every op (compute and communication) as Chrome trace events
     * (one process per server, one thread per rank and stream); opens in Perfetto.
     * \param os the stream
     * \param gpusPerServer ranks per server
     * \param fabricSpans fabric events (faults), drawn on a "fabric" process, a thread each
     * \param serverJobs several jobs on the fabric: per server, the job it runs ("" for
     *        none); each server's process is then named "job NAME: server S" and the
     *        processes are sorted job by job, in the order the jobs first appear
     */
    void WriteChromeTrace(std::ostream& os,
                          uint32_t gpusPerServer,
                          const std::vector<FabricSpan>& fabricSpans = {},
                          const std::vector<std::string>& serverJobs = {}) const;

  private:
    struct Span
    {
        const WorkloadOp* op; //!< The op
        uint64_t iteration;   //!< Reported iteration
        double startS;        //!< Start
        double endS;          //!< End
    };

    void OpStarted(const WorkloadOp& op, uint32_t replay);
    void OpEnded(const WorkloadOp& op, uint32_t replay);

    std::shared_ptr<const WorkloadDag> m_dag;                             //!< For AttachPlans
    std::vector<Ptr<CollectiveCommunicator>> m_communicators;             //!< For AttachPlans
    uint64_t m_dagIterations{1};                                          //!< Per replay
    uint64_t m_iterations{1};                                             //!< Reported in all
    double m_start{0};                                                    //!< SetStart
    double m_lastActivity{0};                                             //!< Last op event
    double m_makespan{0};                                                 //!< Latest op end
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, double> m_started; //!< Running ops
    std::vector<Span> m_spans;                                            //!< Finished ops
    std::map<uint64_t, double> m_iterationEnd; //!< Reported iteration -> last end
    WorkloadTimeline m_timeline;               //!< Communication records
};

} // namespace ns3

#endif /* JOB_RECORDER_H */

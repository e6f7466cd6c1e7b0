/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_RUNNER_H
#define JOB_RUNNER_H

#include "ns3/controller-failover.h"
#include "ns3/fault-schedule.h"
#include "ns3/job-builder.h"
#include "ns3/nstime.h"
#include "ns3/opus-shim.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/restart-planner.h"
#include "ns3/restart-policy.h"
#include "ns3/strict-command-line.h"
#include "ns3/workload-dag.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief How to run a job: hardware, transport, collectives, Opus (the programs' flags).
 */
struct JobOptions
{
    static constexpr double MIN_REDUCE_GBPS = 0.001; //!< Slowest reduction, GB/s (1 MB/s)
    static constexpr double MAX_REDUCE_GBPS = 1e6;   //!< Fastest reduction, GB/s

    std::string workload;             //!< What runs, as summary.json names it
    std::string network{"packet"};    //!< NetworkModelRegistry name (a list in the sim)
    std::string preset{"perlmutter"}; //!< Server hardware
    uint32_t servers{0};              //!< 0: as many as the ranks need
    uint32_t gpusPerServer{0};        //!< 0: the preset's
    uint32_t nicPorts{0};             //!< 0: the preset's
    double nicRate{0};                //!< Gb/s per port, 0: the preset's
    std::string ocs{"piezo"};         //!< OCS technology
    /// What an OCS darkens to reconfigure: technology (its catalogue entry's), per-port or
    /// whole-switch
    std::string ocsSwitching{"technology"};
    std::string reconfigDelay;          //!< Overrides the technology's delay ("" = no)
    std::string controlLatency;         //!< Opus shim <-> controller, one way ("" = default)
    Time reconfigDelayTime{-1};         //!< reconfigDelay read by Check (negative: none)
    Time controlLatencyTime{-1};        //!< controlLatency read by Check (negative: default)
    uint32_t radix{64};                 //!< Electrical switch radix
    double oversubscription{1.0};       //!< Clos leaf down:up
    uint32_t frameBytes{4096};          //!< Payload per frame on rails
    uint32_t scaleUpFrameBytes{61440};  //!< Payload per frame on scale-up links
    std::string algorithm{"auto"};      //!< For collectives that do not name one
    uint32_t channels{2};               //!< NCCL channels
    uint32_t chunkKiB{512};             //!< Pipelining chunk
    uint32_t qpsPerConnection{1};       //!< QPs per port and peer (NCCL_IB_QPS_PER_CONNECTION)
    std::string ringSteps{"chunked"};   //!< Flat rings: chunked (as NCCL) or merged per call
    double reduceGBps{0};               //!< Reduction bandwidth, 0 = free
    uint32_t iterations{1};             //!< Replays
    uint32_t seed{1};                   //!< RNG run number
    double progress{5};                 //!< Wall seconds between progress lines (0: none)
    std::string faults;                 //!< --faults: a JSON fault schedule ("" = none)
    std::string fault;                  //!< --fault: inline faults, comma-separated
    std::string detectionDelay{"10ms"}; //!< Electrical rails: failure to rerouting
    FaultSchedule faultSchedule;        //!< faults and fault read by Check
    Time detectionDelayTime;            //!< detectionDelay read by Check
    /// GPU and server failures: how the job restarts (its flags are added by the programs
    /// that run such failures, not by AddFlags)
    RestartPolicy restart;
    /// --controllerFailover: a controller fault's standby takes over this long after it
    /// ("" = ControllerFailover::DEFAULT_FAILOVER_S, a published SDN controller failover)
    std::string controllerFailover;
    /// controllerFailover read by Check
    Time controllerFailoverTime{Seconds(ControllerFailover::DEFAULT_FAILOVER_S)};

    /// \param cmd the program's flags: every field above but workload gets its flag
    void AddFlags(StrictCommandLine& cmd);
    /// \return the network models --network lists (Check() has checked them)
    std::vector<std::string> Networks() const;
    /// \return the hardware of --preset (std::invalid_argument, one line, for an unknown one)
    RailFabricSpec PresetHardware() const;
    /// \return GPUs per server: --gpusPerServer, or the preset's
    uint32_t GpusPerServer() const;

    /// Checks the values and reads the durations (std::invalid_argument, one line).
    void Check();
};

/**
 * \ingroup photonic-rails
 * \brief One of several jobs sharing a fabric (photonic-rails-sim --jobs): where and when
 *        it runs (JobMix places and loads it).
 */
struct JobSlice
{
    std::string name;              //!< As the jobs file names it
    std::string workload;          //!< What it runs, as summary.json names a workload
    std::vector<uint32_t> servers; //!< Its servers, in rank order
    std::vector<uint32_t> gpus;    //!< Per rank of its workload, the fabric's GPU running it
    Time start;                    //!< When its ranks start
    uint32_t iterations{1};        //!< Replays of its workload
    /// Seconds: its iteration when it runs alone on the same GPUs of the same fabric
    /// (negative: not measured)
    double aloneIterationTime{-1};
    /// Seconds from its start to its last op's end when it runs alone there (negative: not
    /// measured)
    double aloneDuration{-1};
};

/**
 * \ingroup photonic-rails
 * \brief What one of several jobs on a fabric measured in a run.
 */
struct JobShare
{
    std::string name;                   //!< The job
    std::vector<double> iterationTimes; //!< Seconds, the first from its start
    double steadyIterationTime{0};      //!< As JobResult's, over this job's iterations
    double aloneIterationTime{-1};      //!< JobSlice's (negative: not measured)
    double aloneDuration{-1};           //!< JobSlice's (negative: not measured)
    double start{0};                    //!< Seconds
    double end{0};                      //!< Seconds, its last op's end
    uint64_t reconfigurations{0};       //!< OCS reconfigurations that served it
    double exposedReconfiguration{0};   //!< Seconds its communications waited for circuits
    uint64_t bytesSent{0};              //!< By its communicators

    /// \return what sharing the fabric cost it: its time from start to end over that time
    ///         alone (1 when not measured or alone took no time)
    double Slowdown() const;
};

/**
 * \ingroup photonic-rails
 * \brief What one run of a job measured.
 */
struct JobResult
{
    std::string fabric;                 //!< Fabric name
    std::string network;                //!< Network model that produced it (packet, flow)
    std::vector<double> iterationTimes; //!< Seconds
    /// Seconds: the mean of the iterations after the first (which warms up), or the only one
    double steadyIterationTime{0};
    double makespan{0};               //!< Seconds
    uint64_t reconfigurations{0};     //!< OCS reconfigurations, all rails
    double exposedReconfiguration{0}; //!< Seconds communications waited for circuits
    double reconfigurationDelay{0};   //!< Seconds, on Opus-driven fabrics (else 0)
    uint64_t speculative{0};          //!< Reconfigurations ordered by provisioning
    uint64_t speculativeUnused{0};    //!< Of them, not used by the communication guessed
    uint64_t speculativeDelaying{0};  //!< Of them, switching a request had to wait for
    /// With faults: seconds from the first failure until the traffic it stopped moved again
    /// (moved to other ports, resumed on the repaired part, rerouted, or switched on retry)
    double faultRecovery{0};
    double wall{0};     //!< Wall seconds
    uint64_t events{0}; //!< Simulator events
    /// Per collective type, per algorithm run: collective ops (one per member and replay)
    std::map<std::string, std::map<std::string, uint64_t>> algorithms;
    std::vector<JobShare> jobs; //!< Several jobs on the fabric: one each (else empty)
    /// GPU and server failures: the restarts they caused (attempts 0 without any); the
    /// other fields are then those of the last attempt, from its restart
    RestartOutcome restarts;
    /// Why the run could not finish ("" if it did): its summary.json then says so
    /// ("finished": false, "stuck": why) beside what it finished, without iteration times
    std::string stuck;
    uint64_t opsFinished{0}; //!< When stuck: the ops (of every rank and replay) that ended
};

/**
 * \ingroup photonic-rails
 * \brief Runs a job the programs' options describe on one fabric and writes what happened.
 *
 * Assembles the job with a JobBuilder (MakeBuilder), seeds the random numbers, runs the
 * simulation with progress on stderr, and has a JobReport write summary.json,
 * collectives.csv, reconfigurations.csv and timeline.json into the output folder (the
 * main program's CONTRACT). A run that cannot finish prints what every blocked rank
 * waits for, writes what it finished (summary.json says "finished": false and why) and
 * throws std::runtime_error.
 */
class JobRunner
{
  public:
    /**
     * \brief The fabric specification a run uses.
     * \param o the options
     * \param fabric the fabric
     * \param ranks the job's ranks
     * \return the spec (std::invalid_argument with a one-line reason if invalid)
     */
    static RailFabricSpec MakeSpec(const JobOptions& o, const JobFabric& fabric, uint32_t ranks);

    /**
     * \brief The builder of a job on \p fabric, configured by the options.
     * \param o the options
     * \param fabric the fabric
     * \param ranks the job's ranks
     * \return the builder (std::invalid_argument with a one-line reason if the spec is invalid)
     */
    static JobBuilder MakeBuilder(const JobOptions& o, const JobFabric& fabric, uint32_t ranks);

    /**
     * \brief Checks, before any run, that the job can run on every fabric: their specs
     *        (MakeSpec), and on Opus-driven optical rails that it can finish when every
     *        communication waits for all its members (OpusHelper::CheckRendezvous).
     * \param o the options
     * \param fabrics the fabrics
     * \param dag the job
     * \return notes for the user, one line each ("fabric: note: ..."; none usually)
     *
     * Throws std::invalid_argument with a one-line reason.
     */
    static std::vector<std::string> CheckBeforeRuns(const JobOptions& o,
                                                    const std::vector<JobFabric>& fabrics,
                                                    const WorkloadDag& dag);

    /**
     * \brief Checks, before any run, that every attribute given on the command line acts on
     *        at least one of the runs (JobBuilder::WhyInert): one that would change nothing
     *        is refused, as a flag that does not apply to the fabrics is.
     * \param attributes the attributes given (StrictCommandLine::GetAttributes)
     * \param o the options (their network models)
     * \param fabrics the fabrics
     * \param ranks the job's ranks
     *
     * Throws std::invalid_argument with a one-line reason.
     */
    static void CheckAttributesApply(const std::vector<std::string>& attributes,
                                     const JobOptions& o,
                                     const std::vector<JobFabric>& fabrics,
                                     uint32_t ranks);

    /**
     * \brief Runs the job.
     * \param o the options
     * \param dag the job
     * \param fabric the fabric
     * \param outDir output folder (created)
     * \param jobs several jobs on the fabric (JobMix): their ranks' replays and starts, and
     *        with two or more, a report per job (summary.json's jobs, a job column in the
     *        CSVs, a timeline process group per job); empty: one job, o.iterations
     * \return the measurements
     */
    static JobResult Run(const JobOptions& o,
                         std::shared_ptr<const WorkloadDag> dag,
                         const JobFabric& fabric,
                         const std::string& outDir,
                         const std::vector<JobSlice>& jobs = {});

    /// \return the process's peak resident memory, MiB
    static double PeakRssMiB();
};

} // namespace ns3

#endif /* JOB_RUNNER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-runner.h"

#include "job-report.h"

#include "ns3/attribute-audit.h"
#include "ns3/boolean.h"
#include "ns3/circuit-recorder.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/controller-failover.h"
#include "ns3/core-module.h"
#include "ns3/fault-injector.h"
#include "ns3/job-recorder.h"
#include "ns3/log.h"
#include "ns3/network-model-registry.h"
#include "ns3/ocs-technology.h"
#include "ns3/opus-helper.h"
#include "ns3/rail-fabric.h"
#include "ns3/rank-runtime.h"
#include "ns3/simulation-horizon.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobRunner");

double
JobRunner::PeakRssMiB()
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0; // KiB on Linux
}

JobBuilder
JobRunner::MakeBuilder(const JobOptions& o, const JobFabric& fabric, uint32_t ranks)
{
    RailFabricSpec spec = MakeSpec(o, fabric, ranks);
    JobBuilder builder(spec, fabric);
    builder.SetNetworkModel(o.network);
    if (spec.kind != RailKind::OCS)
    {
        builder.SetDetectionDelay(o.detectionDelayTime);
    }
    builder.SetCommunicatorAttribute("Channels", UintegerValue(o.channels));
    builder.SetCommunicatorAttribute("ChunkBytes", UintegerValue(uint64_t(o.chunkKiB) * 1024));
    builder.SetCommunicatorAttribute("ReductionBandwidth", DoubleValue(o.reduceGBps * 1e9));
    builder.SetCommunicatorAttribute("DefaultAlgorithm", StringValue(o.algorithm));
    builder.SetCommunicatorAttribute("AggregateRings", BooleanValue(o.ringSteps == "merged"));
    builder.SetIterations(o.iterations);
    builder.SetQpsPerConnection(o.qpsPerConnection);
    if (!o.reconfigDelayTime.IsStrictlyNegative())
    {
        builder.SetReconfigurationDelay(o.reconfigDelayTime);
    }
    if (!o.controlLatencyTime.IsStrictlyNegative())
    {
        builder.SetControlLatency(o.controlLatencyTime);
    }
    return builder;
}

RailFabricSpec
JobRunner::MakeSpec(const JobOptions& o, const JobFabric& fabric, uint32_t ranks)
{
    RailFabricSpec spec = o.PresetHardware();
    spec.gpusPerServer = o.GpusPerServer();
    // Check() bounded both: set them as given (a "PxRG" string would quote what nobody typed).
    if (o.nicPorts > 0)
    {
        spec.nicPorts = o.nicPorts;
    }
    if (o.nicRate > 0)
    {
        spec.nicPortBps = static_cast<uint64_t>(std::llround(o.nicRate * 1e9));
    }
    // In 64 bits: ranks + gpusPerServer - 1 wraps a 32-bit count (to 0 servers).
    uint64_t needed = (uint64_t(ranks) + spec.gpusPerServer - 1) / spec.gpusPerServer;
    // Spares idle on every rail until a failure restarts the job on one (JobRestarts).
    spec.servers =
        (o.servers > 0 ? o.servers : static_cast<uint32_t>(needed)) + o.restart.spareServers;
    if (uint64_t(spec.servers) * spec.gpusPerServer < ranks)
    {
        throw std::invalid_argument("the workload has " + std::to_string(ranks) + " ranks; " +
                                    std::to_string(spec.servers) + " servers x " +
                                    std::to_string(spec.gpusPerServer) + " GPUs are too few");
    }
    spec.kind = fabric.kind;
    ParseOcsSwitching(o.ocsSwitching, spec.ocsSwitching); // Check() has checked the name
    spec.ocsTechnology = o.ocs;
    spec.switchRadix = o.radix;
    spec.oversubscription = o.oversubscription;
    spec.railFrameBytes = o.frameBytes;
    spec.scaleUpFrameBytes = o.scaleUpFrameBytes;
    std::string error = spec.Validate();
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    return spec;
}

namespace
{

/// True if a merged ring has steps to hide (3 members or more) and they are one chunk per
/// channel: bytes to a neighbour over the n-1 steps and the channels fit one chunk (the
/// pipelining that hides a step's latency needs two).
bool
OneChunkPerStep(const CollectivePlan& plan, std::size_t members)
{
    if (members < 3)
    {
        return false;
    }
    for (const CollectiveTask& task : plan.tasks)
    {
        uint64_t perStep = task.bytes / (members - 1) / plan.channels;
        if (task.kind == CollectiveTask::SEND && perStep > plan.chunkBytes)
        {
            return false;
        }
    }
    return true;
}

/// Plans every collective once before simulating: a call that cannot run is a one-line
/// error, never an abort mid-run (plans are cached, so the run reuses them). With merged
/// ring steps, returns how many calls merged and, when some move at most one chunk per step
/// and channel, a note that chunked steps would pay their steps' latencies.
std::vector<std::string>
CheckPlans(const WorkloadDag& dag, const std::vector<Ptr<CollectiveCommunicator>>& communicators)
{
    uint64_t collectives = 0;
    uint64_t merged = 0;
    uint64_t oneChunk = 0;
    std::string example;
    for (const WorkloadOp& op : dag.GetAllOps())
    {
        if (!IsWorkloadCollective(op.type))
        {
            continue;
        }
        std::shared_ptr<const CollectivePlan> plan;
        try
        {
            plan = communicators[op.rank]->GetPlan(RankRuntime::CallOf(dag, op));
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument("rank " + std::to_string(op.rank) + " op " +
                                        std::to_string(op.id) + " (" + WorkloadOpTypeName(op.type) +
                                        " on " + op.group + "): " + e.what());
        }
        ++collectives;
        if (plan->aggregated)
        {
            ++merged;
            if (OneChunkPerStep(*plan, dag.FindGroup(op.group)->size()))
            {
                example = example.empty() ? op.label : example;
                ++oneChunk;
            }
        }
    }
    std::vector<std::string> notes;
    if (!communicators.empty() && communicators.front()->GetAggregateRings())
    {
        notes.push_back("ring steps merged in " + std::to_string(merged) + " of " +
                        std::to_string(collectives) + " collective calls (counted per rank)" +
                        (merged < collectives ? "; the others are not flat rings and keep "
                                                "their messages"
                                              : ""));
    }
    if (oneChunk > 0)
    {
        notes.push_back(
            "note: " + std::to_string(oneChunk) + " of the " + std::to_string(merged) +
            " merged calls" + (example.empty() ? std::string() : " (e.g. '" + example + "')") +
            " move at most one chunk per step and channel: where those chunks take less time "
            "on the wire than a message's latency (a few us), chunked steps pay it at every "
            "step and merged ones once (--ringSteps=chunked shows the cost)");
    }
    return notes;
}

} // namespace

std::vector<std::string>
JobRunner::CheckBeforeRuns(const JobOptions& o,
                           const std::vector<JobFabric>& fabrics,
                           const WorkloadDag& dag)
{
    std::vector<std::pair<std::string, std::string>> notes; // (fabrics, note)
    bool opus = false;
    for (const JobFabric& fabric : fabrics)
    {
        o.faultSchedule.CheckAgainst(MakeSpec(o, fabric, dag.GetRankCount()), fabric.name);
        opus = opus || fabric.IsOpus();
        for (const Fault& fault : o.faultSchedule.GetFaults())
        {
            if (fault.kind == Fault::OCS_RECONFIG && fabric.staticSplit)
            {
                throw std::invalid_argument("fault \"" + fault.entry +
                                            "\": fabric ocs-static never reconfigures");
            }
            if (fault.kind == Fault::CONTROLLER && !fabric.IsOpus())
            {
                throw std::invalid_argument("fault \"" + fault.entry + "\": fabric " + fabric.name +
                                            " has no Opus controller");
            }
        }
    }
    if (opus)
    {
        OpusHelper::CheckRendezvous(dag, o.iterations);
    }
    // Plans and circuits depend on the fabric: build each one, check, and discard it, so
    // that no run starts before every fabric's problem is known. They do not depend on the
    // network model; a model with frames, if listed, stands for all: it builds what a
    // model without has and more (switches and transports, with their rules).
    JobOptions one = o;
    std::vector<std::string> networks = o.Networks();
    auto withFrames = std::find_if(networks.begin(), networks.end(), [](const std::string& name) {
        const NetworkModelEntry* model = NetworkModelRegistry::Find(name);
        return model != nullptr && model->frames;
    });
    one.network = withFrames != networks.end() ? *withFrames : networks.front();
    for (const JobFabric& f : fabrics)
    {
        JobBuilder builder = MakeBuilder(one, f, dag.GetRankCount());
        Ptr<RailNetwork> fabric = builder.BuildNetwork();
        auto communicators = builder.InstallCommunicators(fabric);
        try
        {
            for (const std::string& note : CheckPlans(dag, communicators))
            {
                // One line per note, naming the fabrics it applies to.
                auto same = std::find_if(notes.begin(), notes.end(), [&note](const auto& n) {
                    return n.second == note;
                });
                if (same == notes.end())
                {
                    notes.emplace_back(f.name, note);
                }
                else
                {
                    same->first += ", " + f.name;
                }
            }
            if (f.kind == RailKind::OCS)
            {
                OpusHelper().CheckDemands(fabric, communicators, dag, f.staticSplit);
            }
        }
        catch (const std::invalid_argument& e)
        {
            Simulator::Destroy();
            throw std::invalid_argument(f.name + ": " + e.what());
        }
        Simulator::Destroy();
    }
    std::vector<std::string> lines;
    for (const auto& [names, note] : notes)
    {
        lines.push_back(names + ": " + note);
    }
    return lines;
}

void
JobRunner::CheckAttributesApply(const std::vector<std::string>& attributes,
                                const JobOptions& o,
                                const std::vector<JobFabric>& fabrics,
                                uint32_t ranks)
{
    std::vector<std::pair<std::string, JobBuilder>> runs; // (name, builder)
    for (const std::string& network : o.Networks())
    {
        JobOptions one = o;
        one.network = network;
        for (const JobFabric& fabric : fabrics)
        {
            std::string name = fabric.name + " (" + network + ")";
            bool listed = std::any_of(runs.begin(), runs.end(), [&name](const auto& run) {
                return run.first == name; // a sweep runs a fabric at several points
            });
            if (!listed)
            {
                runs.emplace_back(name, MakeBuilder(one, fabric, ranks));
            }
        }
    }
    for (const std::string& attribute : attributes)
    {
        bool acts = std::any_of(runs.begin(), runs.end(), [&attribute](const auto& run) {
            return run.second.WhyInert(attribute).empty();
        });
        if (!acts)
        {
            std::string names;
            for (const auto& run : runs)
            {
                names += (names.empty() ? "" : ", ") + run.first;
            }
            throw std::invalid_argument("--" + attribute + " does not apply to " + names + ": " +
                                        runs.front().second.WhyInert(attribute));
        }
    }
}

namespace
{

std::string
Describe(const JobOptions& o, const JobBuilder& builder, RailKind built, bool emulated)
{
    const RailFabricSpec& spec = builder.GetSpec();
    std::ostringstream os;
    auto frames = [](uint32_t bytes) {
        uint32_t real = RailFabricSpec::REAL_FRAME_BYTES;
        std::ostringstream f;
        f << bytes << " B";
        if (bytes > real)
        {
            f << " (coalesced: " << (bytes + real - 1) / real << " real " << real
              << "-B frames each)";
        }
        return f.str();
    };
    os << spec.servers << (spec.servers == 1 ? " server x " : " servers x ") << spec.gpusPerServer
       << " GPUs (" << spec.name << "), " << spec.nicPorts << "x" << spec.nicPortBps / 1e9
       << "G NIC ports per GPU, " << RailFabricSpec::KindName(built) << " rails";
    if (built == RailKind::OCS)
    {
        os << " (" << spec.ocsTechnology << ", reconfiguration delay "
           << builder.GetReconfigurationDelay().As(Time::MS)
           << (spec.WholeSwitch() ? ", darkening the whole switch" : "") << ")";
    }
    if (emulated)
    {
        os << ", Opus testbed emulation (delay " << builder.GetReconfigurationDelay().As(Time::MS)
           << " slept where the testbed's controller did)";
    }
    if (o.ringSteps == "merged")
    {
        os << "\n[sim] ring steps merged: a flat ring collective is one message per neighbour "
              "and direction, its members starting and finishing together";
    }
    if (o.network == "flow")
    {
        os << "\n[sim] network model: flow (max-min fair flows; no PFC, ECN/DCQCN, queueing "
              "or losses), rates net of the framing of "
           << frames(spec.railFrameBytes) << " on rails";
        return os.str();
    }
    os << "\n[sim] network model: packet; frames: " << frames(spec.railFrameBytes) << " on rails, "
       << frames(spec.scaleUpFrameBytes) << " on scale-up links";
    return os.str();
}

/// Prints progress on stderr every `every` wall seconds while the simulation runs.
class ProgressReporter
{
  public:
    ProgressReporter(const std::string& name, const ApplicationContainer& runtimes, double every)
        : m_name(name),
          m_runtimes(runtimes),
          m_every(every),
          m_start(std::chrono::steady_clock::now()),
          m_last(m_start)
    {
        for (uint32_t i = 0; i < runtimes.GetN(); ++i)
        {
            m_total += DynamicCast<RankRuntime>(runtimes.Get(i))->GetOpsTotal();
        }
    }

    void Start()
    {
        if (m_every > 0)
        {
            Simulator::Schedule(MilliSeconds(1), &ProgressReporter::Tick, this);
        }
    }

  private:
    void Tick()
    {
        auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - m_last).count() >= m_every)
        {
            uint64_t done = 0;
            for (uint32_t i = 0; i < m_runtimes.GetN(); ++i)
            {
                done += DynamicCast<RankRuntime>(m_runtimes.Get(i))->GetOpsDone();
            }
            double wall = std::chrono::duration<double>(now - m_start).count();
            std::fprintf(stderr,
                         "[sim] %s: %.3f s simulated, %.1f%% of ops done, %.2f M events/s\n",
                         m_name.c_str(),
                         Simulator::Now().GetSeconds(),
                         100.0 * done / std::max<uint64_t>(1, m_total),
                         Simulator::GetEventCount() / wall / 1e6);
            m_last = now;
        }
        // Only other events keep the simulation going: this one must not (a stuck run ends).
        // While nothing else ran since the last tick (a long blackout, or only the horizon
        // guard left) the period doubles, so an idle stretch costs a few ticks; it never
        // reaches the horizon, whose guard must find the queue empty when a run is stuck.
        uint64_t events = Simulator::GetEventCount();
        const Time horizon = NanoSeconds(HORIZON_NS);
        bool idle = events - m_events <= 1;
        m_period = !idle ? MilliSeconds(1) : m_period < horizon / 2 ? m_period * 2 : horizon;
        m_events = events;
        // Compared without adding: Now + period could pass ns-3's clock.
        if (!Simulator::IsFinished() && m_period < horizon - Simulator::Now())
        {
            Simulator::Schedule(m_period, &ProgressReporter::Tick, this);
        }
    }

    std::string m_name;                            //!< Run name
    ApplicationContainer m_runtimes;               //!< Rank runtimes
    double m_every;                                //!< Wall seconds between lines
    uint64_t m_total{0};                           //!< Ops to run
    std::chrono::steady_clock::time_point m_start; //!< Run start
    std::chrono::steady_clock::time_point m_last;  //!< Last line
    Time m_period{MilliSeconds(1)};                //!< Simulated time between ticks
    uint64_t m_events{0};                          //!< Events run at the last tick
};

/// \return one line per pair of GPUs whose transfers wait for a failed part (packet fabrics)
std::vector<std::string>
DescribeWaitingTransfers(Ptr<RailNetwork> network)
{
    std::vector<std::string> lines;
    if (Ptr<RailFabric> fabric = DynamicCast<RailFabric>(network))
    {
        for (uint32_t gpu = 0; gpu < fabric->GetSpec().Gpus(); ++gpu)
        {
            auto waiting = fabric->GetTransport(gpu)->DescribeWaiting();
            lines.insert(lines.end(), waiting.begin(), waiting.end());
        }
    }
    return lines;
}

/// \return when the run stopped moving: its last op start or end, frame a GPU received or
/// timeout it acted on (packet fabrics), fault event, or OCS reconfiguration's end
double
LastActivity(Ptr<RailNetwork> network,
             const JobRecorder& recorder,
             const FaultInjector* faults,
             Ptr<OpusControlPlane> controller)
{
    Time last = Seconds(recorder.GetLastActivity());
    if (Ptr<RailFabric> fabric = DynamicCast<RailFabric>(network))
    {
        for (uint32_t gpu = 0; gpu < fabric->GetSpec().Gpus(); ++gpu)
        {
            last = std::max(last, fabric->GetTransport(gpu)->GetLastActivity());
        }
    }
    for (const auto& event : faults ? faults->GetEvents() : std::vector<FaultInjector::Event>())
    {
        last = std::max(last, event.at);
    }
    for (const auto& record :
         controller ? controller->GetReconfigurations() : std::vector<OpusReconfigurationRecord>())
    {
        last = std::max(last, record.ended);
    }
    return last.GetSeconds();
}

/// Prints what blocked ranks and transfers wait for. \return the one-line reason
std::string
ReportStuck(const ApplicationContainer& runtimes,
            const std::vector<Ptr<CollectiveCommunicator>>& communicators,
            Ptr<OpusControlPlane> controller,
            const std::vector<std::string>& waitingTransfers,
            double lastActivity)
{
    for (const std::string& line : waitingTransfers)
    {
        std::cerr << line << "\n";
    }
    if (controller)
    {
        for (const std::string& line : controller->DescribePending())
        {
            std::cerr << line << "\n";
        }
    }
    uint32_t blocked = 0;
    for (uint32_t i = 0; i < runtimes.GetN(); ++i)
    {
        auto runtime = DynamicCast<RankRuntime>(runtimes.Get(i));
        if (runtime->IsFinished())
        {
            continue;
        }
        if (++blocked <= 16)
        {
            std::cerr << "rank " << runtime->GetRank() << ":\n";
            for (const std::string& line : runtime->DescribeBlocked())
            {
                std::cerr << "  " << line << "\n";
            }
            for (const std::string& line : communicators[runtime->GetRank()]->DescribeBlocked())
            {
                std::cerr << "  " << line << "\n";
            }
        }
    }
    if (blocked > 16)
    {
        std::cerr << "(" << blocked - 16 << " more blocked ranks not shown)\n";
    }
    std::ostringstream reason;
    reason << "the simulation is stuck after " << lastActivity << " s: " << blocked << " of "
           << runtimes.GetN() << " ranks cannot progress (what each waits for is listed above)";
    if (!waitingTransfers.empty())
    {
        reason << "; transfers between " << waitingTransfers.size()
               << " pairs of GPUs wait for failed parts";
    }
    return reason.str();
}

/// Gives every job's ranks its replays and start; GPUs of no job have no op.
void
ScheduleRanks(JobBuilder& builder, const std::vector<JobSlice>& jobs, uint32_t ranks)
{
    std::vector<uint32_t> iterations(ranks, 1);
    std::vector<Time> starts(ranks);
    for (const JobSlice& slice : jobs)
    {
        for (uint32_t gpu : slice.gpus)
        {
            iterations.at(gpu) = slice.iterations;
            starts.at(gpu) = slice.start;
        }
    }
    builder.SetRankSchedule(std::move(iterations), std::move(starts));
}

/// \return seconds: when the first job starts (0 without jobs)
double
EarliestStart(const std::vector<JobSlice>& jobs)
{
    Time earliest = jobs.empty() ? Time(0) : Time::Max();
    for (const JobSlice& slice : jobs)
    {
        earliest = std::min(earliest, slice.start);
    }
    return earliest.GetSeconds();
}

/// Destroys the simulation however a run ends: an error thrown out of an event (a compute op
/// past the clock, a stuck job) would otherwise leave its events and objects behind.
struct SimulationScope
{
    ~SimulationScope()
    {
        Simulator::Destroy();
    }
};

} // namespace

JobResult
JobRunner::Run(const JobOptions& o,
               std::shared_ptr<const WorkloadDag> dag,
               const JobFabric& f,
               const std::string& outDir,
               const std::vector<JobSlice>& jobs)
{
    SimulationScope scope;
    // A binary heap of events: perf put ns-3's default map scheduler (its inserts and rb-tree
    // rebalancing) at the top of a packet-level run; the heap is 5-10% faster on the 64-GPU
    // and 128-GPU jobs. Events are ordered by time, then by insertion, with any scheduler,
    // so outputs do not change. Set per run: Simulator::Destroy resets the scheduler.
    Simulator::SetScheduler(ObjectFactory("ns3::PriorityQueueScheduler"));
    auto wallStart = std::chrono::steady_clock::now();
    JobBuilder builder = MakeBuilder(o, f, dag->GetRankCount());
    const RailFabricSpec& spec = builder.GetSpec();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(o.seed);

    if (!jobs.empty())
    {
        ScheduleRanks(builder, jobs, dag->GetRankCount());
    }
    Ptr<RailNetwork> network = builder.BuildNetwork();
    std::cerr << "[sim] " << f.name << ": " << Describe(o, builder, network->GetKind(), f.emulated)
              << "\n";
    CircuitRecorder circuits;
    if (f.kind == RailKind::OCS)
    {
        std::vector<Ptr<OpticalCircuitSwitch>> switches;
        for (uint32_t rail = 0; rail < spec.gpusPerServer; ++rail)
        {
            switches.push_back(network->GetOcs(rail));
        }
        circuits.Attach(switches);
    }
    Job job = builder.Install(network, dag);
    CheckPlans(*dag, job.communicators);
    // Controller faults act on Opus's controller; the others on the fabric's parts.
    ControllerFailover failover(o.faultSchedule, o.controllerFailoverTime);
    std::unique_ptr<FaultInjector> faults;
    for (const Fault& fault : o.faultSchedule.GetFaults())
    {
        if (fault.StopsJob()) // they stop the job, not the network: JobRestarts plays them
        {
            throw std::invalid_argument("fault \"" + fault.entry +
                                        "\": this program does not run GPU or server failures "
                                        "(photonic-rails-sim does)");
        }
    }
    if (!failover.GetOtherFaults().IsEmpty())
    {
        faults = std::make_unique<FaultInjector>(network, failover.GetOtherFaults());
        faults->Schedule();
    }
    failover.Schedule(DynamicCast<OpusController>(job.controlPlane));
    JobRecorder recorder;
    recorder.Attach(job.runtimes, dag->GetIterationCount(), o.iterations);
    recorder.SetStart(EarliestStart(jobs));
    recorder.AttachPlans(dag, job.communicators);
    ProgressReporter progress(f.name, job.runtimes, o.progress);
    progress.Start();
    HorizonGuard horizon;
    horizon.Arm();

    Simulator::Run();

    if (!horizon.GetFailure().empty())
    {
        throw std::runtime_error(horizon.GetFailure()); // an event could not go on
    }
    if (horizon.Reached())
    {
        throw std::runtime_error(
            "the job runs past the simulator's time range (2^63 ns, about 292 years): at " +
            std::to_string(Simulator::Now().GetSeconds()) + " s it still had work to do");
    }
    JobResult r;
    for (uint32_t i = 0; i < job.runtimes.GetN() && r.stuck.empty(); ++i)
    {
        if (!DynamicCast<RankRuntime>(job.runtimes.Get(i))->IsFinished())
        {
            r.stuck = ReportStuck(job.runtimes,
                                  job.communicators,
                                  job.controlPlane,
                                  DescribeWaitingTransfers(network),
                                  LastActivity(network, recorder, faults.get(), job.controlPlane));
            r.opsFinished = recorder.GetOpsDone();
        }
    }
    JobReport report(o, f, builder, job, recorder, circuits, faults.get(), r, jobs);
    report.SetControllerFailover(&failover);
    if (!failover.IsEmpty())
    {
        std::ostringstream line; // its precision, not stderr's
        line << "[sim] " << f.name << ": controller down in " << failover.GetOutages().size()
             << " outage(s), " << failover.GetHeldMessages()
             << " message(s) held; controller stall " << std::setprecision(9)
             << failover.GetStall().GetSeconds() << " s\n";
        std::cerr << line.str();
    }
    r.events = Simulator::GetEventCount();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    report.Write(outDir, r);
    Simulator::Destroy();
    if (!r.stuck.empty())
    {
        std::cerr << "[sim] " << f.name << ": what the run finished is in " << outDir
                  << "/ (summary.json: \"finished\": false)\n";
        throw std::runtime_error(r.stuck);
    }
    std::cerr << "[sim] " << f.name << ": iteration " << std::setprecision(6)
              << r.steadyIterationTime << " s; " << r.events << " events in " << r.wall
              << " s wall (" << std::setprecision(3) << r.events / std::max(r.wall, 1e-9) / 1e6
              << " M events/s), peak RSS " << std::fixed << std::setprecision(1) << PeakRssMiB()
              << std::defaultfloat << " MiB; wrote " << outDir << "/\n";
    return r;
}

double
JobShare::Slowdown() const
{
    // The whole job, not its steady iterations: another job can delay the end of its first
    // iteration, which makes the next one, counted from that end, look shorter.
    return aloneDuration > 0 ? (end - start) / aloneDuration : 1.0;
}

std::vector<std::string>
JobOptions::Networks() const
{
    return StrictCommandLine::SplitList("network", network);
}

RailFabricSpec
JobOptions::PresetHardware() const
{
    RailFabricSpec spec;
    if (!RailFabricSpec::Preset(preset, spec))
    {
        throw std::invalid_argument("unknown --preset " + StrictCommandLine::Quote(preset) + " (" +
                                    RailFabricSpec::PresetNames() + ")");
    }
    return spec;
}

uint32_t
JobOptions::GpusPerServer() const
{
    return gpusPerServer > 0 ? gpusPerServer : PresetHardware().gpusPerServer;
}

namespace
{

// Each range is registered with its flag (the command line refuses values outside it, in
// the type or not, with one message) and checked again by JobOptions::Check.
const FlagRange NIC_PORTS(1, RailFabricSpec::MAX_NIC_PORTS, "NIC ports per GPU", "the preset's");
const FlagRange NIC_RATE(RailFabricSpec::MIN_PORT_GBPS,
                         RailFabricSpec::MAX_PORT_GBPS,
                         "Gb/s per NIC port",
                         "the preset's");
// Slower reductions turn one buffer into years (5e-15 GB/s wrapped the simulator's clock: an
// all-reduce ended before it started); each one is still checked at run time.
const FlagRange REDUCE_GBPS(JobOptions::MIN_REDUCE_GBPS,
                            JobOptions::MAX_REDUCE_GBPS,
                            "GB/s of reduction per GPU",
                            "free reductions");
const FlagRange ITERATIONS(1, 1000000, "replays of the workload");
const FlagRange CHANNELS(1, 64, "NCCL channels per collective");
const FlagRange CHUNK_KIB(1, UINT32_MAX, "KiB per pipelining chunk");
const FlagRange QPS_PER_CONNECTION(1, 64, "queue pairs per port and peer");

} // namespace

void
JobOptions::AddFlags(StrictCommandLine& cmd)
{
    // The attributes of every object a job makes are taken from the command line, but
    // those the job sets from these flags: a default given on the command line
    // (--ns3::Type::Attribute=value) would be silently overridden.
    cmd.Creates(AttributeAudit::JobTypes());
    cmd.Reserve("ns3::RailTransport::Mtu", "--frameBytes");
    cmd.Reserve("ns3::RailTransport::ScaleUpMtu", "--frameBytes (scale-up: the same)");
    cmd.Reserve("ns3::RailTransport::RelayChunk", "--frameBytes");
    cmd.Reserve("ns3::RailTransport::Dcqcn", "the fabric (on for electrical rails)");
    cmd.Reserve("ns3::RailNetDevice::Mtu", "--frameBytes");
    cmd.Reserve("ns3::RailNetDevice::DataRate", "--preset, --nicRate and the scale-up rate");
    cmd.Reserve("ns3::OpticalCircuitSwitch::ReconfigurationDelay", "--ocs and --reconfigDelay");
    cmd.Reserve("ns3::OpticalCircuitSwitch::Radix", "--ocs (the technology's radix)");
    cmd.Reserve("ns3::OpticalCircuitSwitch::Switching", "--ocsSwitching");
    cmd.Reserve("ns3::OpusTestbedEmulator::ReconfigurationDelay", "--ocs and --reconfigDelay");
    cmd.Reserve("ns3::OpusController::ControlLatency", "--controlLatency");
    cmd.Reserve("ns3::OpusTestbedEmulator::ControlLatency", "--controlLatency");
    cmd.Reserve("ns3::OpusTestbedEmulator::AskEveryPointToPoint",
                "the fabric's name (emulated asks for every point-to-point, "
                "emulated-provisioning does not)");
    cmd.Reserve("SchedulerType", "the job runner (ns3::PriorityQueueScheduler)");
    cmd.Reserve("ns3::OpusShim::Provisioning",
                "the fabric's name (ocs-provisioning, ocs-oracle, emulated-provisioning)");
    cmd.Reserve("ns3::EpsRouting::DetectionDelay", "--detectionDelay");
    cmd.Reserve("ns3::FlowFabric::DetectionDelay", "--detectionDelay");
    cmd.Retire("provisioning",
               "Opus's mode is the fabric's name: --fabric=ocs-provisioning, ocs-oracle or "
               "emulated-provisioning");
    cmd.Reserve("ns3::RankRuntime::Iterations", "--iterations");
    cmd.Reserve("ns3::CollectiveCommunicator::Channels", "--channels");
    cmd.Reserve("ns3::CollectiveCommunicator::ChunkBytes", "--chunkKiB");
    cmd.Reserve("ns3::RailTransport::QpsPerConnection", "--qpsPerConnection");
    cmd.Reserve("ns3::CollectiveCommunicator::ReductionBandwidth", "--reduceGBps");
    cmd.Reserve("ns3::CollectiveCommunicator::DefaultAlgorithm", "--algorithm");
    cmd.Reserve("ns3::CollectiveCommunicator::AggregateRings", "--ringSteps");
    cmd.Add("network",
            "network model: " + NetworkModelRegistry::Describe() +
                "; photonic-rails-sim takes a list (" + NetworkModelRegistry::Names(",") +
                ") and runs each",
            network);
    cmd.Add("preset", "server hardware: " + RailFabricSpec::PresetNames(), preset);
    cmd.Add("servers", "servers (0: as many as the ranks need)", servers);
    cmd.Add("gpusPerServer", "GPUs per server = rails (0: the preset's)", gpusPerServer);
    cmd.Add("nicPorts", "NIC ports per GPU", nicPorts, NIC_PORTS);
    cmd.Add("nicRate", "Gb/s per NIC port", nicRate, NIC_RATE);
    cmd.Add("ocs", "OCS technology (optical rails): " + OcsTechnologyCatalog::Names(), ocs);
    cmd.Add("ocsSwitching",
            "what an OCS darkens to reconfigure (optical rails): technology (the catalogue's "
            "for --ocs), per-port (only the ports it changes) or whole-switch (every port)",
            ocsSwitching);
    cmd.Add("reconfigDelay",
            "OCS reconfiguration delay, e.g. 25ms (default: the technology's)",
            reconfigDelay);
    cmd.Add("controlLatency",
            "Opus: one-way shim <-> controller delay, e.g. 100us (default: 0, and the "
            "testbed's 17.5ms for the emulated fabrics)",
            controlLatency);
    cmd.Add("radix", "electrical switch radix (eps-clos, and eps beyond it)", radix);
    cmd.Add("oversubscription", "Clos leaf down:up ratio", oversubscription);
    cmd.Add("frameBytes", "transport payload per frame on rails (RoCE MTU 4096)", frameBytes);
    cmd.Add("scaleUpFrameBytes",
            "transport payload per frame on scale-up links",
            scaleUpFrameBytes);
    cmd.Add("algorithm",
            "collectives that name none: auto|" + CollectiveAlgorithmRegistry::Names("|", "|"),
            algorithm);
    cmd.Add("channels", "NCCL channels per collective", channels, CHANNELS);
    cmd.Add("chunkKiB", "pipelining chunk inside a channel, KiB", chunkKiB, CHUNK_KIB);
    cmd.Add("qpsPerConnection",
            "queue pairs a message is spread over per NIC port and peer, each hashed by ECMP "
            "on its own (NCCL_IB_QPS_PER_CONNECTION; packet model)",
            qpsPerConnection,
            QPS_PER_CONNECTION);
    cmd.Add("ringSteps",
            "flat ring collectives: chunked (every chunk of every step a message, as NCCL) or "
            "merged (one message per neighbour and direction, for thousands of GPUs)",
            ringSteps);
    cmd.Add("reduceGBps", "reduction bandwidth per GPU, GB/s", reduceGBps, REDUCE_GBPS);
    cmd.Add("iterations", "replays of the workload, back to back", iterations, ITERATIONS);
    cmd.Add("seed", "run number of the random streams", seed);
    cmd.Add("progress", "wall seconds between progress lines on stderr (0: none)", progress);
    cmd.Add("faults",
            "JSON fault schedule: an array of \"KIND:PART@DOWN[-UP]\" or {part, at, until} "
            "(the network's parts, on either network model)",
            faults);
    cmd.Add("fault",
            "inline faults, comma-separated: KIND:PART@DOWN[-UP], e.g. nic:gpu5.port1@1.2s; "
            "kinds nic, link, switch, ocs-port, ocs, ocs-reconfig (the network's parts), gpu, "
            "server (photonic-rails-sim: the job restarts), controller",
            fault);
    cmd.Add("detectionDelay",
            "electrical rails: time from a link failure (or repair) to routes that avoid (or "
            "use) it",
            detectionDelay);
    cmd.Add("controllerFailover",
            "Opus: time from a controller fault to its standby's takeover (default: 500ms, "
            "an ONOS cluster's measured failover)",
            controllerFailover);
}

void
JobOptions::Check()
{
    StrictCommandLine::CheckRange("nicPorts", nicPorts, NIC_PORTS);
    StrictCommandLine::CheckRange("nicRate", nicRate, NIC_RATE);
    StrictCommandLine::CheckRange("reduceGBps", reduceGBps, REDUCE_GBPS);
    StrictCommandLine::CheckRange("iterations", iterations, ITERATIONS);
    StrictCommandLine::CheckRange("channels", channels, CHANNELS);
    StrictCommandLine::CheckRange("chunkKiB", chunkKiB, CHUNK_KIB);
    StrictCommandLine::CheckRange("qpsPerConnection", qpsPerConnection, QPS_PER_CONNECTION);
    OcsSwitching switching;
    if (!ParseOcsSwitching(ocsSwitching, switching))
    {
        throw std::invalid_argument("--ocsSwitching: " + StrictCommandLine::Quote(ocsSwitching) +
                                    " is not technology, per-port or whole-switch");
    }
    if (!reconfigDelay.empty())
    {
        reconfigDelayTime = StrictCommandLine::ParseTime("reconfigDelay", reconfigDelay);
    }
    if (!controlLatency.empty())
    {
        controlLatencyTime = StrictCommandLine::ParseTime("controlLatency", controlLatency);
    }
    detectionDelayTime = StrictCommandLine::ParseTime("detectionDelay", detectionDelay);
    restart.Check();
    controllerFailoverTime =
        controllerFailover.empty()
            ? Seconds(ControllerFailover::DEFAULT_FAILOVER_S)
            : StrictCommandLine::ParseTime("controllerFailover", controllerFailover);
    faultSchedule = FaultSchedule::Read(faults, fault);
    std::vector<std::string> models = Networks();
    for (const std::string& model : models)
    {
        if (NetworkModelRegistry::Find(model) == nullptr)
        {
            throw std::invalid_argument("unknown --network " + StrictCommandLine::Quote(model) +
                                        " (" + NetworkModelRegistry::Names(", ") + ")");
        }
        if (std::count(models.begin(), models.end(), model) > 1)
        {
            throw std::invalid_argument("--network names " + model + " twice");
        }
    }
    if (ringSteps != "chunked" && ringSteps != "merged")
    {
        throw std::invalid_argument(
            "bad value for --ringSteps: " + StrictCommandLine::Quote(ringSteps) +
            " (expected chunked or merged)");
    }
    // What each model cannot run, from the registry (models are all known by now).
    auto anyLacks = [&models](bool NetworkModelEntry::*capability) {
        return std::any_of(models.begin(), models.end(), [capability](const std::string& m) {
            return !(NetworkModelRegistry::Find(m)->*capability);
        });
    };
    if (ringSteps == "merged" && anyLacks(&NetworkModelEntry::mergedRingSteps))
    {
        throw std::invalid_argument(
            "--ringSteps=merged runs on the flow model only: at packet level a merged message "
            "is split over the NIC ports once, where chunks follow the ports' load");
    }
    if (qpsPerConnection > 1 && anyLacks(&NetworkModelEntry::queuePairs))
    {
        throw std::invalid_argument("--qpsPerConnection runs on the packet network only "
                                    "(--network=packet): the flow model has no queue pairs");
    }
    // GPU, server and controller faults touch no network part: every model runs them.
    const std::vector<Fault>& scheduled = faultSchedule.GetFaults();
    bool networkFaults = std::any_of(scheduled.begin(), scheduled.end(), [](const Fault& f) {
        return !f.StopsJob() && f.kind != Fault::CONTROLLER;
    });
    if (networkFaults && anyLacks(&NetworkModelEntry::faults))
    {
        throw std::invalid_argument("faults run on the packet network only (--network=packet): "
                                    "the flow model has no ports to fail");
    }
    if (ringSteps == "merged" && reduceGBps > 0)
    {
        throw std::invalid_argument(
            "--ringSteps=merged needs free reductions (--reduceGBps=0): merged steps cannot "
            "pipeline their reductions");
    }
    OcsTechnology technology;
    if (!OcsTechnologyCatalog::Find(ocs, technology))
    {
        throw std::invalid_argument("unknown --ocs " + StrictCommandLine::Quote(ocs) + " (" +
                                    OcsTechnologyCatalog::Names() + ")");
    }
    if (progress < 0)
    {
        throw std::invalid_argument("--progress cannot be negative");
    }
    WorkloadAlgorithm parsed;
    if (!ParseWorkloadAlgorithm(algorithm, parsed))
    {
        throw std::invalid_argument("unknown --algorithm " + StrictCommandLine::Quote(algorithm) +
                                    " (auto, " + CollectiveAlgorithmRegistry::Names(", ", ", ") +
                                    ")");
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-runner.h"

#include "ns3/boolean.h"
#include "ns3/circuit-recorder.h"
#include "ns3/collective-helper.h"
#include "ns3/core-module.h"
#include "ns3/enum.h"
#include "ns3/eps-routing.h"
#include "ns3/fault-injector.h"
#include "ns3/flow-fabric-helper.h"
#include "ns3/job-recorder.h"
#include "ns3/log.h"
#include "ns3/ocs-technology.h"
#include "ns3/opus-helper.h"
#include "ns3/rail-fabric-helper.h"
#include "ns3/rank-runtime-helper.h"
#include "ns3/rank-runtime.h"
#include "ns3/simulation-horizon.h"
#include "ns3/workload-timeline.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
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

namespace
{

void
MakeDirectory(const std::string& path)
{
    std::error_code error;
    std::filesystem::create_directories(path, error);
    if (error || !std::filesystem::is_directory(path))
    {
        throw std::runtime_error("cannot create the output directory " + path);
    }
}

std::ofstream
OpenOutput(const std::string& path)
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error("cannot write " + path);
    }
    return out;
}

} // namespace

RailFabricSpec
JobRunner::MakeSpec(const JobOptions& o, const JobFabric& fabric, uint32_t ranks)
{
    RailFabricSpec spec;
    if (!RailFabricSpec::Preset(o.preset, spec))
    {
        throw std::invalid_argument("unknown --preset " + StrictCommandLine::Quote(o.preset) +
                                    " (" + RailFabricSpec::PresetNames() + ")");
    }
    if (o.gpusPerServer > 0)
    {
        spec.gpusPerServer = o.gpusPerServer;
    }
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
    spec.servers = o.servers > 0 ? o.servers : static_cast<uint32_t>(needed);
    if (uint64_t(spec.servers) * spec.gpusPerServer < ranks)
    {
        throw std::invalid_argument("the workload has " + std::to_string(ranks) + " ranks; " +
                                    std::to_string(spec.servers) + " servers x " +
                                    std::to_string(spec.gpusPerServer) + " GPUs are too few");
    }
    spec.kind = fabric.kind;
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

/// The network of \p spec in the model the options choose.
Ptr<RailNetwork>
BuildNetwork(const JobOptions& o, const RailFabricSpec& spec)
{
    if (o.network == "flow")
    {
        FlowFabricHelper helper;
        helper.SetSpec(spec);
        return helper.Build();
    }
    RailFabricHelper helper;
    helper.SetSpec(spec);
    Ptr<RailFabric> fabric = helper.Build();
    for (uint32_t rail = 0; spec.kind != RailKind::OCS && rail < spec.gpusPerServer; ++rail)
    {
        fabric->GetRailRouting(rail)->SetAttribute("DetectionDelay",
                                                   TimeValue(o.detectionDelayTime));
    }
    return fabric;
}

/// Every rank's communicator on \p fabric, configured by the options.
std::vector<Ptr<CollectiveCommunicator>>
InstallCommunicators(const JobOptions& o, Ptr<RailNetwork> fabric)
{
    CollectiveHelper collectives;
    collectives.SetCommunicatorAttribute("Channels", UintegerValue(o.channels));
    collectives.SetCommunicatorAttribute("ChunkBytes", UintegerValue(uint64_t(o.chunkKiB) * 1024));
    collectives.SetCommunicatorAttribute("ReductionBandwidth", DoubleValue(o.reduceGBps * 1e9));
    collectives.SetCommunicatorAttribute("DefaultAlgorithm", StringValue(o.algorithm));
    collectives.SetCommunicatorAttribute("AggregateRings", BooleanValue(o.ringSteps == "merged"));
    return collectives.Install(fabric);
}

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
        }
    }
    if (opus)
    {
        OpusHelper::CheckRendezvous(dag, o.iterations);
    }
    // Plans and circuits depend on the fabric: build each one, check, and discard it, so
    // that no run starts before every fabric's problem is known.
    for (const JobFabric& f : fabrics)
    {
        Ptr<RailNetwork> fabric = BuildNetwork(o, MakeSpec(o, f, dag.GetRankCount()));
        auto communicators = InstallCommunicators(o, fabric);
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

namespace
{

/// The OCS reconfiguration delay: --reconfigDelay, else the technology's.
Time
ReconfigurationDelay(const JobOptions& o, const RailFabricSpec& spec)
{
    return o.reconfigDelayTime.IsStrictlyNegative()
               ? OcsTechnologyCatalog::Get(spec.ocsTechnology).reconfigurationDelay
               : o.reconfigDelayTime;
}

std::string
Describe(const JobOptions& o, const RailFabricSpec& spec, RailKind built, bool emulated)
{
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
           << ReconfigurationDelay(o, spec).As(Time::MS) << ")";
    }
    if (emulated)
    {
        os << ", Opus testbed emulation (delay " << ReconfigurationDelay(o, spec).As(Time::MS)
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

/// Prints what blocked ranks and transfers wait for and throws the one-line reason.
void
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
    throw std::runtime_error(reason.str());
}

/// What Opus did on an optical fabric (or its testbed emulation), for summary.json and
/// reconfigurations.csv.
struct OpticalReport
{
    bool ocs{true};                                //!< Real OCS rails (else emulated)
    std::vector<uint64_t> reconfigurationsPerRail; //!< Completed, per rail
    uint64_t speculative{0};                       //!< Of them, ordered by provisioning
    uint64_t speculativeUnused{0};   //!< Of those, set up for a communication that did not use them
    uint64_t speculativeDelaying{0}; //!< Of those, switching that a request had to wait for
    std::vector<std::vector<double>> blackout;      //!< Per rail, per GPU port: dark seconds
    std::vector<double> uptimePerRail;              //!< Mean fraction of the makespan up
    double uptime{0};                               //!< Mean over every rail NIC port
    std::vector<OpusReconfigurationRecord> records; //!< Every reconfiguration ordered
};

/// Counts the control plane's records into \p report.
void
CountRecords(Ptr<OpusControlPlane> controller, OpticalReport& report)
{
    if (!controller)
    {
        return;
    }
    report.records = controller->GetReconfigurations();
    for (const auto& record : report.records)
    {
        report.speculative += record.speculative ? 1 : 0;
        report.speculativeUnused += record.speculative && !record.used ? 1 : 0;
        report.speculativeDelaying += record.delayedRequest ? 1 : 0;
    }
}

/// What the testbed emulation slept: one reconfiguration per record.
OpticalReport
ReportEmulated(Ptr<OpusControlPlane> emulator, uint32_t rails)
{
    OpticalReport report;
    report.ocs = false;
    report.reconfigurationsPerRail.assign(rails, 0);
    CountRecords(emulator, report);
    for (const auto& record : report.records)
    {
        ++report.reconfigurationsPerRail.at(record.rail);
    }
    return report;
}

/// Reads the switches and the controller after the run.
OpticalReport
ReportOptical(Ptr<RailNetwork> fabric,
              Ptr<OpusControlPlane> controller,
              const CircuitRecorder& circuits,
              Time makespan)
{
    OpticalReport report;
    const RailFabricSpec& spec = fabric->GetSpec();
    double uptimeSum = 0;
    for (uint32_t rail = 0; rail < spec.gpusPerServer; ++rail)
    {
        Ptr<OpticalCircuitSwitch> ocs = fabric->GetOcs(rail);
        report.reconfigurationsPerRail.push_back(ocs->GetReconfigurationCount());
        std::vector<double> dark;
        double railUp = 0;
        for (uint32_t server = 0; server < spec.servers; ++server)
        {
            for (uint32_t nic = 0; nic < spec.nicPorts; ++nic)
            {
                uint32_t port = fabric->GetOcsPort(server * spec.gpusPerServer + rail, nic);
                dark.push_back(ocs->GetPortDarkTime(port).GetSeconds());
                double up = circuits.GetUpTime(rail, port, makespan).GetSeconds();
                railUp += makespan.IsStrictlyPositive() ? up / makespan.GetSeconds() : 0.0;
            }
        }
        report.blackout.push_back(dark);
        report.uptimePerRail.push_back(railUp / dark.size());
        uptimeSum += railUp;
    }
    report.uptime = uptimeSum / (double(spec.gpusPerServer) * spec.servers * spec.nicPorts);
    CountRecords(controller, report);
    return report;
}

/// \return the groups a reconfiguration served, space-separated
std::string
JoinGroups(const std::vector<std::string>& groups)
{
    std::string joined;
    for (const std::string& group : groups)
    {
        joined += (joined.empty() ? "" : " ") + group;
    }
    return joined;
}

void
WriteReconfigurations(const std::string& path, const OpticalReport& report)
{
    std::ofstream csv = OpenOutput(path);
    csv << "rail,ports,requested_s,start_s,end_s,group,speculative,used,delayed_request,"
           "failed_attempts\n"
        << std::setprecision(12);
    for (const auto& r : report.records)
    {
        csv << r.rail << ',';
        for (std::size_t i = 0; i < r.darkPorts.size(); ++i)
        {
            csv << (i ? " " : "") << r.darkPorts[i];
        }
        csv << ',' << r.requested.GetSeconds() << ',' << r.started.GetSeconds() << ','
            << r.ended.GetSeconds() << ',' << WorkloadTimeline::QuoteCsv(JoinGroups(r.groups))
            << ',' << (r.speculative ? 1 : 0) << ',' << (r.used ? 1 : 0) << ','
            << (r.delayedRequest ? 1 : 0) << ',' << r.failedAttempts << '\n';
    }
}

/// What the fabric carried, for summary.json.
struct Traffic
{
    uint64_t bytesSent;      //!< By the communicators
    uint64_t bytesDelivered; //!< Counted at the final GPUs
    uint64_t framesDropped;  //!< Anywhere in the fabric
};

/// The faults and what the transports and routing did about them, for summary.json.
nlohmann::ordered_json
ReportFaults(const FaultInjector& faults, Ptr<RailFabric> fabric)
{
    nlohmann::ordered_json report;
    nlohmann::ordered_json schedule = nlohmann::ordered_json::array();
    for (const Fault& fault : faults.GetFaults())
    {
        nlohmann::ordered_json entry;
        entry["part"] = fault.part;
        entry["at_s"] = fault.down.GetSeconds();
        if (fault.IsRepaired())
        {
            entry["until_s"] = fault.up.GetSeconds();
        }
        schedule.push_back(entry);
    }
    report["schedule"] = schedule;
    report["events"] = faults.GetEvents().size();
    uint64_t timeouts = 0;
    uint64_t retransmitted = 0;
    uint64_t partsMoved = 0;
    uint64_t bytesMoved = 0;
    uint64_t detours = 0;
    uint64_t bytesDetoured = 0;
    for (uint32_t gpu = 0; gpu < fabric->GetSpec().Gpus(); ++gpu)
    {
        const RailTransportCounters& c = fabric->GetTransport(gpu)->GetCounters();
        timeouts += c.timeouts;
        retransmitted += c.retransmittedFrames;
        partsMoved += c.partsMoved;
        bytesMoved += c.bytesMoved;
        detours += c.detours;
        bytesDetoured += c.bytesDetoured;
    }
    report["transport_timeouts"] = timeouts;
    report["retransmitted_frames"] = retransmitted;
    report["parts_moved"] = partsMoved;
    report["bytes_moved"] = bytesMoved;
    report["detours"] = detours;
    report["bytes_detoured"] = bytesDetoured;
    if (fabric->GetKind() != RailKind::OCS)
    {
        uint32_t recomputations = 0;
        for (uint32_t rail = 0; rail < fabric->GetSpec().gpusPerServer; ++rail)
        {
            recomputations += fabric->GetRailRouting(rail)->GetRecomputations();
        }
        report["route_recomputations"] = recomputations;
    }
    return report;
}

/**
 * \return seconds from the first failure until the traffic it stopped moved again: the
 * latest of a transport moving stopped data to other ports or around the failure (a
 * detour), or resuming it on a repaired path, and routing moving around the failure
 * before its repair; for a failed OCS
 * reconfiguration, from its failure until its retry succeeded. 0 if it stopped nothing
 */
double
Recovery(Ptr<RailFabric> fabric, const OpticalReport* optical, const Fault& first)
{
    Time last = first.down;
    for (uint32_t gpu = 0; gpu < fabric->GetSpec().Gpus(); ++gpu)
    {
        last = std::max(last, fabric->GetTransport(gpu)->GetLastRecovery());
    }
    for (uint32_t rail = 0;
         fabric->GetKind() != RailKind::OCS && rail < fabric->GetSpec().gpusPerServer;
         ++rail)
    {
        for (Time at : fabric->GetRailRouting(rail)->GetReroutes())
        {
            if (at < first.up)
            {
                last = std::max(last, at);
            }
        }
    }
    Time failure = first.down;
    for (const auto& record : optical ? optical->records : std::vector<OpusReconfigurationRecord>())
    {
        // A failed reconfiguration strikes when it fails, not when the fault is armed.
        if (record.failedAttempts > 0 && first.kind == Fault::OCS_RECONFIG)
        {
            failure = record.failedAt;
            last = std::max(last, record.ended > record.failedAt ? record.ended : failure);
            break;
        }
    }
    return std::max(Time(0), last - failure).GetSeconds();
}

/// \return each fault that struck before \p end (the job's end) as a span up to its repair
/// or \p end, for the timeline
std::vector<FabricSpan>
FaultSpans(const FaultInjector& faults, Time end)
{
    std::vector<FabricSpan> spans;
    for (const Fault& fault : faults.GetFaults())
    {
        if (fault.down > end)
        {
            continue;
        }
        bool reconfig = fault.kind == Fault::OCS_RECONFIG;
        Time until = reconfig ? fault.down : std::min(fault.up, end);
        spans.push_back({fault.part + (reconfig ? " (next reconfiguration fails)" : " down"),
                         fault.down.GetSeconds(),
                         until.GetSeconds()});
    }
    return spans;
}

void
WriteSummary(const std::string& path,
             const JobOptions& o,
             const RailFabricSpec& spec,
             const JobResult& r,
             const OpticalReport* optical,
             const Traffic& traffic,
             const nlohmann::ordered_json& faults)
{
    nlohmann::ordered_json j;
    j["iteration_times_s"] = r.iterationTimes;
    j["iteration_time_s"] = r.iterationTime;
    j["makespan_s"] = r.makespan;
    j["reconfigurations"] = r.reconfigurations;
    j["exposed_reconfiguration_s"] = r.exposedReconfiguration;
    if (optical)
    {
        j["reconfigurations_per_rail"] = optical->reconfigurationsPerRail;
        j["speculative_reconfigurations"] = optical->speculative;
        j["speculative_reconfigurations_unused"] = optical->speculativeUnused;
        j["speculative_reconfigurations_delaying"] = optical->speculativeDelaying;
        if (optical->ocs)
        {
            j["blackout_s_per_port"] = optical->blackout;
            j["circuit_uptime"] = optical->uptime;
            j["circuit_uptime_per_rail"] = optical->uptimePerRail;
        }
    }
    j["algorithms"] = r.algorithms;
    j["bytes_sent"] = traffic.bytesSent;
    j["bytes_delivered"] = traffic.bytesDelivered;
    j["frames_dropped"] = traffic.framesDropped;
    if (!faults.is_null())
    {
        j["faults"] = faults;
    }
    j["wall_s"] = r.wall;
    j["events"] = r.events;
    j["events_per_s"] = r.wall > 0 ? r.events / r.wall : 0.0;
    j["peak_rss_mb"] = JobRunner::PeakRssMiB();
    nlohmann::ordered_json c;
    c["workload"] = o.workload;
    c["network"] = r.network;
    c["fabric"] = r.fabric;
    c["preset"] = spec.name;
    c["servers"] = spec.servers;
    c["gpus_per_server"] = spec.gpusPerServer;
    c["nic_ports"] = spec.nicPorts;
    c["nic_port_gbps"] = spec.nicPortBps / 1e9;
    c["scale_up_gbps"] = spec.scaleUpBps / 1e9;
    if (spec.kind == RailKind::OCS)
    {
        c["ocs"] = spec.ocsTechnology;
    }
    else
    {
        c["switch_radix"] = spec.switchRadix;
        c["oversubscription"] = spec.oversubscription;
    }
    if (optical)
    {
        c["opus"] = optical->ocs ? "controller" : "testbed emulation";
        c["reconfiguration_delay_s"] = ReconfigurationDelay(o, spec).GetSeconds();
        c["control_latency_s"] = o.ControlLatency(!optical->ocs).GetSeconds();
    }
    c["rail_frame_bytes"] = spec.railFrameBytes;
    c["scale_up_frame_bytes"] = spec.scaleUpFrameBytes;
    c["algorithm"] = o.algorithm;
    c["channels"] = o.channels;
    c["chunk_bytes"] = uint64_t(o.chunkKiB) * 1024;
    c["ring_steps"] = o.ringSteps;
    c["reduction_gbytes_per_s"] = o.reduceGBps;
    c["iterations"] = o.iterations;
    c["dag_iterations"] = r.iterationTimes.size() / std::max<uint32_t>(1, o.iterations);
    c["seed"] = o.seed;
    if (!o.faultSchedule.IsEmpty() && spec.kind != RailKind::OCS)
    {
        c["detection_delay_s"] = o.detectionDelayTime.GetSeconds();
    }
    j["config"] = c;
    OpenOutput(path) << j.dump(2) << "\n";
}

/// Opus (or the static split) on an optical fabric, or its testbed emulation; else null.
Ptr<OpusControlPlane>
InstallOpus(const JobOptions& o,
            const JobFabric& f,
            Ptr<RailNetwork> fabric,
            const std::vector<Ptr<CollectiveCommunicator>>& communicators,
            const ApplicationContainer& runtimes,
            const WorkloadDag& dag)
{
    Time delay = ReconfigurationDelay(o, fabric->GetSpec());
    if (f.emulated)
    {
        OpusHelper opus;
        opus.SetShimAttribute("Provisioning", EnumValue(f.provisioning));
        bool onDemand = f.provisioning == OpusShim::ON_DEMAND;
        return opus.InstallEmulated(fabric,
                                    communicators,
                                    runtimes,
                                    dag,
                                    {{"ReconfigurationDelay", Create<TimeValue>(delay)},
                                     {"ControlLatency", Create<TimeValue>(o.ControlLatency(true))},
                                     {"AskEveryPointToPoint", Create<BooleanValue>(onDemand)}});
    }
    if (f.kind != RailKind::OCS)
    {
        return nullptr;
    }
    for (uint32_t rail = 0; rail < fabric->GetSpec().gpusPerServer; ++rail)
    {
        fabric->GetOcs(rail)->SetAttribute("ReconfigurationDelay", TimeValue(delay));
    }
    OpusHelper opus;
    opus.SetControllerAttribute("ControlLatency", TimeValue(o.ControlLatency(false)));
    opus.SetShimAttribute("Provisioning", EnumValue(f.provisioning));
    if (f.staticSplit)
    {
        return opus.InstallStatic(fabric, communicators, dag);
    }
    return opus.Install(fabric, communicators, runtimes, dag);
}

} // namespace

namespace
{

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
               const std::string& outDir)
{
    SimulationScope scope;
    // A binary heap of events: perf put ns-3's default map scheduler (its inserts and rb-tree
    // rebalancing) at the top of a packet-level run; the heap is 5-10% faster on the 64-GPU
    // and 128-GPU jobs. Events are ordered by time, then by insertion, with any scheduler,
    // so outputs do not change. Set per run: Simulator::Destroy resets the scheduler.
    Simulator::SetScheduler(ObjectFactory("ns3::PriorityQueueScheduler"));
    auto wallStart = std::chrono::steady_clock::now();
    RailFabricSpec spec = MakeSpec(o, f, dag->GetRankCount());
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(o.seed);

    Ptr<RailNetwork> fabric = BuildNetwork(o, spec);
    std::cerr << "[sim] " << f.name << ": " << Describe(o, spec, fabric->GetKind(), f.emulated)
              << "\n";
    CircuitRecorder circuits;
    if (f.kind == RailKind::OCS)
    {
        std::vector<Ptr<OpticalCircuitSwitch>> switches;
        for (uint32_t rail = 0; rail < spec.gpusPerServer; ++rail)
        {
            switches.push_back(fabric->GetOcs(rail));
        }
        circuits.Attach(switches);
    }

    fabric->AssignStreams(0);
    auto communicators = InstallCommunicators(o, fabric);
    CheckPlans(*dag, communicators);

    RankRuntimeHelper runtimeHelper;
    runtimeHelper.SetAttribute("Iterations", UintegerValue(o.iterations));
    ApplicationContainer runtimes = runtimeHelper.Install(dag, fabric->GetGpus(), communicators);
    Ptr<OpusControlPlane> controller = InstallOpus(o, f, fabric, communicators, runtimes, *dag);
    std::unique_ptr<FaultInjector> faults;
    if (!o.faultSchedule.IsEmpty())
    {
        faults = std::make_unique<FaultInjector>(DynamicCast<RailFabric>(fabric), o.faultSchedule);
        faults->Schedule();
    }
    JobRecorder recorder;
    recorder.Attach(runtimes, dag->GetIterationCount(), o.iterations);
    recorder.AttachPlans(dag, communicators);
    ProgressReporter progress(f.name, runtimes, o.progress);
    progress.Start();
    HorizonGuard horizon;
    horizon.Arm();

    Simulator::Run();

    JobResult r;
    r.fabric = f.name;
    r.network = fabric->GetModelName();
    r.reconfigurationDelay = f.IsOpus() ? ReconfigurationDelay(o, spec).GetSeconds() : 0.0;
    r.events = Simulator::GetEventCount();
    if (horizon.Reached())
    {
        throw std::runtime_error(
            "the job runs past the simulator's time range (2^63 ns, about 292 years): at " +
            std::to_string(Simulator::Now().GetSeconds()) + " s it still had work to do");
    }
    for (uint32_t i = 0; i < runtimes.GetN(); ++i)
    {
        if (!DynamicCast<RankRuntime>(runtimes.Get(i))->IsFinished())
        {
            ReportStuck(runtimes,
                        communicators,
                        controller,
                        DescribeWaitingTransfers(fabric),
                        recorder.GetLastActivity());
        }
    }
    r.iterationTimes = recorder.GetIterationTimes();
    r.algorithms = recorder.GetAlgorithmCounts();
    r.makespan = recorder.GetMakespan();
    if (r.iterationTimes.size() > 1)
    {
        double sum = 0;
        for (std::size_t k = 1; k < r.iterationTimes.size(); ++k)
        {
            sum += r.iterationTimes[k];
        }
        r.iterationTime = sum / (r.iterationTimes.size() - 1);
    }
    else if (!r.iterationTimes.empty())
    {
        r.iterationTime = r.iterationTimes[0];
    }
    uint64_t sent = 0;
    uint64_t delivered = 0;
    for (const auto& communicator : communicators)
    {
        sent += communicator->GetCounters().bytesSent;
    }
    for (uint32_t gpu = 0; gpu < fabric->GetGpus().GetN(); ++gpu)
    {
        // Counted frame by frame at the final GPUs, independently of the communicators.
        delivered += fabric->GetMessageTransport(gpu)->GetMessageCounters().payloadBytesDelivered;
    }
    uint64_t dropped = fabric->CountDroppedFrames();
    std::unique_ptr<OpticalReport> optical;
    if (f.kind == RailKind::OCS)
    {
        optical = std::make_unique<OpticalReport>(
            ReportOptical(fabric, controller, circuits, Seconds(r.makespan)));
        for (uint64_t count : optical->reconfigurationsPerRail)
        {
            r.reconfigurations += count;
        }
        r.exposedReconfiguration = controller ? controller->GetWaitTime().GetSeconds() : 0.0;
        r.speculative = optical->speculative;
        r.speculativeUnused = optical->speculativeUnused;
        r.speculativeDelaying = optical->speculativeDelaying;
    }
    else if (f.emulated)
    {
        optical = std::make_unique<OpticalReport>(ReportEmulated(controller, spec.gpusPerServer));
        r.reconfigurations = optical->records.size();
        r.exposedReconfiguration = controller->GetWaitTime().GetSeconds();
        r.speculative = optical->speculative;
    }

    MakeDirectory(outDir);
    {
        std::ofstream csv = OpenOutput(outDir + "/collectives.csv");
        recorder.GetTimeline().WriteCsv(csv);
    }
    WriteReconfigurations(outDir + "/reconfigurations.csv", optical ? *optical : OpticalReport{});
    nlohmann::ordered_json faultReport;
    std::vector<FabricSpan> faultSpans;
    if (faults)
    {
        std::ofstream csv = OpenOutput(outDir + "/faults.csv");
        faults->WriteCsv(csv);
        faultReport = ReportFaults(*faults, DynamicCast<RailFabric>(fabric));
        faultSpans = FaultSpans(*faults, Seconds(r.makespan));
        r.faultRecovery =
            Recovery(DynamicCast<RailFabric>(fabric), optical.get(), faults->GetFaults().front());
        faultReport["recovery_s"] = r.faultRecovery;
    }
    {
        std::ofstream trace = OpenOutput(outDir + "/timeline.json");
        recorder.WriteChromeTrace(trace, spec.gpusPerServer, faultSpans);
    }
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    WriteSummary(outDir + "/summary.json",
                 o,
                 spec,
                 r,
                 optical.get(),
                 {sent, delivered, dropped},
                 faultReport);
    Simulator::Destroy();
    std::cerr << "[sim] " << f.name << ": iteration " << std::setprecision(6) << r.iterationTime
              << " s; " << r.events << " events in " << r.wall << " s wall ("
              << std::setprecision(3) << r.events / std::max(r.wall, 1e-9) / 1e6
              << " M events/s), peak RSS " << std::fixed << std::setprecision(1) << PeakRssMiB()
              << std::defaultfloat << " MiB; wrote " << outDir << "/\n";
    return r;
}

JobFabric
JobFabric::Parse(const std::string& name, const std::string& provisioning, const std::string& flag)
{
    JobFabric f;
    f.name = name;
    if (name == "ocs" || name == "ocs-provisioning" || name == "ocs-oracle")
    {
        f.kind = RailKind::OCS;
        if (name == "ocs-provisioning" || (name == "ocs" && provisioning == "1"))
        {
            f.provisioning = OpusShim::PROFILED;
            f.name = "ocs-provisioning";
        }
        if (name == "ocs-oracle" || (name == "ocs" && provisioning == "oracle"))
        {
            f.provisioning = OpusShim::ORACLE;
            f.name = "ocs-oracle";
        }
        return f;
    }
    if (name == "emulated" || name == "emulated-provisioning")
    {
        f.emulated = true;
        if (name == "emulated-provisioning" || provisioning == "1")
        {
            f.provisioning = OpusShim::PROFILED;
            f.name = "emulated-provisioning";
        }
        else if (provisioning == "oracle")
        {
            throw std::invalid_argument("--provisioning=oracle: the testbed emulation "
                                        "(--fabric=emulated) provisions from its profile only");
        }
        return f;
    }
    if (name == "ocs-static")
    {
        f.kind = RailKind::OCS;
        f.staticSplit = true;
        return f;
    }
    if (name == "eps" || name == "eps-clos")
    {
        RailFabricSpec::ParseKind(name, f.kind);
        return f;
    }
    throw std::invalid_argument("unknown --" + flag + " " + StrictCommandLine::Quote(name) +
                                " (eps, eps-clos, ocs, ocs-provisioning, ocs-oracle, ocs-static, "
                                "emulated, emulated-provisioning)");
}

std::vector<std::string>
JobOptions::Networks() const
{
    return StrictCommandLine::SplitList("network", network);
}

Time
JobOptions::ControlLatency(bool emulated) const
{
    if (!controlLatencyTime.IsStrictlyNegative())
    {
        return controlLatencyTime;
    }
    return Seconds(emulated ? OpusTestbedEmulator::TESTBED_CONTROL_LATENCY_S : 0.0);
}

bool
JobFabric::IsOpus() const
{
    return emulated || (kind == RailKind::OCS && !staticSplit);
}

std::vector<JobFabric>
JobFabric::ParseList(const std::string& names,
                     const std::string& provisioning,
                     const std::string& flag)
{
    std::vector<JobFabric> fabrics;
    std::map<std::string, std::string> typed; // Fabric run -> its name in the flag
    for (const std::string& name : StrictCommandLine::SplitList(flag, names))
    {
        fabrics.push_back(Parse(name, provisioning, flag));
        const std::string& run = fabrics.back().name;
        auto [it, added] = typed.emplace(run, name);
        if (added)
        {
            continue;
        }
        if (it->second == name)
        {
            throw std::invalid_argument("--" + flag + " names " + name + " twice");
        }
        // One of the two is plain ocs or emulated that --provisioning renamed: "names
        // ocs-provisioning twice" would quote a list nobody typed.
        const std::string& plain = it->second == run ? name : it->second;
        throw std::invalid_argument("--provisioning=" + provisioning + " turns " + plain +
                                    " into " + run + ", which --" + flag + " lists too");
    }
    return fabrics;
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

} // namespace

void
JobOptions::AddFlags(StrictCommandLine& cmd)
{
    // Attributes the job sets from these flags: a default given on the command line
    // (--ns3::Type::Attribute=value) would be silently overridden.
    cmd.Reserve("ns3::RailTransport::Mtu", "--frameBytes");
    cmd.Reserve("ns3::RailTransport::ScaleUpMtu", "--frameBytes (scale-up: the same)");
    cmd.Reserve("ns3::RailTransport::RelayChunk", "--frameBytes");
    cmd.Reserve("ns3::RailTransport::Dcqcn", "--fabric (on for electrical rails)");
    cmd.Reserve("ns3::RailNetDevice::Mtu", "--frameBytes");
    cmd.Reserve("ns3::RailNetDevice::DataRate", "--preset, --nicRate and the scale-up rate");
    cmd.Reserve("ns3::OpticalCircuitSwitch::ReconfigurationDelay", "--ocs and --reconfigDelay");
    cmd.Reserve("ns3::OpusController::ControlLatency", "--controlLatency");
    cmd.Reserve("ns3::OpusShim::Provisioning", "--provisioning or --fabric");
    cmd.Reserve("ns3::EpsRouting::DetectionDelay", "--detectionDelay");
    cmd.Reserve("ns3::RankRuntime::Iterations", "--iterations");
    cmd.Add("network",
            "network model: packet (frames, the reference) or flow (max-min fair flows, for "
            "scale); photonic-rails-sim takes a list (packet,flow) and runs each",
            network);
    cmd.Add("preset", "server hardware: " + RailFabricSpec::PresetNames(), preset);
    cmd.Add("servers", "servers (0: as many as the ranks need)", servers);
    cmd.Add("gpusPerServer", "GPUs per server = rails (0: the preset's)", gpusPerServer);
    cmd.Add("nicPorts", "NIC ports per GPU", nicPorts, NIC_PORTS);
    cmd.Add("nicRate", "Gb/s per NIC port", nicRate, NIC_RATE);
    cmd.Add("ocs", "OCS technology (optical rails): " + OcsTechnologyCatalog::Names(), ocs);
    cmd.Add("reconfigDelay",
            "OCS reconfiguration delay, e.g. 25ms (default: the technology's)",
            reconfigDelay);
    cmd.Add("provisioning",
            "Opus on --fabric=ocs: 0 on demand, 1 provisioning (profiled), oracle",
            provisioning);
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
            "collectives that name none: auto|ring|direct|halving-doubling|tree",
            algorithm);
    cmd.Add("channels", "NCCL channels per collective", channels, CHANNELS);
    cmd.Add("chunkKiB", "pipelining chunk inside a channel, KiB", chunkKiB, CHUNK_KIB);
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
            "(packet network only)",
            faults);
    cmd.Add("fault",
            "inline faults, comma-separated: KIND:PART@DOWN[-UP], e.g. nic:gpu5.port1@1.2s; "
            "kinds nic, link, switch, ocs-port, ocs, ocs-reconfig",
            fault);
    cmd.Add("detectionDelay",
            "electrical rails: time from a link failure (or repair) to routes that avoid (or "
            "use) it",
            detectionDelay);
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
    if (!reconfigDelay.empty())
    {
        reconfigDelayTime = StrictCommandLine::ParseTime("reconfigDelay", reconfigDelay);
    }
    if (!controlLatency.empty())
    {
        controlLatencyTime = StrictCommandLine::ParseTime("controlLatency", controlLatency);
    }
    detectionDelayTime = StrictCommandLine::ParseTime("detectionDelay", detectionDelay);
    faultSchedule = FaultSchedule::Read(faults, fault);
    // One spelling per mode: true and false (a boolean flag's) are refused, not read as 1
    // and 0, so that scripts and docs say the same.
    if (provisioning != "0" && provisioning != "1" && provisioning != "oracle")
    {
        throw std::invalid_argument(
            "bad value for --provisioning: " + StrictCommandLine::Quote(provisioning) +
            " (expected 0, 1 or oracle)");
    }
    std::vector<std::string> models = Networks();
    for (const std::string& model : models)
    {
        if (model != "packet" && model != "flow")
        {
            throw std::invalid_argument("unknown --network " + StrictCommandLine::Quote(model) +
                                        " (packet, flow)");
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
    if (ringSteps == "merged" && std::count(models.begin(), models.end(), "packet") > 0)
    {
        throw std::invalid_argument(
            "--ringSteps=merged runs on the flow model only: at packet level a merged message "
            "is split over the NIC ports once, where chunks follow the ports' load");
    }
    if (!faultSchedule.IsEmpty() && std::count(models.begin(), models.end(), "flow") > 0)
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
                                    " (auto, ring, direct, halving-doubling, tree)");
    }
}

} // namespace ns3

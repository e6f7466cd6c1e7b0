/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-report.h"

#include "ns3/circuit-recorder.h"
#include "ns3/controller-failover.h"
#include "ns3/enum.h"
#include "ns3/eps-routing.h"
#include "ns3/experiment-output.h"
#include "ns3/fault-injector.h"
#include "ns3/flow-fabric.h"
#include "ns3/flow-transport.h"
#include "ns3/job-attribution.h"
#include "ns3/job-recorder.h"
#include "ns3/log.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/opus-controller.h"
#include "ns3/rail-fabric.h"
#include "ns3/workload-timeline.h"

#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobReport");

namespace
{

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
    std::string arbitration; //!< Opus's OpusController::Arbitration ("" without a controller)
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
    if (Ptr<OpusController> opus = DynamicCast<OpusController>(controller))
    {
        EnumValue arbitration;
        opus->GetAttribute("Arbitration", arbitration);
        report.arbitration = arbitration.Get() == OpusController::BATCH ? "batch" : "fcfs";
    }
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
WriteReconfigurations(const std::string& path,
                      const OpticalReport& report,
                      const JobAttribution* jobs)
{
    std::ofstream csv = OpenOutput(path);
    csv << (jobs ? "job," : "")
        << "rail,ports,requested_s,start_s,end_s,group,speculative,used,delayed_request,"
           "failed_attempts\n"
        << std::setprecision(12);
    for (const auto& r : report.records)
    {
        if (jobs)
        {
            csv << WorkloadTimeline::QuoteCsv(jobs->JobsOf(r.groups)) << ',';
        }
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
ReportFaults(const FaultInjector& faults, Ptr<RailNetwork> network)
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
    if (Ptr<FlowFabric> flow = DynamicCast<FlowFabric>(network))
    {
        // No frames, timers or routing tables at flow level: what the parts did.
        FlowTransportCounters total;
        for (uint32_t gpu = 0; gpu < flow->GetSpec().Gpus(); ++gpu)
        {
            const FlowTransportCounters& c = flow->GetFlowTransport(gpu)->GetCounters();
            total.partsMoved += c.partsMoved;
            total.bytesMoved += c.bytesMoved;
            total.detours += c.detours;
            total.bytesDetoured += c.bytesDetoured;
        }
        report["parts_moved"] = total.partsMoved;
        report["bytes_moved"] = total.bytesMoved;
        report["detours"] = total.detours;
        report["bytes_detoured"] = total.bytesDetoured;
        return report;
    }
    Ptr<RailFabric> fabric = DynamicCast<RailFabric>(network);
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

/// \return summary.json's controller_failover: the failover time, the outages (merged), their
/// total, the messages held, and the stall (OpusController::GetStall)
nlohmann::ordered_json
ControllerJson(const ControllerFailover& failover)
{
    nlohmann::ordered_json report;
    report["failover_s"] = failover.GetFailover().GetSeconds();
    nlohmann::ordered_json outages = nlohmann::ordered_json::array();
    Time total;
    for (const auto& [down, up] : failover.GetOutages())
    {
        nlohmann::ordered_json outage;
        outage["down_s"] = down.GetSeconds();
        outage["up_s"] = up.GetSeconds();
        outages.push_back(outage);
        total += up - down;
    }
    report["outages"] = outages;
    report["outage_s"] = total.GetSeconds();
    report["held_messages"] = failover.GetHeldMessages();
    report["controller_stall_s"] = failover.GetStall().GetSeconds();
    return report;
}

/// \return summary.json's jobs: one object per job of several on the fabric
nlohmann::ordered_json
JobsJson(const std::vector<JobShare>& shares, const std::vector<JobSlice>& slices)
{
    nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < shares.size(); ++i)
    {
        const JobShare& share = shares[i];
        nlohmann::ordered_json job;
        job["name"] = share.name;
        job["workload"] = slices[i].workload;
        job["servers"] = slices[i].servers;
        job["start_s"] = share.start;
        job["end_s"] = share.end;
        job["iterations"] = slices[i].iterations;
        job["iteration_times_s"] = share.iterationTimes;
        job["iteration_time_s"] = share.steadyIterationTime;
        job["duration_s"] = share.end - share.start;
        if (share.aloneDuration >= 0)
        {
            job["alone_iteration_time_s"] = share.aloneIterationTime;
            job["alone_duration_s"] = share.aloneDuration;
            job["slowdown"] = share.Slowdown();
        }
        job["reconfigurations"] = share.reconfigurations;
        job["exposed_reconfiguration_s"] = share.exposedReconfiguration;
        job["bytes_sent"] = share.bytesSent;
        jobs.push_back(job);
    }
    return jobs;
}

void
WriteSummary(const std::string& path,
             const JobOptions& o,
             const JobBuilder& builder,
             const JobResult& r,
             const OpticalReport* optical,
             const Traffic& traffic,
             const nlohmann::ordered_json& faults,
             const std::vector<JobSlice>& slices,
             const nlohmann::ordered_json& controller)
{
    const RailFabricSpec& spec = builder.GetSpec();
    nlohmann::ordered_json j;
    if (r.stuck.empty())
    {
        j["iteration_times_s"] = r.iterationTimes;
        j["iteration_time_s"] = r.steadyIterationTime;
        j["makespan_s"] = r.makespan;
    }
    else
    {
        // No iteration ended for every rank: what the run finished before it stopped.
        j["finished"] = false;
        j["stuck"] = r.stuck;
        j["ops_finished"] = r.opsFinished;
    }
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
    if (!controller.is_null())
    {
        j["controller_failover"] = controller;
    }
    if (!r.jobs.empty())
    {
        j["jobs"] = JobsJson(r.jobs, slices);
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
        if (spec.WholeSwitch())
        {
            c["ocs_switching"] = "whole-switch"; // per port otherwise, as before it existed
            if (optical && !optical->arbitration.empty())
            {
                c["opus_arbitration"] = optical->arbitration; // no effect on per-port OCSes
            }
        }
    }
    else
    {
        c["switch_radix"] = spec.switchRadix;
        c["oversubscription"] = spec.oversubscription;
    }
    if (optical)
    {
        c["opus"] = optical->ocs ? "controller" : "testbed emulation";
        c["reconfiguration_delay_s"] = builder.GetReconfigurationDelay().GetSeconds();
        c["control_latency_s"] = builder.GetControlLatency().GetSeconds();
    }
    c["rail_frame_bytes"] = spec.railFrameBytes;
    c["scale_up_frame_bytes"] = spec.scaleUpFrameBytes;
    c["algorithm"] = o.algorithm;
    c["channels"] = o.channels;
    c["chunk_bytes"] = uint64_t(o.chunkKiB) * 1024;
    c["qps_per_connection"] = o.qpsPerConnection;
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

/// \return the mean of the iterations after the first (which warms up), or the only one
double
SteadyTime(const std::vector<double>& iterations)
{
    if (iterations.size() > 1)
    {
        double sum = 0;
        for (std::size_t k = 1; k < iterations.size(); ++k)
        {
            sum += iterations[k];
        }
        return sum / (iterations.size() - 1);
    }
    return iterations.empty() ? 0.0 : iterations[0];
}

/// \return seconds job \p index's communications waited for circuits: the union of the
///         control plane's waits that belong to it (none without a control plane)
double
ExposedTime(Ptr<OpusControlPlane> plane, const JobAttribution& jobs, int index)
{
    if (!plane)
    {
        return 0.0;
    }
    return plane
        ->GetWaitTime(
            [&jobs, index](const OpusWait& wait) { return jobs.OfName(wait.instance) == index; })
        .GetSeconds();
}

} // namespace

struct JobReport::Measured
{
    Traffic traffic;                        //!< Bytes sent, delivered, frames dropped
    std::unique_ptr<OpticalReport> optical; //!< Optical or emulated fabrics, else null
    nlohmann::ordered_json faults;          //!< With faults, else null
    std::vector<FabricSpan> faultSpans;     //!< With faults, for the timeline
};

JobReport::JobReport(const JobOptions& o,
                     const JobFabric& f,
                     const JobBuilder& builder,
                     const Job& job,
                     const JobRecorder& recorder,
                     const CircuitRecorder& circuits,
                     const FaultInjector* faults,
                     JobResult& r,
                     const std::vector<JobSlice>& jobs)
    : m_options(o),
      m_builder(builder),
      m_recorder(recorder),
      m_faults(faults),
      m_jobs(jobs),
      m_measured(std::make_unique<Measured>())
{
    NS_LOG_FUNCTION(this << f.name);
    r.fabric = f.name;
    r.network = job.network->GetModelName();
    r.reconfigurationDelay = f.IsOpus() ? builder.GetReconfigurationDelay().GetSeconds() : 0.0;
    r.iterationTimes = recorder.GetIterationTimes();
    r.algorithms = recorder.GetAlgorithmCounts();
    r.makespan = recorder.GetMakespan();
    r.steadyIterationTime = SteadyTime(r.iterationTimes);
    Traffic& traffic = m_measured->traffic;
    traffic = {0, 0, job.network->CountDroppedFrames()};
    for (const auto& communicator : job.communicators)
    {
        traffic.bytesSent += communicator->GetCounters().bytesSent;
    }
    for (uint32_t gpu = 0; gpu < job.network->GetGpus().GetN(); ++gpu)
    {
        // Counted frame by frame at the final GPUs, independently of the communicators.
        traffic.bytesDelivered +=
            job.network->GetMessageTransport(gpu)->GetMessageCounters().payloadBytesDelivered;
    }
    std::unique_ptr<OpticalReport>& optical = m_measured->optical;
    if (f.kind == RailKind::OCS)
    {
        optical = std::make_unique<OpticalReport>(
            ReportOptical(job.network, job.controlPlane, circuits, Seconds(r.makespan)));
        for (uint64_t count : optical->reconfigurationsPerRail)
        {
            r.reconfigurations += count;
        }
        r.exposedReconfiguration =
            job.controlPlane ? job.controlPlane->GetWaitTime().GetSeconds() : 0.0;
        r.speculative = optical->speculative;
        r.speculativeUnused = optical->speculativeUnused;
        r.speculativeDelaying = optical->speculativeDelaying;
    }
    else if (f.emulated)
    {
        optical = std::make_unique<OpticalReport>(
            ReportEmulated(job.controlPlane, builder.GetSpec().gpusPerServer));
        r.reconfigurations = optical->records.size();
        r.exposedReconfiguration = job.controlPlane->GetWaitTime().GetSeconds();
        r.speculative = optical->speculative;
    }
    if (faults)
    {
        m_measured->faults = ReportFaults(*faults, job.network);
        m_measured->faultSpans = FaultSpans(*faults, Seconds(r.makespan));
        r.faultRecovery =
            faults
                ->GetRecovery(Seconds(r.makespan),
                              optical ? optical->records : std::vector<OpusReconfigurationRecord>())
                .GetSeconds();
        m_measured->faults["recovery_s"] = r.faultRecovery;
    }
    if (jobs.size() > 1)
    {
        m_attribution = std::make_unique<JobAttribution>(jobs,
                                                         job.network->GetGpus().GetN(),
                                                         builder.GetSpec().gpusPerServer);
        MeasureJobs(job, r);
    }
}

void
JobReport::MeasureJobs(const Job& job, JobResult& r) const
{
    const std::vector<OpusReconfigurationRecord>* records =
        m_measured->optical ? &m_measured->optical->records : nullptr;
    for (std::size_t i = 0; i < m_jobs.size(); ++i)
    {
        const JobSlice& slice = m_jobs[i];
        JobShare share;
        share.name = slice.name;
        share.start = slice.start.GetSeconds();
        share.aloneIterationTime = slice.aloneIterationTime;
        share.aloneDuration = slice.aloneDuration;
        share.iterationTimes =
            m_recorder.GetIterationTimes(slice.gpus, slice.iterations, share.start);
        share.end = m_recorder.GetMakespan(slice.gpus);
        share.steadyIterationTime = SteadyTime(share.iterationTimes);
        for (uint32_t gpu : slice.gpus)
        {
            share.bytesSent += job.communicators.at(gpu)->GetCounters().bytesSent;
        }
        for (std::size_t k = 0; records && k < records->size(); ++k)
        {
            bool served = false;
            for (const std::string& group : (*records)[k].groups)
            {
                served = served || m_attribution->OfName(group) == int(i);
            }
            share.reconfigurations += served ? 1 : 0;
        }
        share.exposedReconfiguration = ExposedTime(job.controlPlane, *m_attribution, int(i));
        r.jobs.push_back(share);
    }
}

JobReport::~JobReport() = default;

void
JobReport::Write(const std::string& outDir, const JobResult& r) const
{
    NS_LOG_FUNCTION(this << outDir);
    ExperimentOutput::MakeFolder(outDir);
    {
        std::ofstream csv = OpenOutput(outDir + "/collectives.csv");
        m_recorder.GetTimeline().WriteCsv(csv,
                                          m_attribution ? m_attribution->GpuJobs()
                                                        : std::vector<std::string>());
    }
    const OpticalReport* optical = m_measured->optical.get();
    WriteReconfigurations(outDir + "/reconfigurations.csv",
                          optical ? *optical : OpticalReport{},
                          m_attribution.get());
    if (m_failover)
    {
        std::ofstream csv = OpenOutput(outDir + "/faults.csv");
        ControllerFailover::WriteCsv(csv, m_faults, *m_failover);
    }
    else if (m_faults)
    {
        std::ofstream csv = OpenOutput(outDir + "/faults.csv");
        m_faults->WriteCsv(csv);
    }
    {
        std::ofstream trace = OpenOutput(outDir + "/timeline.json");
        m_recorder.WriteChromeTrace(trace,
                                    m_builder.GetSpec().gpusPerServer,
                                    m_measured->faultSpans,
                                    m_attribution ? m_attribution->ServerJobs()
                                                  : std::vector<std::string>());
    }
    WriteSummary(outDir + "/summary.json",
                 m_options,
                 m_builder,
                 r,
                 optical,
                 m_measured->traffic,
                 m_measured->faults,
                 m_jobs,
                 m_failover ? ControllerJson(*m_failover) : nlohmann::ordered_json());
}

void
JobReport::SetControllerFailover(const ControllerFailover* failover)
{
    if (!failover || failover->IsEmpty())
    {
        return;
    }
    m_failover = failover;
    Time end = Seconds(m_recorder.GetMakespan());
    for (const auto& [down, up] : failover->GetOutages())
    {
        if (down <= end)
        {
            m_measured->faultSpans.push_back(
                {"controller down", down.GetSeconds(), std::min(up, end).GetSeconds()});
        }
    }
}

} // namespace ns3

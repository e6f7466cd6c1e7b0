/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-builder.h"

#include "ns3/attribute-default.h"
#include "ns3/boolean.h"
#include "ns3/collective-helper.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/eps-switch.h"
#include "ns3/log.h"
#include "ns3/network-model-registry.h"
#include "ns3/ocs-technology.h"
#include "ns3/opus-helper.h"
#include "ns3/opus-testbed-emulator.h"
#include "ns3/rail-transport.h"
#include "ns3/rank-runtime-helper.h"
#include "ns3/strict-command-line.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <initializer_list>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobBuilder");

JobFabric
JobFabric::Parse(const std::string& name, const std::string& flag)
{
    JobFabric f;
    f.name = name;
    if (name == "ocs" || name == "ocs-provisioning" || name == "ocs-oracle")
    {
        f.kind = RailKind::OCS;
        f.provisioning = name == "ocs-provisioning" ? OpusShim::PROVISIONING
                         : name == "ocs-oracle"     ? OpusShim::ORACLE
                                                    : OpusShim::ON_DEMAND;
        return f;
    }
    if (name == "emulated" || name == "emulated-provisioning")
    {
        f.emulated = true;
        f.provisioning =
            name == "emulated-provisioning" ? OpusShim::PROVISIONING : OpusShim::ON_DEMAND;
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

std::vector<JobFabric>
JobFabric::ParseList(const std::string& names, const std::string& flag)
{
    std::vector<JobFabric> fabrics;
    std::set<std::string> seen;
    for (const std::string& name : StrictCommandLine::SplitList(flag, names))
    {
        if (!seen.insert(name).second)
        {
            throw std::invalid_argument("--" + flag + " names " + name + " twice");
        }
        fabrics.push_back(Parse(name, flag));
    }
    return fabrics;
}

bool
JobFabric::IsOpus() const
{
    return emulated || (kind == RailKind::OCS && !staticSplit);
}

JobBuilder::JobBuilder(const RailFabricSpec& spec, const JobFabric& fabric)
    : m_spec(spec),
      m_fabric(fabric)
{
    NS_LOG_FUNCTION(this << fabric.name);
    if (spec.kind != fabric.kind)
    {
        throw std::invalid_argument("fabric " + fabric.name + ": the spec's rails are of " +
                                    "another kind");
    }
}

void
JobBuilder::SetNetworkModel(const std::string& model)
{
    NS_LOG_FUNCTION(this << model);
    if (NetworkModelRegistry::Find(model) == nullptr)
    {
        throw std::invalid_argument("unknown network model " + StrictCommandLine::Quote(model) +
                                    " (" + NetworkModelRegistry::Names(", ") + ")");
    }
    m_model = model;
}

void
JobBuilder::SetHopDelays(const FlowHopDelays& delays)
{
    NS_LOG_FUNCTION(this << delays.link << delays.fiber << delays.switching);
    m_delays = delays;
}

void
JobBuilder::SetDetectionDelay(Time delay)
{
    NS_LOG_FUNCTION(this << delay);
    m_detectionDelay = delay;
}

void
JobBuilder::SetRankSchedule(std::vector<uint32_t> iterations, std::vector<Time> starts)
{
    m_rankIterations = std::move(iterations);
    m_rankStarts = std::move(starts);
}

void
JobBuilder::SetQpsPerConnection(uint32_t qps)
{
    NS_LOG_FUNCTION(this << qps);
    m_qpsPerConnection = qps;
}

void
JobBuilder::SetCommunicatorAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_communicator[name] = value.Copy();
}

void
JobBuilder::SetIterations(uint32_t iterations)
{
    NS_LOG_FUNCTION(this << iterations);
    m_iterations = iterations;
}

void
JobBuilder::SetReconfigurationDelay(Time delay)
{
    NS_LOG_FUNCTION(this << delay);
    m_reconfigurationDelay = delay;
}

void
JobBuilder::SetControlLatency(Time latency)
{
    NS_LOG_FUNCTION(this << latency);
    m_controlLatency = latency;
}

void
JobBuilder::SetOpusAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_opus[name] = value.Copy();
}

void
JobBuilder::SetShimAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    if (name == "Provisioning")
    {
        throw std::invalid_argument("JobBuilder: Opus's mode is the fabric's name (" +
                                    m_fabric.name + "), not a shim attribute");
    }
    m_shim[name] = value.Copy();
}

void
JobBuilder::SetPresetRings()
{
    NS_LOG_FUNCTION(this);
    m_presetRings = true;
}

const RailFabricSpec&
JobBuilder::GetSpec() const
{
    return m_spec;
}

std::string
JobBuilder::WhyInert(const std::string& attribute) const
{
    std::string type = attribute.substr(0, attribute.rfind("::"));
    auto is = [&attribute](std::initializer_list<const char*> names) {
        return std::find(names.begin(), names.end(), attribute) != names.end();
    };
    bool packet = NetworkModelRegistry::Find(m_model)->frames;
    bool optical = m_spec.kind == RailKind::OCS;
    // Electrical links and switches: on electrical rails, and between a server's GPUs.
    bool electrical = !optical || m_spec.gpusPerServer >= 2;
    bool ecn = AttributeDefault<BooleanValue>(EpsSwitch::GetTypeId(), "EcnEnabled");
    bool hopDelay = is({"ns3::EpsChannel::Delay",
                        "ns3::EpsSwitch::ProcessingDelay",
                        "ns3::OcsNetDevice::FiberDelay"});
    bool dcqcn = type == "ns3::RailTransport" && (attribute.find("::Dcqcn") != std::string::npos ||
                                                  is({"ns3::RailTransport::CnpInterval"}));
    bool flowOnly = type == "ns3::FlowTransport" || type == "ns3::FlowFabric";
    if (packet && flowOnly)
    {
        return "it belongs to the flow model (--network=flow)";
    }
    // Opus runs on the flow model's OCSes as on the packet model's.
    if (!packet && !hopDelay && !flowOnly && type != "ns3::OpusController")
    {
        return "the flow model has no frames, queues, switches or transport (of the fabric's "
               "attributes it takes the hop delays only)";
    }
    if ((type == "ns3::EpsChannel" || type == "ns3::EpsSwitch") && !electrical)
    {
        return "it has no electrical link or switch (optical rails, one GPU per server)";
    }
    if ((type == "ns3::OcsNetDevice" || type == "ns3::OpticalCircuitSwitch") && !optical)
    {
        return "it has no optical rails";
    }
    if (type == "ns3::EpsRouting" && optical)
    {
        return "only electrical rails route around failures";
    }
    bool marking = attribute.find("::Ecn") != std::string::npos && type == "ns3::EpsSwitch";
    if ((marking || dcqcn) && optical)
    {
        return "ECN marks and DCQCN are on electrical rails only (scale-up switches never mark)";
    }
    if ((dcqcn || (marking && !is({"ns3::EpsSwitch::EcnEnabled"}))) && !ecn)
    {
        return "its switches mark no ECN (ns3::EpsSwitch::EcnEnabled is false)";
    }
    if (is({"ns3::RailTransport::DcqcnMinRate"}) &&
        AttributeDefault<DataRateValue>(RailTransport::GetTypeId(), "DcqcnMinRate").GetBitRate() >=
            m_spec.nicPortBps)
    {
        return "it is not below the NIC ports' rate: no cut could go below it";
    }
    if (dcqcn && !is({"ns3::RailTransport::DcqcnProfile"}) &&
        AttributeDefault<EnumValue>(RailTransport::GetTypeId(), "DcqcnProfile") ==
            RailTransport::PFC_ONLY)
    {
        return "no QP runs DCQCN (ns3::RailTransport::DcqcnProfile is pfc-only)";
    }
    if (type == "ns3::OpusController" && !(optical && m_fabric.IsOpus() && !m_presetRings))
    {
        return "only Opus on optical rails (ocs, ocs-provisioning, ocs-oracle) takes requests";
    }
    if (is({"ns3::OpusController::Arbitration"}) && !m_spec.WholeSwitch())
    {
        return "it arbitrates OCSes that darken every port to reconfigure, and these switch "
               "per port (--ocsSwitching=whole-switch, or --ocs=rotornet)";
    }
    if (is({"ns3::OpusShim::Ignore"}) && !m_fabric.emulated)
    {
        return "it is for the testbed emulation on electrical rails (emulated, "
               "emulated-provisioning): on optical rails every communication needs its "
               "circuits";
    }
    return "";
}

Time
JobBuilder::GetReconfigurationDelay() const
{
    return m_reconfigurationDelay
               ? *m_reconfigurationDelay
               : OcsTechnologyCatalog::Get(m_spec.ocsTechnology).reconfigurationDelay;
}

Time
JobBuilder::GetControlLatency() const
{
    if (m_controlLatency)
    {
        return *m_controlLatency;
    }
    return Seconds(m_fabric.emulated ? OpusTestbedEmulator::TESTBED_CONTROL_LATENCY_S : 0.0);
}

Ptr<RailNetwork>
JobBuilder::BuildNetwork() const
{
    NS_LOG_FUNCTION(this);
    NetworkBuildOptions options;
    options.spec = m_spec;
    options.delays = m_delays;
    options.qpsPerConnection = m_qpsPerConnection;
    options.detectionDelay = m_detectionDelay;
    Ptr<RailNetwork> network = NetworkModelRegistry::Find(m_model)->build(options);
    network->AssignStreams(0);
    return network;
}

Job
JobBuilder::Install(Ptr<RailNetwork> network, std::shared_ptr<const WorkloadDag> dag) const
{
    NS_LOG_FUNCTION(this << network);
    Job job;
    job.network = network;
    job.communicators = InstallCommunicators(network);
    RankRuntimeHelper runtimes;
    runtimes.SetAttribute("Iterations", UintegerValue(m_iterations));
    job.runtimes = runtimes.Install(dag, network->GetGpus(), job.communicators);
    for (uint32_t rank = 0; rank < job.runtimes.GetN(); ++rank)
    {
        // Before the control plane: Opus's shims read their rank's replays.
        Ptr<Application> runtime = job.runtimes.Get(rank);
        if (rank < m_rankIterations.size())
        {
            runtime->SetAttribute("Iterations", UintegerValue(m_rankIterations[rank]));
        }
        if (rank < m_rankStarts.size())
        {
            runtime->SetStartTime(m_rankStarts[rank]);
        }
    }
    job.controlPlane = InstallControlPlane(job, *dag);
    return job;
}

std::vector<Ptr<CollectiveCommunicator>>
JobBuilder::InstallCommunicators(Ptr<RailNetwork> network) const
{
    NS_LOG_FUNCTION(this << network);
    CollectiveHelper collectives;
    for (const auto& [name, value] : m_communicator)
    {
        collectives.SetCommunicatorAttribute(name, *value);
    }
    return collectives.Install(network);
}

Job
JobBuilder::Build(std::shared_ptr<const WorkloadDag> dag) const
{
    return Install(BuildNetwork(), dag);
}

Ptr<OpusControlPlane>
JobBuilder::InstallControlPlane(const Job& job, const WorkloadDag& dag) const
{
    OpusHelper opus;
    opus.SetShimAttribute("Provisioning", EnumValue(m_fabric.provisioning));
    for (const auto& [name, value] : m_shim)
    {
        opus.SetShimAttribute(name, *value);
    }
    if (m_fabric.emulated)
    {
        bool onDemand = m_fabric.provisioning == OpusShim::ON_DEMAND;
        return opus.InstallEmulated(
            job.network,
            job.communicators,
            job.runtimes,
            dag,
            {{"ReconfigurationDelay", Create<TimeValue>(GetReconfigurationDelay())},
             {"ControlLatency", Create<TimeValue>(GetControlLatency())},
             {"AskEveryPointToPoint", Create<BooleanValue>(onDemand)}});
    }
    if (m_fabric.kind != RailKind::OCS)
    {
        return nullptr;
    }
    for (uint32_t rail = 0; rail < m_spec.gpusPerServer; ++rail)
    {
        Ptr<OpticalCircuitSwitch> ocs = job.network->GetOcs(rail);
        ocs->SetAttribute("ReconfigurationDelay", TimeValue(GetReconfigurationDelay()));
        if (m_presetRings)
        {
            ocs->Preset(job.network->RingCircuits(rail));
        }
    }
    if (m_presetRings)
    {
        return nullptr;
    }
    opus.SetControllerAttribute("ControlLatency", TimeValue(GetControlLatency()));
    for (const auto& [name, value] : m_opus)
    {
        opus.SetControllerAttribute(name, *value);
    }
    if (m_fabric.staticSplit)
    {
        return opus.InstallStatic(job.network, job.communicators, dag);
    }
    return opus.Install(job.network, job.communicators, job.runtimes, dag);
}

} // namespace ns3

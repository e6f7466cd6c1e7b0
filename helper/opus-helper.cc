/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-helper.h"

#include "ns3/flow-fabric.h"
#include "ns3/log.h"
#include "ns3/ocs-net-device.h"
#include "ns3/rail-fabric.h"
#include "ns3/rail-transport.h"
#include "ns3/rank-runtime.h"
#include "ns3/string.h"
#include "ns3/workload-estimator.h"

#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusHelper");

namespace
{

/// The demand of \p op, with the op named in the error when it cannot be served.
std::shared_ptr<const OpusDemand>
DemandOf(Ptr<OpusControlPlane> controller, const WorkloadDag& dag, const WorkloadOp& op)
{
    try
    {
        return controller->GetDemand(RankRuntime::CallOf(dag, op), op.rank);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("rank " + std::to_string(op.rank) + " op " +
                                    std::to_string(op.id) + " (" + WorkloadOpTypeName(op.type) +
                                    (op.group.empty() ? "" : " on " + op.group) + "): " + e.what());
    }
}

bool
IsCommunication(const WorkloadOp& op)
{
    return op.type != WorkloadOpType::COMPUTE;
}

} // namespace

OpusHelper::OpusHelper()
{
    m_controllerFactory.SetTypeId(OpusController::GetTypeId());
    m_shimFactory.SetTypeId(OpusShim::GetTypeId());
}

void
OpusHelper::SetControllerAttribute(std::string name, const AttributeValue& value)
{
    m_controllerFactory.Set(name, value);
}

void
OpusHelper::SetShimAttribute(std::string name, const AttributeValue& value)
{
    m_shimFactory.Set(name, value);
}

namespace
{

/// Opus's Relay trace: the pair's traffic detours, or stops detouring.
void
RelayPair(Ptr<RailNetwork> fabric, uint32_t rail, uint32_t a, uint32_t b, bool relayed)
{
    if (auto flow = DynamicCast<FlowFabric>(fabric))
    {
        flow->SetDetour(a, b, relayed);
        return;
    }
    DynamicCast<RailTransport>(fabric->GetMessageTransport(a))->SetDetour(b, relayed);
    DynamicCast<RailTransport>(fabric->GetMessageTransport(b))->SetDetour(a, relayed);
}

/// The flow fabric's CircuitWanted: detoured traffic waits for a circuit between \p gpu and
/// \p peer, of \p gpu's rail.
void
WantFlowCircuit(OpusController* controller, uint32_t gpusPerServer, uint32_t gpu, uint32_t peer)
{
    controller->WantCircuit(gpu % gpusPerServer, gpu, peer);
}

/// A transport's CircuitWanted: detoured data of \p gpu waits on its optical port \p port
/// for a circuit to \p peer; the controller is told the rail of that port.
void
WantCircuit(RailFabric* fabric,
            OpusController* controller,
            uint32_t gpu,
            uint32_t port,
            uint32_t peer)
{
    auto device = DynamicCast<OcsNetDevice>(fabric->GetEndpoints()->GetPorts(gpu)[port]);
    for (uint32_t rail = 0; device && rail < fabric->GetSpec().gpusPerServer; ++rail)
    {
        if (fabric->GetOcs(rail) == device->GetSwitch())
        {
            controller->WantCircuit(rail, gpu, peer);
        }
    }
}

} // namespace

Ptr<OpusController>
OpusHelper::CreateController(Ptr<RailNetwork> fabric,
                             const std::vector<Ptr<CollectiveCommunicator>>& communicators) const
{
    NS_ABORT_MSG_UNLESS(fabric->GetKind() == RailKind::OCS, "Opus needs optical rails");
    const RailFabricSpec& spec = fabric->GetSpec();
    std::vector<Ptr<OcsCircuitTable>> tables;
    for (uint32_t rail = 0; rail < spec.gpusPerServer; ++rail)
    {
        tables.push_back(fabric->GetOcs(rail)->GetCircuitTable());
    }
    std::vector<std::vector<uint32_t>> ports(fabric->GetGpus().GetN());
    for (uint32_t gpu = 0; gpu < ports.size(); ++gpu)
    {
        for (uint32_t port = 0; port < spec.nicPorts; ++port)
        {
            ports[gpu].push_back(fabric->GetOcsPort(gpu, port));
        }
    }
    Ptr<OpusController> controller = m_controllerFactory.Create<OpusController>();
    controller->Setup(tables, ports, spec.gpusPerServer, communicators);
    for (uint32_t rail = 0; rail < spec.gpusPerServer; ++rail)
    {
        // Opus drives the circuit tables; the switches tell it of failed ports.
        fabric->GetOcs(rail)->TraceConnectWithoutContext(
            "PortFailure",
            MakeCallback(&OpusController::NotifyPortFailure, PeekPointer(controller)).Bind(rail));
    }
    controller->TraceConnectWithoutContext("Relay", MakeBoundCallback(&RelayPair, fabric));
    if (auto flow = DynamicCast<FlowFabric>(fabric))
    {
        flow->TraceConnectWithoutContext(
            "CircuitWanted",
            MakeBoundCallback(&WantFlowCircuit, PeekPointer(controller), spec.gpusPerServer));
    }
    if (auto packets = DynamicCast<RailFabric>(fabric))
    {
        for (uint32_t gpu = 0; gpu < ports.size(); ++gpu)
        {
            // Both outlive the run's events (the job holds them): no Ptr, so no cycle
            // through the transports.
            packets->GetTransport(gpu)->TraceConnectWithoutContext(
                "CircuitWanted",
                MakeBoundCallback(&WantCircuit,
                                  PeekPointer(packets),
                                  PeekPointer(controller),
                                  gpu));
        }
    }
    return controller;
}

void
OpusHelper::CheckRendezvous(const WorkloadDag& dag, uint32_t replays)
{
    WorkloadEstimatorConfig config;
    config.repetitions = std::min<uint32_t>(2, std::max<uint32_t>(1, replays));
    config.rendezvousPointToPoint = true;
    try
    {
        WorkloadEstimator(config).Run(dag);
    }
    catch (const std::runtime_error& e)
    {
        throw std::invalid_argument(
            std::string("on optical rails Opus sets up a communication's circuits once every "
                        "member asks for it, and this job cannot finish that way (") +
            e.what() +
            "; electrical rails, which deliver sends eagerly, tolerate e.g. sends and receives "
            "between two ranks posted in different tag orders)");
    }
}

std::vector<std::shared_ptr<const OpusDemand>>
OpusHelper::InstallShims(Ptr<OpusControlPlane> plane,
                         const std::vector<Ptr<CollectiveCommunicator>>& communicators,
                         const ApplicationContainer& runtimes,
                         const WorkloadDag& dag,
                         const ObjectFactory& shims) const
{
    std::vector<std::shared_ptr<const OpusDemand>> first;
    for (uint32_t rank = 0; rank < runtimes.GetN(); ++rank)
    {
        auto runtime = DynamicCast<RankRuntime>(runtimes.Get(rank));
        std::vector<OpusShim::ScheduledCall> schedule;
        bool found = false;
        for (const WorkloadOp& op : dag.GetOps(rank))
        {
            if (!IsCommunication(op))
            {
                continue;
            }
            auto demand = DemandOf(plane, dag, op); // every op checked before the run
            if (!found && !demand->IsEmpty())
            {
                // Circuits in place before the run for a rank that starts with it; a rank
                // that starts later (a job arriving, --jobs) asks for its first ones then.
                TimeValue start;
                runtime->GetAttribute("StartTime", start);
                if (start.Get().IsZero())
                {
                    first.push_back(demand);
                }
                found = true;
            }
            schedule.push_back({RankRuntime::CallOf(dag, op), op.iteration});
            schedule.back().call.instance = RankRuntime::InstanceOf(op); // names its group
        }
        Ptr<OpusShim> shim = shims.Create<OpusShim>();
        shim->Setup(rank, communicators[rank], plane);
        shim->SetSchedule(schedule, dag.GetIterationCount(), runtime->GetIterations());
        runtime->SetStarter(shim);
        runtime->GetNode()->AggregateObject(shim);
    }
    return first;
}

Ptr<OpusController>
OpusHelper::Install(Ptr<RailNetwork> fabric,
                    const std::vector<Ptr<CollectiveCommunicator>>& communicators,
                    const ApplicationContainer& runtimes,
                    const WorkloadDag& dag) const
{
    uint32_t replays =
        runtimes.GetN() > 0 ? DynamicCast<RankRuntime>(runtimes.Get(0))->GetIterations() : 1;
    CheckRendezvous(dag, replays);
    StringValue ignore;
    m_shimFactory.Create<OpusShim>()->GetAttribute("Ignore", ignore);
    if (!ignore.Get().empty())
    {
        // An ignored communication would wait for circuits nobody sets up.
        throw std::invalid_argument("OpusShim::Ignore ('" + ignore.Get() +
                                    "') is for the testbed emulation on electrical rails: on "
                                    "optical rails every communication needs its circuits");
    }
    Ptr<OpusController> controller = CreateController(fabric, communicators);
    controller->Preset(InstallShims(controller, communicators, runtimes, dag, m_shimFactory));
    return controller;
}

Ptr<OpusTestbedEmulator>
OpusHelper::InstallEmulated(
    Ptr<RailNetwork> fabric,
    const std::vector<Ptr<CollectiveCommunicator>>& communicators,
    const ApplicationContainer& runtimes,
    const WorkloadDag& dag,
    const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& emulator) const
{
    NS_ABORT_MSG_IF(fabric->GetKind() == RailKind::OCS,
                    "the testbed emulation runs on electrical rails");
    uint32_t replays =
        runtimes.GetN() > 0 ? DynamicCast<RankRuntime>(runtimes.Get(0))->GetIterations() : 1;
    CheckRendezvous(dag, replays);
    ObjectFactory planFactory(OpusTestbedEmulator::GetTypeId().GetName());
    for (const auto& [name, value] : emulator)
    {
        planFactory.Set(name, *value);
    }
    Ptr<OpusTestbedEmulator> plane = planFactory.Create<OpusTestbedEmulator>();
    plane->Setup(fabric->GetSpec().gpusPerServer, communicators);
    ObjectFactory shims = m_shimFactory;
    StringValue ignore;
    shims.Create<OpusShim>()->GetAttribute("Ignore", ignore);
    if (ignore.Get().empty())
    {
        shims.Set("Ignore", StringValue(OpusTestbedEmulator::TESTBED_IGNORE));
    }
    plane->Preset(InstallShims(plane, communicators, runtimes, dag, shims));
    return plane;
}

void
OpusHelper::CheckDemands(Ptr<RailNetwork> fabric,
                         const std::vector<Ptr<CollectiveCommunicator>>& communicators,
                         const WorkloadDag& dag,
                         bool staticSplit) const
{
    Ptr<OpusController> controller = CreateController(fabric, communicators);
    if (staticSplit)
    {
        StaticSplit(controller, fabric, dag);
        return;
    }
    for (const WorkloadOp& op : dag.GetAllOps())
    {
        if (IsCommunication(op))
        {
            DemandOf(controller, dag, op);
        }
    }
}

Ptr<OpusController>
OpusHelper::InstallStatic(Ptr<RailNetwork> fabric,
                          const std::vector<Ptr<CollectiveCommunicator>>& communicators,
                          const WorkloadDag& dag) const
{
    Ptr<OpusController> controller = CreateController(fabric, communicators);
    auto split = std::make_shared<const OpusDemand>(StaticSplit(controller, fabric, dag));
    controller->Preset({split});
    controller->HoldStatic(split);
    return controller;
}

OpusDemand
OpusHelper::StaticSplit(Ptr<OpusController> controller,
                        Ptr<RailNetwork> fabric,
                        const WorkloadDag& dag)
{
    std::set<OpusDemand::Link> links;
    for (const WorkloadOp& op : dag.GetAllOps())
    {
        if (IsCommunication(op))
        {
            for (const OpusCircuitNeed& need : DemandOf(controller, dag, op)->GetNeeds())
            {
                links.insert({need.rail, need.a, need.b});
            }
        }
    }
    return OpusDemand::Build(links, fabric->GetSpec().nicPorts);
}

} // namespace ns3

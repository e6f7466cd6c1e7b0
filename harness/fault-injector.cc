/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fault-injector.h"

#include "ns3/abort.h"
#include "ns3/eps-channel.h"
#include "ns3/eps-net-device.h"
#include "ns3/eps-routing.h"
#include "ns3/eps-switch.h"
#include "ns3/ethernet-header.h"
#include "ns3/flow-fabric.h"
#include "ns3/flow-transport.h"
#include "ns3/log.h"
#include "ns3/ocs-net-device.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/rail-fabric.h"
#include "ns3/rail-transport.h"
#include "ns3/simulator.h"

#include <iomanip>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FaultInjector");

FaultInjector::FaultInjector(Ptr<RailNetwork> network, const FaultSchedule& schedule)
    : m_network(network),
      m_fabric(DynamicCast<RailFabric>(network)),
      m_flow(DynamicCast<FlowFabric>(network)),
      m_faults(schedule.GetFaults())
{
    NS_ABORT_MSG_UNLESS(m_fabric || m_flow, "FaultInjector: an unknown network model");
    schedule.CheckAgainst(network->GetSpec(), "in use");
}

void
FaultInjector::Schedule()
{
    const RailFabricSpec& spec = m_network->GetSpec();
    // faults.csv says when a reconfiguration really failed, not only when one was set to.
    for (uint32_t rail = 0; m_network->GetKind() == RailKind::OCS && rail < spec.gpusPerServer;
         ++rail)
    {
        m_network->GetOcs(rail)->TraceConnectWithoutContext(
            "ReconfigurationEnd",
            MakeCallback(&FaultInjector::OnReconfigurationEnd, this).Bind(rail));
    }
    for (uint32_t gpu = 0; !m_faults.empty() && gpu < spec.Gpus(); ++gpu)
    {
        if (m_flow)
        {
            m_flow->GetFlowTransport(gpu)->CatchFrom(m_faults.front().down);
        }
        else
        {
            m_fabric->GetTransport(gpu)->CatchFrom(m_faults.front().down);
        }
    }
    if (m_fabric)
    {
        // Transports retry paths they gave up on once routing has moved around a failure.
        for (uint32_t rail = 0; m_fabric->GetKind() != RailKind::OCS && rail < spec.gpusPerServer;
             ++rail)
        {
            m_fabric->GetRailRouting(rail)->TraceConnectWithoutContext(
                "Rerouted",
                MakeCallback(&FaultInjector::NotifyTransports, this).Bind(true));
        }
        WatchLostFrames();
    }
    for (const Fault& fault : m_faults)
    {
        Simulator::Schedule(fault.down, &FaultInjector::Apply, this, fault, true);
        if (fault.IsRepaired())
        {
            Simulator::Schedule(fault.up, &FaultInjector::Apply, this, fault, false);
        }
    }
}

const std::vector<FaultInjector::Event>&
FaultInjector::GetEvents() const
{
    return m_events;
}

const std::vector<Fault>&
FaultInjector::GetFaults() const
{
    return m_faults;
}

Time
FaultInjector::GetRecovery(Time end, const std::vector<OpusReconfigurationRecord>& records) const
{
    const Fault& first = m_faults.front();
    Time failure = first.down;
    Time moved = first.down;
    for (uint32_t gpu = 0; gpu < m_network->GetSpec().Gpus(); ++gpu)
    {
        moved = std::max(moved,
                         m_flow ? m_flow->GetFlowTransport(gpu)->GetLastRecovery()
                                : m_fabric->GetTransport(gpu)->GetLastRecovery());
    }
    for (const auto& record : records)
    {
        // A failed reconfiguration strikes when it fails, not when the fault is armed.
        if (record.failedAttempts > 0 && first.kind == Fault::OCS_RECONFIG)
        {
            failure = record.failedAt;
            moved = std::max(moved, record.ended > record.failedAt ? record.ended : failure);
            break;
        }
    }
    return std::max(Time(0), std::min(moved, end) - failure);
}

void
FaultInjector::WriteCsv(std::ostream& os) const
{
    os << "time_s,part,event\n" << std::setprecision(12);
    for (const Event& e : m_events)
    {
        os << e.at.GetSeconds() << ',' << e.part << ',' << e.event << '\n';
    }
}

void
FaultInjector::Apply(const Fault& fault, bool down)
{
    NS_LOG_INFO(fault.part << (down ? " down" : " up"));
    if (fault.kind == Fault::OCS_RECONFIG)
    {
        m_network->GetOcs(fault.rail)->FailNextReconfiguration();
        m_events.push_back({Simulator::Now(), fault.part, "next reconfiguration fails"});
        return;
    }
    m_events.push_back({Simulator::Now(), fault.part, down ? "down" : "up"});
    for (const Ptr<EpsChannel>& cable : CablesOf(fault))
    {
        uint32_t& cuts = m_cableCuts[cable];
        cuts = down ? cuts + 1 : cuts - 1;
        cable->SetLinkUp(cuts == 0);
    }
    for (const auto& key : OcsPortsOf(fault))
    {
        uint32_t& holds = m_portFaults[key];
        holds = down ? holds + 1 : holds - 1;
        key.first->SetPortFailed(key.second, holds > 0);
    }
    if (m_flow)
    {
        std::vector<FlowNetwork::LinkId> links = LinksOf(fault);
        if (!links.empty())
        {
            m_flow->SetLinksDown(links, down); // tells the transports
            return;
        }
        m_flow->NotifyFaultChange(down);
        return;
    }
    NotifyTransports(!down);
}

void
FaultInjector::OnReconfigurationEnd(uint32_t rail, const OcsReconfiguration& reconfiguration)
{
    if (reconfiguration.failed)
    {
        std::string ports;
        for (uint32_t port : reconfiguration.darkPorts)
        {
            ports += (ports.empty() ? "" : " ") + std::to_string(port);
        }
        m_events.push_back({Simulator::Now(),
                            "ocs-reconfig:rail" + std::to_string(rail),
                            "reconfiguration failed (ports " + ports + " stay dark)"});
    }
}

void
FaultInjector::WatchLostFrames()
{
    auto lost = MakeCallback(&FaultInjector::OnFrameLost, this);
    for (uint32_t rail = 0; rail < m_fabric->GetSpec().gpusPerServer; ++rail)
    {
        if (m_fabric->GetKind() == RailKind::OCS)
        {
            m_fabric->GetOcs(rail)->TraceConnectWithoutContext(
                "FrameLost",
                Callback<void, Ptr<const Packet>, uint32_t, uint32_t>(
                    [lost](Ptr<const Packet> frame, uint32_t, uint32_t) { lost(frame); }));
            continue;
        }
        std::set<Ptr<EpsChannel>> cables; // a leaf-spine cable has a switch at both ends
        for (const Ptr<EpsSwitch>& sw : m_fabric->GetRailSwitches(rail))
        {
            sw->TraceConnectWithoutContext(
                "Drop",
                Callback<void, Ptr<const Packet>, uint32_t, EpsSwitch::DropReason>(
                    [lost](Ptr<const Packet> frame, uint32_t, EpsSwitch::DropReason reason) {
                        // A dead egress, or none while routes move around a failure (or
                        // back after its repair, one DetectionDelay later): a failure's loss.
                        if (reason == EpsSwitch::LINK_DOWN || reason == EpsSwitch::NO_ROUTE)
                        {
                            lost(frame);
                        }
                    }));
            for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
            {
                Ptr<EpsChannel> cable = sw->GetPortDevice(port)->GetEpsChannel();
                if (cable && cables.insert(cable).second)
                {
                    cable->TraceConnectWithoutContext("FrameLost", lost);
                }
            }
        }
    }
}

void
FaultInjector::OnFrameLost(Ptr<const Packet> frame)
{
    Ptr<Packet> copy = frame->Copy();
    EthernetHeader ethernet(false);
    copy->RemoveHeader(ethernet);
    if (ethernet.GetLengthType() != RailTransport::PROTOCOL)
    {
        return; // a PAUSE frame
    }
    RailTransportHeader header;
    copy->PeekHeader(header);
    uint32_t gpu = 0;
    uint32_t port = 0;
    switch (header.kind)
    {
    case RailTransportHeader::DATA:
        m_fabric->GetTransport(header.sourceGpu)->NoteFrameLost(header.qpn, header.psn + 1);
        break;
    case RailTransportHeader::ACK:
    case RailTransportHeader::NACK:
        // Feedback for a QP of the GPU it was addressed to.
        if (m_fabric->GetEndpoints()->Find(ethernet.GetDestination(), gpu, port))
        {
            m_fabric->GetTransport(gpu)->NoteFrameLost(header.qpn, header.psn);
        }
        break;
    case RailTransportHeader::CNP:
        break; // a rate hint: nothing waits for it
    }
}

void
FaultInjector::NotifyTransports(bool restored)
{
    for (uint32_t gpu = 0; gpu < m_fabric->GetSpec().Gpus(); ++gpu)
    {
        m_fabric->GetTransport(gpu)->NotifyFabricChange(restored);
    }
}

std::vector<FlowNetwork::LinkId>
FaultInjector::LinksOf(const Fault& fault) const
{
    if (m_flow->GetKind() == RailKind::OCS)
    {
        return {};
    }
    switch (fault.kind)
    {
    case Fault::NIC:
        return m_flow->GetNicLinks(fault.gpu, fault.port);
    case Fault::LINK:
        return m_flow->GetCableLinks(fault.rail, fault.leaf, fault.spine, fault.cable);
    case Fault::SWITCH:
        return m_flow->GetSwitchLinks(fault.rail,
                                      fault.isRail,
                                      fault.isSpine,
                                      fault.isSpine ? fault.spine : fault.leaf);
    default:
        return {};
    }
}

std::vector<Ptr<EpsChannel>>
FaultInjector::CablesOf(const Fault& fault) const
{
    if (!m_fabric || m_fabric->GetKind() == RailKind::OCS)
    {
        return {};
    }
    auto cableOf = [](Ptr<NetDevice> device) {
        Ptr<EpsChannel> cable = DynamicCast<EpsNetDevice>(device)->GetEpsChannel();
        NS_ABORT_MSG_UNLESS(cable, "FaultInjector: an unconnected port");
        return cable;
    };
    const ClosPlan& plan = m_fabric->GetClosPlan();
    switch (fault.kind)
    {
    case Fault::NIC:
        return {cableOf(m_fabric->GetNicPorts(fault.gpu)[fault.port])};
    case Fault::LINK: {
        Ptr<EpsSwitch> leaf = m_fabric->GetRailSwitches(fault.rail)[fault.leaf];
        // A leaf's ports: its NICs, then per spine its parallel cables (RailFabricHelper).
        uint32_t uplinks = plan.spines * plan.linksPerPair;
        uint32_t port = leaf->GetNPorts() - uplinks + fault.spine * plan.linksPerPair + fault.cable;
        return {cableOf(leaf->GetPortDevice(port))};
    }
    case Fault::SWITCH: {
        uint32_t index = fault.isRail ? 0 : fault.isSpine ? plan.leaves + fault.spine : fault.leaf;
        Ptr<EpsSwitch> sw = m_fabric->GetRailSwitches(fault.rail)[index];
        std::vector<Ptr<EpsChannel>> cables;
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            cables.push_back(cableOf(sw->GetPortDevice(port)));
        }
        return cables;
    }
    default:
        return {};
    }
}

std::vector<std::pair<Ptr<OpticalCircuitSwitch>, uint32_t>>
FaultInjector::OcsPortsOf(const Fault& fault) const
{
    if (m_network->GetKind() != RailKind::OCS)
    {
        return {};
    }
    switch (fault.kind)
    {
    case Fault::NIC: {
        // A GPU's NIC ports are plugged into its rail's OCS (RailNetwork's numbering).
        uint32_t rail = fault.gpu % m_network->GetSpec().gpusPerServer;
        return {{m_network->GetOcs(rail), m_network->GetOcsPort(fault.gpu, fault.port)}};
    }
    case Fault::OCS_PORT:
        return {{m_network->GetOcs(fault.rail), fault.port}};
    case Fault::OCS: {
        Ptr<OpticalCircuitSwitch> ocs = m_network->GetOcs(fault.rail);
        std::vector<std::pair<Ptr<OpticalCircuitSwitch>, uint32_t>> ports;
        for (uint32_t port = 0; port < m_network->GetSpec().PortsPerRail(); ++port)
        {
            ports.emplace_back(ocs, port);
        }
        return ports;
    }
    default:
        return {};
    }
}

} // namespace ns3

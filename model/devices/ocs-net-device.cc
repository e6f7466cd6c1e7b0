/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ocs-net-device.h"

#include "optical-circuit-switch.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OcsNetDevice");

NS_OBJECT_ENSURE_REGISTERED(OcsNetDevice);

TypeId
OcsNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OcsNetDevice")
            .SetParent<RailNetDevice>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<OcsNetDevice>()
            .AddAttribute("FiberDelay",
                          "One-way propagation delay of the fiber to the switch "
                          "(about 5 ns per metre).",
                          TimeValue(NanoSeconds(50)),
                          MakeTimeAccessor(&OcsNetDevice::m_fiberDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("NoCircuitPolicy",
                          "What happens to a frame when no circuit leads to its destination.",
                          EnumValue(OcsNetDevice::HOLD),
                          MakeEnumAccessor(&OcsNetDevice::m_policy),
                          MakeEnumChecker(OcsNetDevice::HOLD, "Hold", OcsNetDevice::DROP, "Drop"))
            .AddTraceSource("PhyTxDrop",
                            "A sent frame was lost because its circuit was torn down.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_phyTxDropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

OcsNetDevice::OcsNetDevice()
    : m_port(OpticalCircuitSwitch::NO_PORT),
      m_policy(HOLD),
      m_heldCount(0),
      m_linkUp(false)
{
    NS_LOG_FUNCTION(this);
}

OcsNetDevice::~OcsNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
OcsNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_switch = nullptr;
    m_held.clear();
    RailNetDevice::DoDispose();
}

void
OcsNetDevice::Attach(Ptr<OpticalCircuitSwitch> ocs)
{
    NS_LOG_FUNCTION(this << ocs);
    NS_ABORT_MSG_IF(m_switch, "OcsNetDevice is already attached to a switch");
    m_switch = ocs;
    m_port = ocs->Attach(this);
    NotifyCircuitChanged();
}

uint32_t
OcsNetDevice::GetPort() const
{
    NS_LOG_FUNCTION(this);
    return m_port;
}

Ptr<OpticalCircuitSwitch>
OcsNetDevice::GetSwitch() const
{
    NS_LOG_FUNCTION(this);
    return m_switch;
}

Time
OcsNetDevice::GetFiberDelay() const
{
    NS_LOG_FUNCTION(this);
    return m_fiberDelay;
}

const OcsNetDeviceCounters&
OcsNetDevice::GetCounters() const
{
    NS_LOG_FUNCTION(this);
    return m_counters;
}

uint32_t
OcsNetDevice::GetHeldFrameCount() const
{
    NS_LOG_FUNCTION(this);
    return m_heldCount;
}

bool
OcsNetDevice::IsConnectedTo(const Address& peer) const
{
    NS_LOG_FUNCTION(this << peer);
    return Mac48Address::IsMatchingType(peer) && CircuitReaches(Mac48Address::ConvertFrom(peer));
}

bool
OcsNetDevice::CircuitReaches(Mac48Address destination) const
{
    if (!m_switch)
    {
        return false;
    }
    Ptr<OcsNetDevice> peer = m_switch->GetCircuitPeer(m_port);
    if (!peer)
    {
        return false;
    }
    return destination.IsBroadcast() || destination.IsGroup() || peer->m_address == destination;
}

void
OcsNetDevice::NotifyCircuitChanged()
{
    NS_LOG_FUNCTION(this);
    bool up = m_switch && m_switch->IsCircuitUp(m_port);
    if (up != m_linkUp)
    {
        m_linkUp = up;
        NS_LOG_INFO("port " << m_port << " link " << (up ? "up" : "down"));
        NotifyLinkChange();
    }
    TryTransmit();
}

bool
OcsNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    NS_ABORT_MSG_UNLESS(m_switch, "OcsNetDevice::Send before Attach()");
    if (!Frame(packet, source, dest, protocolNumber))
    {
        ++m_counters.framesDroppedOversize;
        return false;
    }
    if (m_policy == DROP && !CircuitReaches(Mac48Address::ConvertFrom(dest)))
    {
        ++m_counters.framesDroppedNoCircuit;
        m_macTxDropTrace(packet);
        return false;
    }
    FireTrace(m_macTxTrace, packet);
    if (!m_queue->Enqueue(packet))
    {
        ++m_counters.framesDroppedQueueFull;
        m_macTxDropTrace(packet);
        return false;
    }
    TryTransmit();
    return true;
}

Ptr<Packet>
OcsNetDevice::NextSendableFrame()
{
    Ptr<OcsNetDevice> peer = m_switch ? m_switch->GetCircuitPeer(m_port) : nullptr;
    if (peer && m_heldCount > 0)
    {
        auto held = m_held.find(peer->m_address);
        if (held != m_held.end() && !held->second.empty())
        {
            Ptr<Packet> frame = held->second.front();
            held->second.pop_front();
            --m_heldCount;
            return frame;
        }
    }
    while (Ptr<Packet> frame = m_queue->Dequeue())
    {
        Mac48Address destination = DestinationOf(frame);
        if (CircuitReaches(destination))
        {
            return frame;
        }
        if (m_policy == DROP)
        {
            ++m_counters.framesDroppedNoCircuit;
            m_macTxDropTrace(frame);
            continue;
        }
        NS_LOG_LOGIC("holding a frame for " << destination << ": no circuit to it");
        ++m_counters.framesHeld;
        ++m_heldCount;
        m_held[destination].push_back(frame);
    }
    return nullptr;
}

void
OcsNetDevice::TryTransmit()
{
    if (m_busy || !m_queue)
    {
        return;
    }
    // Reserve the transmitter while choosing: a Dequeue trace sink may call Send() from
    // inside NextSendableFrame(), and that frame must not overtake the one being chosen.
    m_busy = true;
    Ptr<Packet> frame = NextSendableFrame();
    if (!frame)
    {
        m_busy = false;
        return;
    }
    ++m_counters.framesSent;
    m_counters.bytesSent += frame->GetSize();
    m_switch->Transmit(frame, m_port, BeginTransmission(frame));
}

void
OcsNetDevice::NotifyFrameLost(Ptr<const Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    ++m_counters.framesLostInFlight;
    m_phyTxDropTrace(frame);
}

void
OcsNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (!Arrive(frame))
    {
        ++m_counters.framesCorrupted;
        return;
    }
    ++m_counters.framesReceived;
    m_counters.bytesReceived += frame->GetSize();
    EthernetHeader header(false);
    frame->RemoveHeader(header);
    DeliverUp(frame, header);
}

Ptr<Channel>
OcsNetDevice::GetChannel() const
{
    NS_LOG_FUNCTION(this);
    return m_switch;
}

bool
OcsNetDevice::IsLinkUp() const
{
    NS_LOG_FUNCTION(this);
    return m_switch && m_switch->IsCircuitUp(m_port);
}

bool
OcsNetDevice::IsPointToPoint() const
{
    NS_LOG_FUNCTION(this);
    // The far end of the circuit changes with reconfiguration, so frames carry MAC addresses.
    return false;
}

} // namespace ns3

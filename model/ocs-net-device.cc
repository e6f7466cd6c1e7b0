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
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OcsNetDevice");

NS_OBJECT_ENSURE_REGISTERED(OcsNetDevice);

namespace
{
/// Ethernet II header: destination, source, EtherType.
constexpr uint16_t ETHERNET_HEADER_BYTES = 14;
} // namespace

TypeId
OcsNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OcsNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<OcsNetDevice>()
            .AddAttribute("Mtu",
                          "Largest payload of a frame, without its 14-byte Ethernet header.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&OcsNetDevice::SetMtu, &OcsNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Address",
                          "The MAC address of this device.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&OcsNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute(
                "DataRate",
                "Line rate of the port.",
                DataRateValue(DataRate("400Gbps")),
                MakeDataRateAccessor(&OcsNetDevice::SetDataRate, &OcsNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("FiberDelay",
                          "One-way propagation delay of the fiber to the switch "
                          "(about 5 ns per metre).",
                          TimeValue(NanoSeconds(50)),
                          MakeTimeAccessor(&OcsNetDevice::m_fiberDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("InterframeGap",
                          "Idle time after each frame.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&OcsNetDevice::m_interframeGap),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("NoCircuitPolicy",
                          "What happens to a frame when no circuit leads to its destination.",
                          EnumValue(OcsNetDevice::HOLD),
                          MakeEnumAccessor(&OcsNetDevice::m_policy),
                          MakeEnumChecker(OcsNetDevice::HOLD, "Hold", OcsNetDevice::DROP, "Drop"))
            .AddAttribute("TxQueue",
                          "The transmit queue.",
                          PointerValue(),
                          MakePointerAccessor(&OcsNetDevice::m_queue),
                          MakePointerChecker<Queue<Packet>>())
            .AddAttribute("ReceiveErrorModel",
                          "Error model applied to received frames.",
                          PointerValue(),
                          MakePointerAccessor(&OcsNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "A frame was accepted for transmission.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A frame was dropped before transmission (full queue, or no "
                            "circuit under the Drop policy).",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A frame addressed to this device was passed up.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacPromiscRx",
                            "A frame was passed up to the promiscuous receive callback.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_macPromiscRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame began to be serialized onto the fiber.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "The last bit of a frame left the device.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxDrop",
                            "A sent frame was lost because its circuit was torn down.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_phyTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "The last bit of a frame arrived.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A received frame was dropped by the receive error model.",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Frames sent or received by this device (non-promiscuous).",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Frames sent or received by this device (promiscuous).",
                            MakeTraceSourceAccessor(&OcsNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

OcsNetDevice::OcsNetDevice()
    : m_port(OpticalCircuitSwitch::NO_PORT),
      m_ifIndex(0),
      m_mtu(9000),
      m_policy(HOLD),
      m_busy(false),
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
    m_node = nullptr;
    m_switch = nullptr;
    m_queue = nullptr;
    m_receiveErrorModel = nullptr;
    m_currentFrame = nullptr;
    m_held.clear();
    m_rxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscCallback.Nullify();
    NetDevice::DoDispose();
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
    return m_port;
}

Ptr<OpticalCircuitSwitch>
OcsNetDevice::GetSwitch() const
{
    return m_switch;
}

Time
OcsNetDevice::GetFiberDelay() const
{
    return m_fiberDelay;
}

void
OcsNetDevice::SetDataRate(DataRate rate)
{
    m_lineRate.SetRate(rate);
}

DataRate
OcsNetDevice::GetDataRate() const
{
    return m_lineRate.GetRate();
}

void
OcsNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    m_queue = queue;
}

Ptr<Queue<Packet>>
OcsNetDevice::GetQueue() const
{
    return m_queue;
}

void
OcsNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> model)
{
    m_receiveErrorModel = model;
}

const OcsNetDeviceCounters&
OcsNetDevice::GetCounters() const
{
    return m_counters;
}

uint32_t
OcsNetDevice::GetHeldFrameCount() const
{
    return m_heldCount;
}

bool
OcsNetDevice::IsConnectedTo(const Address& peer) const
{
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
    bool up = m_switch && m_switch->IsCircuitUp(m_port);
    if (up != m_linkUp)
    {
        m_linkUp = up;
        NS_LOG_INFO("port " << m_port << " link " << (up ? "up" : "down"));
        m_linkChangeCallbacks();
    }
    TryTransmit();
}

bool
OcsNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
OcsNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    NS_ABORT_MSG_UNLESS(m_switch, "OcsNetDevice::Send before Attach()");
    if (packet->GetSize() > m_mtu)
    {
        NS_LOG_WARN("dropping a " << packet->GetSize() << "-byte payload: MTU is " << m_mtu);
        ++m_counters.framesDroppedOversize;
        m_macTxDropTrace(packet);
        return false;
    }
    Mac48Address destination = Mac48Address::ConvertFrom(dest);
    EthernetHeader header(false);
    header.SetSource(Mac48Address::ConvertFrom(source));
    header.SetDestination(destination);
    header.SetLengthType(protocolNumber);
    packet->AddHeader(header);

    if (m_policy == DROP && !CircuitReaches(destination))
    {
        ++m_counters.framesDroppedNoCircuit;
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    if (!m_queue->Enqueue(packet))
    {
        ++m_counters.framesDroppedQueueFull;
        m_macTxDropTrace(packet);
        return false;
    }
    TryTransmit();
    return true;
}

Mac48Address
OcsNetDevice::DestinationOf(Ptr<const Packet> frame)
{
    // The destination is the header's first six bytes; reading them alone is cheaper than
    // deserializing the whole header on every frame.
    uint8_t bytes[6];
    frame->CopyData(bytes, sizeof(bytes));
    Mac48Address destination;
    destination.CopyFrom(bytes);
    return destination;
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
    TransmitStart(frame);
}

void
OcsNetDevice::TransmitStart(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    m_currentFrame = frame;
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    m_phyTxBeginTrace(frame);
    ++m_counters.framesSent;
    m_counters.bytesSent += frame->GetSize();
    Time txTime = m_lineRate.Next(frame->GetSize());
    Simulator::Schedule(txTime + m_interframeGap, &OcsNetDevice::TransmitComplete, this);
    m_switch->Transmit(frame, m_port, txTime);
}

void
OcsNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    m_busy = false;
    m_phyTxEndTrace(m_currentFrame);
    m_currentFrame = nullptr;
    TryTransmit();
}

void
OcsNetDevice::NotifyFrameLost(Ptr<const Packet> frame)
{
    ++m_counters.framesLostInFlight;
    m_phyTxDropTrace(frame);
}

void
OcsNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame))
    {
        ++m_counters.framesCorrupted;
        m_phyRxDropTrace(frame);
        return;
    }
    ++m_counters.framesReceived;
    m_counters.bytesReceived += frame->GetSize();
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    m_phyRxEndTrace(frame);

    Ptr<Packet> payload = frame->Copy();
    EthernetHeader header(false);
    payload->RemoveHeader(header);
    Mac48Address destination = header.GetDestination();
    PacketType type = destination == m_address    ? PACKET_HOST
                      : destination.IsBroadcast() ? PACKET_BROADCAST
                      : destination.IsGroup()     ? PACKET_MULTICAST
                                                  : PACKET_OTHERHOST;
    if (!m_promiscCallback.IsNull())
    {
        m_macPromiscRxTrace(frame);
        m_promiscCallback(this,
                          payload,
                          header.GetLengthType(),
                          header.GetSource(),
                          destination,
                          type);
    }
    if (type != PACKET_OTHERHOST && !m_rxCallback.IsNull())
    {
        m_macRxTrace(frame);
        m_rxCallback(this, payload, header.GetLengthType(), header.GetSource());
    }
}

void
OcsNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
OcsNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
OcsNetDevice::GetChannel() const
{
    return m_switch;
}

void
OcsNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
OcsNetDevice::GetAddress() const
{
    return m_address;
}

bool
OcsNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
OcsNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
OcsNetDevice::IsLinkUp() const
{
    return m_switch && m_switch->IsCircuitUp(m_port);
}

void
OcsNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
OcsNetDevice::IsBroadcast() const
{
    return true;
}

Address
OcsNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
OcsNetDevice::IsMulticast() const
{
    return true;
}

Address
OcsNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
OcsNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
OcsNetDevice::IsBridge() const
{
    return false;
}

bool
OcsNetDevice::IsPointToPoint() const
{
    // The far end of the circuit changes with reconfiguration, so frames carry MAC addresses.
    return false;
}

Ptr<Node>
OcsNetDevice::GetNode() const
{
    return m_node;
}

void
OcsNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
OcsNetDevice::NeedsArp() const
{
    return true;
}

void
OcsNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
OcsNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
OcsNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3

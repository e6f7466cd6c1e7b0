/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailNetDevice");

NS_OBJECT_ENSURE_REGISTERED(RailNetDevice);

TypeId
RailNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RailNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("PhotonicRails")
            .AddAttribute("Mtu",
                          "Largest payload of a frame, without its 14-byte Ethernet header.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&RailNetDevice::SetMtu, &RailNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Address",
                          "The MAC address of this device.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&RailNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute(
                "DataRate",
                "Line rate of the port.",
                DataRateValue(DataRate("400Gbps")),
                MakeDataRateAccessor(&RailNetDevice::SetDataRate, &RailNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("InterframeGap",
                          "Idle time after each frame.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RailNetDevice::m_interframeGap),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TxQueue",
                          "The transmit queue.",
                          PointerValue(),
                          MakePointerAccessor(&RailNetDevice::m_queue),
                          MakePointerChecker<Queue<Packet>>())
            .AddAttribute("ReceiveErrorModel",
                          "Error model applied to received frames.",
                          PointerValue(),
                          MakePointerAccessor(&RailNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "A frame was accepted for transmission (with its header).",
                            MakeTraceSourceAccessor(&RailNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A frame was dropped before transmission (full queue, oversize "
                            "payload, or a device-specific reason).",
                            MakeTraceSourceAccessor(&RailNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A frame for this host was passed up (payload, header removed).",
                            MakeTraceSourceAccessor(&RailNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacPromiscRx",
                            "A frame was passed to the promiscuous receive callback "
                            "(payload, header removed).",
                            MakeTraceSourceAccessor(&RailNetDevice::m_macPromiscRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame began to be serialized onto the fiber or cable.",
                            MakeTraceSourceAccessor(&RailNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "The last bit of a frame left the device.",
                            MakeTraceSourceAccessor(&RailNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "The last bit of a frame arrived.",
                            MakeTraceSourceAccessor(&RailNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A received frame was dropped by the receive error model.",
                            MakeTraceSourceAccessor(&RailNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Frames sent or received by this device (non-promiscuous).",
                            MakeTraceSourceAccessor(&RailNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Frames sent or received by this device (promiscuous).",
                            MakeTraceSourceAccessor(&RailNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

RailNetDevice::RailNetDevice()
    : m_ifIndex(0),
      m_mtu(9000),
      m_busy(false)
{
    NS_LOG_FUNCTION(this);
}

RailNetDevice::~RailNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
RailNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_queue = nullptr;
    m_receiveErrorModel = nullptr;
    m_currentFrame = nullptr;
    m_rxCallback.Nullify();
    m_promiscCallback.Nullify();
    NetDevice::DoDispose();
}

void
RailNetDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_lineRate.SetRate(rate);
}

DataRate
RailNetDevice::GetDataRate() const
{
    NS_LOG_FUNCTION(this);
    return m_lineRate.GetRate();
}

void
RailNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    NS_LOG_FUNCTION(this << queue);
    m_queue = queue;
}

Ptr<Queue<Packet>>
RailNetDevice::GetQueue() const
{
    NS_LOG_FUNCTION(this);
    return m_queue;
}

void
RailNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> model)
{
    NS_LOG_FUNCTION(this << model);
    m_receiveErrorModel = model;
}

bool
RailNetDevice::Frame(Ptr<Packet> packet,
                     const Address& source,
                     const Address& dest,
                     uint16_t protocol)
{
    if (packet->GetSize() > m_mtu)
    {
        NS_LOG_WARN("dropping a " << packet->GetSize() << "-byte payload: MTU is " << m_mtu);
        m_macTxDropTrace(packet);
        return false;
    }
    EthernetHeader header(false);
    header.SetSource(Mac48Address::ConvertFrom(source));
    header.SetDestination(Mac48Address::ConvertFrom(dest));
    header.SetLengthType(protocol);
    packet->AddHeader(header);
    return true;
}

bool
RailNetDevice::Arrive(Ptr<Packet> frame)
{
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame))
    {
        m_phyRxDropTrace(frame);
        return false;
    }
    FireTrace(m_snifferTrace, frame);
    FireTrace(m_promiscSnifferTrace, frame);
    FireTrace(m_phyRxEndTrace, frame);
    return true;
}

void
RailNetDevice::DeliverUp(Ptr<Packet> payload, const EthernetHeader& header)
{
    Mac48Address destination = header.GetDestination();
    PacketType type = destination == m_address    ? PACKET_HOST
                      : destination.IsBroadcast() ? PACKET_BROADCAST
                      : destination.IsGroup()     ? PACKET_MULTICAST
                                                  : PACKET_OTHERHOST;
    if (type != PACKET_OTHERHOST && !m_rxCallback.IsNull())
    {
        FireTrace(m_macRxTrace, payload);
        m_rxCallback(this, payload, header.GetLengthType(), header.GetSource());
    }
    // Last: a switch takes this very packet object and forwards it.
    if (!m_promiscCallback.IsNull())
    {
        FireTrace(m_macPromiscRxTrace, payload);
        m_promiscCallback(this,
                          payload,
                          header.GetLengthType(),
                          header.GetSource(),
                          destination,
                          type);
    }
}

void
RailNetDevice::NotifyLinkChange()
{
    m_linkChangeCallbacks();
}

Time
RailNetDevice::BeginTransmission(Ptr<Packet> frame)
{
    m_busy = true;
    m_currentFrame = frame;
    FireTrace(m_snifferTrace, frame);
    FireTrace(m_promiscSnifferTrace, frame);
    FireTrace(m_phyTxBeginTrace, frame);
    Time txTime = m_lineRate.Next(frame->GetSize());
    Simulator::Schedule(txTime + m_interframeGap, &RailNetDevice::EndTransmission, this);
    return txTime;
}

void
RailNetDevice::EndTransmission()
{
    m_busy = false;
    FireTrace(m_phyTxEndTrace, m_currentFrame);
    m_currentFrame = nullptr;
    TryTransmit();
}

Mac48Address
RailNetDevice::DestinationOf(Ptr<const Packet> frame)
{
    uint8_t bytes[6];
    frame->CopyData(bytes, sizeof(bytes));
    Mac48Address destination;
    destination.CopyFrom(bytes);
    return destination;
}

void
RailNetDevice::SetIfIndex(const uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    m_ifIndex = index;
}

uint32_t
RailNetDevice::GetIfIndex() const
{
    NS_LOG_FUNCTION(this);
    return m_ifIndex;
}

void
RailNetDevice::SetAddress(Address address)
{
    NS_LOG_FUNCTION(this << address);
    m_address = Mac48Address::ConvertFrom(address);
}

Address
RailNetDevice::GetAddress() const
{
    NS_LOG_FUNCTION(this);
    return m_address;
}

bool
RailNetDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    m_mtu = mtu;
    return true;
}

uint16_t
RailNetDevice::GetMtu() const
{
    NS_LOG_FUNCTION(this);
    return m_mtu;
}

void
RailNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    NS_LOG_FUNCTION(this);
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
RailNetDevice::IsBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

Address
RailNetDevice::GetBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return Mac48Address::GetBroadcast();
}

bool
RailNetDevice::IsMulticast() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

Address
RailNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    NS_LOG_FUNCTION(this << multicastGroup);
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
RailNetDevice::GetMulticast(Ipv6Address addr) const
{
    NS_LOG_FUNCTION(this << addr);
    return Mac48Address::GetMulticast(addr);
}

bool
RailNetDevice::IsBridge() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

bool
RailNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    return SendFrom(packet, m_address, dest, protocolNumber);
}

Ptr<Node>
RailNetDevice::GetNode() const
{
    NS_LOG_FUNCTION(this);
    return m_node;
}

void
RailNetDevice::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
}

bool
RailNetDevice::NeedsArp() const
{
    NS_LOG_FUNCTION(this);
    // Frames are delivered by destination MAC, so the far host's MAC matters.
    return true;
}

void
RailNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_rxCallback = cb;
}

void
RailNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_promiscCallback = cb;
}

bool
RailNetDevice::SupportsSendFrom() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "eps-net-device.h"

#include "eps-channel.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EpsNetDevice");

NS_OBJECT_ENSURE_REGISTERED(EpsNetDevice);

namespace
{
/// MAC control opcode of a priority-based flow control frame (IEEE 802.1Qbb).
constexpr uint16_t PFC_OPCODE = 0x0101;
/// MAC control opcode of a link-level PAUSE frame (IEEE 802.3x); accepted on receive.
constexpr uint16_t PAUSE_OPCODE = 0x0001;
/// Pause time of class 0 in a PAUSE: the maximum, in quanta (a RESUME carries 0).
constexpr uint16_t PAUSE_QUANTA_MAX = 0xffff;
/// Destination of MAC control frames (IEEE 802.3 Annex 31B).
const Mac48Address MAC_CONTROL_DESTINATION("01:80:c2:00:00:01");
} // namespace

TypeId
EpsNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EpsNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<EpsNetDevice>()
            .AddAttribute("Mtu",
                          "Largest payload of a frame, without its 14-byte Ethernet header.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&EpsNetDevice::SetMtu, &EpsNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Address",
                          "The MAC address of this device.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&EpsNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute(
                "DataRate",
                "Line rate of the port.",
                DataRateValue(DataRate("400Gbps")),
                MakeDataRateAccessor(&EpsNetDevice::SetDataRate, &EpsNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("InterframeGap",
                          "Idle time after each frame.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&EpsNetDevice::m_interframeGap),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TxQueue",
                          "The transmit queue.",
                          PointerValue(),
                          MakePointerAccessor(&EpsNetDevice::m_queue),
                          MakePointerChecker<Queue<Packet>>())
            .AddAttribute("ReceiveErrorModel",
                          "Error model applied to received frames.",
                          PointerValue(),
                          MakePointerAccessor(&EpsNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "A data frame was accepted for transmission (with its header).",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A data frame was dropped before transmission (full queue, "
                            "oversize payload).",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A data frame for this host was passed up (payload, header "
                            "removed).",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacPromiscRx",
                            "A data frame was passed to the promiscuous receive callback "
                            "(payload, header removed).",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_macPromiscRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame (data or control) began to be serialized onto the cable.",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "The last bit of a frame (data or control) left the device.",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "The last bit of a frame (data or control) arrived.",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A received frame was dropped by the receive error model.",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Frames sent or received by this device (non-promiscuous).",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Frames sent or received by this device (promiscuous).",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PauseChanged",
                            "The peer paused (true) or resumed (false) this device's data "
                            "transmissions.",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_pauseTrace),
                            "ns3::EpsNetDevice::PauseTracedCallback");
    return tid;
}

EpsNetDevice::EpsNetDevice()
    : m_ifIndex(0),
      m_mtu(9000),
      m_linkUp(false),
      m_busy(false),
      m_paused(false),
      m_pauseWanted(false),
      m_pauseAdvertised(false)
{
    NS_LOG_FUNCTION(this);
}

EpsNetDevice::~EpsNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
EpsNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_channel = nullptr;
    m_queue = nullptr;
    m_receiveErrorModel = nullptr;
    m_currentFrame = nullptr;
    m_frameSource.Nullify();
    m_rxCallback.Nullify();
    m_promiscCallback.Nullify();
    NetDevice::DoDispose();
}

void
EpsNetDevice::Attach(Ptr<EpsChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_IF(!channel, "EpsNetDevice::Attach: null channel");
    NS_ABORT_MSG_IF(m_channel, "EpsNetDevice is already attached to a channel");
    m_channel = channel;
    channel->Attach(this);
}

Ptr<EpsChannel>
EpsNetDevice::GetEpsChannel() const
{
    return m_channel;
}

Ptr<EpsNetDevice>
EpsNetDevice::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

void
EpsNetDevice::SetDataRate(DataRate rate)
{
    m_lineRate.SetRate(rate);
}

DataRate
EpsNetDevice::GetDataRate() const
{
    return m_lineRate.GetRate();
}

void
EpsNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    m_queue = queue;
}

Ptr<Queue<Packet>>
EpsNetDevice::GetQueue() const
{
    return m_queue;
}

void
EpsNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> model)
{
    m_receiveErrorModel = model;
}

void
EpsNetDevice::SetFrameSource(FrameSource source)
{
    m_frameSource = source;
}

void
EpsNetDevice::NotifyFrameAvailable()
{
    TryTransmit();
}

const EpsNetDeviceCounters&
EpsNetDevice::GetCounters() const
{
    return m_counters;
}

bool
EpsNetDevice::IsPaused() const
{
    return m_paused;
}

Time
EpsNetDevice::GetPausedTime() const
{
    return m_counters.pausedTime + (m_paused ? Simulator::Now() - m_pausedSince : Time(0));
}

void
EpsNetDevice::NotifyLinkUp()
{
    NS_LOG_FUNCTION(this);
    m_linkUp = true;
    m_linkChangeCallbacks();
    TryTransmit();
}

bool
EpsNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
EpsNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    NS_ABORT_MSG_UNLESS(m_channel, "EpsNetDevice::Send before Attach()");
    NS_ABORT_MSG_UNLESS(m_queue, "EpsNetDevice::Send without a TxQueue (see SetQueue)");
    NS_ABORT_MSG_IF(protocolNumber == MAC_CONTROL_ETHERTYPE,
                    "EtherType 0x8808 is reserved for PAUSE frames (use SendPause)");
    NS_ABORT_MSG_UNLESS(Mac48Address::IsMatchingType(source) && Mac48Address::IsMatchingType(dest),
                        "EpsNetDevice::Send: addresses must be Mac48Address");
    if (packet->GetSize() > m_mtu)
    {
        NS_LOG_WARN("dropping a " << packet->GetSize() << "-byte payload: MTU is " << m_mtu);
        ++m_counters.framesDroppedOversize;
        m_macTxDropTrace(packet);
        return false;
    }
    EthernetHeader header(false);
    header.SetSource(Mac48Address::ConvertFrom(source));
    header.SetDestination(Mac48Address::ConvertFrom(dest));
    header.SetLengthType(protocolNumber);
    packet->AddHeader(header);
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

void
EpsNetDevice::SendPause(bool pause)
{
    NS_LOG_FUNCTION(this << pause);
    m_pauseWanted = pause;
    TryTransmit();
}

Ptr<Packet>
EpsNetDevice::MakePauseFrame(bool pause) const
{
    // MAC control payload: opcode, class-enable vector, 8 pause times; padded to 64 bytes.
    uint8_t payload[PAUSE_FRAME_BYTES - ETHERNET_HEADER_BYTES] = {};
    payload[0] = PFC_OPCODE >> 8;
    payload[1] = PFC_OPCODE & 0xff;
    payload[3] = 0x01; // class 0 enabled
    uint16_t quanta = pause ? PAUSE_QUANTA_MAX : 0;
    payload[4] = quanta >> 8;
    payload[5] = quanta & 0xff;
    Ptr<Packet> frame = Create<Packet>(payload, sizeof(payload));
    EthernetHeader header(false);
    header.SetSource(m_address);
    header.SetDestination(MAC_CONTROL_DESTINATION);
    header.SetLengthType(MAC_CONTROL_ETHERTYPE);
    frame->AddHeader(header);
    return frame;
}

void
EpsNetDevice::TryTransmit()
{
    if (m_busy || !m_linkUp)
    {
        return;
    }
    // Busy from here: a frame source (a switch) may ask this very port for a PAUSE/RESUME
    // while it hands over a frame; that request must wait, not start a second frame.
    m_busy = true;
    // Control frames go first and are not subject to the peer's PAUSE.
    if (m_pauseWanted != m_pauseAdvertised)
    {
        m_pauseAdvertised = m_pauseWanted;
        ++(m_pauseWanted ? m_counters.pauseFramesSent : m_counters.resumeFramesSent);
        TransmitStart(MakePauseFrame(m_pauseWanted));
        return;
    }
    Ptr<Packet> frame = m_paused ? nullptr : NextDataFrame();
    if (!frame)
    {
        m_busy = false;
        return;
    }
    ++m_counters.framesSent;
    m_counters.bytesSent += frame->GetSize();
    TransmitStart(frame);
}

Ptr<Packet>
EpsNetDevice::NextDataFrame()
{
    if (m_queue && !m_queue->IsEmpty())
    {
        return m_queue->Dequeue();
    }
    return m_frameSource.IsNull() ? nullptr : m_frameSource();
}

void
EpsNetDevice::TransmitStart(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    m_currentFrame = frame;
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    m_phyTxBeginTrace(frame);
    Time txTime = m_lineRate.Next(frame->GetSize());
    Simulator::Schedule(txTime + m_interframeGap, &EpsNetDevice::TransmitComplete, this);
    m_channel->Transmit(frame, this, txTime);
}

void
EpsNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    m_busy = false;
    m_phyTxEndTrace(m_currentFrame);
    m_currentFrame = nullptr;
    TryTransmit();
}

void
EpsNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame))
    {
        ++m_counters.framesCorrupted;
        m_phyRxDropTrace(frame);
        return;
    }
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    m_phyRxEndTrace(frame);

    uint32_t wireBytes = frame->GetSize();
    EthernetHeader header(false);
    frame->RemoveHeader(header);
    uint16_t protocol = header.GetLengthType();
    if (protocol == MAC_CONTROL_ETHERTYPE)
    {
        ReceiveControl(frame);
        return;
    }
    ++m_counters.framesReceived;
    m_counters.bytesReceived += wireBytes;

    Mac48Address destination = header.GetDestination();
    PacketType type = destination == m_address    ? PACKET_HOST
                      : destination.IsBroadcast() ? PACKET_BROADCAST
                      : destination.IsGroup()     ? PACKET_MULTICAST
                                                  : PACKET_OTHERHOST;
    if (type != PACKET_OTHERHOST && !m_rxCallback.IsNull())
    {
        m_macRxTrace(frame);
        m_rxCallback(this, frame, protocol, header.GetSource());
    }
    // Last: a switch takes this very packet object and forwards it.
    if (!m_promiscCallback.IsNull())
    {
        m_macPromiscRxTrace(frame);
        m_promiscCallback(this, frame, protocol, header.GetSource(), destination, type);
    }
}

void
EpsNetDevice::ReceiveControl(Ptr<const Packet> payload)
{
    uint8_t bytes[6] = {};
    payload->CopyData(bytes, sizeof(bytes));
    uint16_t opcode = (bytes[0] << 8) | bytes[1];
    if (opcode != PFC_OPCODE && opcode != PAUSE_OPCODE)
    {
        NS_LOG_WARN("ignoring a MAC control frame with opcode " << opcode);
        return;
    }
    // PFC: class-enable vector, then class 0's time; 802.3x PAUSE: the time right away.
    uint16_t quanta =
        opcode == PFC_OPCODE ? (bytes[4] << 8) | bytes[5] : (bytes[2] << 8) | bytes[3];
    bool pause = quanta != 0;
    ++(pause ? m_counters.pauseFramesReceived : m_counters.resumeFramesReceived);
    SetPaused(pause);
}

void
EpsNetDevice::SetPaused(bool paused)
{
    if (paused == m_paused)
    {
        return;
    }
    NS_LOG_INFO((paused ? "paused" : "resumed") << " by the peer");
    m_paused = paused;
    if (paused)
    {
        m_pausedSince = Simulator::Now();
    }
    else
    {
        m_counters.pausedTime += Simulator::Now() - m_pausedSince;
    }
    m_pauseTrace(paused);
    TryTransmit();
}

void
EpsNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
EpsNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
EpsNetDevice::GetChannel() const
{
    return m_channel;
}

void
EpsNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
EpsNetDevice::GetAddress() const
{
    return m_address;
}

bool
EpsNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
EpsNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
EpsNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
EpsNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
EpsNetDevice::IsBroadcast() const
{
    return true;
}

Address
EpsNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
EpsNetDevice::IsMulticast() const
{
    return true;
}

Address
EpsNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
EpsNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
EpsNetDevice::IsBridge() const
{
    return false;
}

bool
EpsNetDevice::IsPointToPoint() const
{
    return true;
}

Ptr<Node>
EpsNetDevice::GetNode() const
{
    return m_node;
}

void
EpsNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
EpsNetDevice::NeedsArp() const
{
    // Frames are switched by destination MAC, so the MAC of the far host matters.
    return true;
}

void
EpsNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
EpsNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
EpsNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3

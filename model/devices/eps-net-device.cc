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
#include "ns3/socket.h"
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
            .SetParent<RailNetDevice>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<EpsNetDevice>()
            .AddTraceSource("PauseChanged",
                            "The peer paused (true) or resumed (false) this device's data "
                            "transmissions.",
                            MakeTraceSourceAccessor(&EpsNetDevice::m_pauseTrace),
                            "ns3::EpsNetDevice::PauseTracedCallback");
    return tid;
}

EpsNetDevice::EpsNetDevice()
    : m_linkUp(false),
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
    m_channel = nullptr;
    m_frameSource.Nullify();
    m_networkControl.clear();
    RailNetDevice::DoDispose();
}

bool
EpsNetDevice::IsNetworkControl(Ptr<const Packet> frame)
{
    NS_LOG_FUNCTION(frame);
    SocketPriorityTag priority;
    return frame->PeekPacketTag(priority) && priority.GetPriority() >= NETWORK_CONTROL_PRIORITY;
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
    NS_LOG_FUNCTION(this);
    return m_channel;
}

Ptr<EpsNetDevice>
EpsNetDevice::GetPeer() const
{
    NS_LOG_FUNCTION(this);
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

void
EpsNetDevice::SetFrameSource(FrameSource source)
{
    NS_LOG_FUNCTION(this);
    m_frameSource = source;
}

void
EpsNetDevice::NotifyFrameAvailable()
{
    NS_LOG_FUNCTION(this);
    TryTransmit();
}

const EpsNetDeviceCounters&
EpsNetDevice::GetCounters() const
{
    NS_LOG_FUNCTION(this);
    return m_counters;
}

bool
EpsNetDevice::IsPaused() const
{
    NS_LOG_FUNCTION(this);
    return m_paused;
}

Time
EpsNetDevice::GetPausedTime() const
{
    NS_LOG_FUNCTION(this);
    return m_counters.pausedTime + (m_paused ? Simulator::Now() - m_pausedSince : Time(0));
}

void
EpsNetDevice::NotifyLinkUp()
{
    NS_LOG_FUNCTION(this);
    m_linkUp = true;
    NotifyLinkChange();
    TryTransmit();
}

void
EpsNetDevice::NotifyLinkDown()
{
    NS_LOG_FUNCTION(this);
    m_linkUp = false;
    // Users learn first, so that emptying the queue (its Dequeue trace) refills nothing.
    NotifyLinkChange();
    while (m_queue && !m_queue->IsEmpty())
    {
        DropLinkDown(m_queue->Dequeue());
    }
    for (const auto& frame : m_networkControl)
    {
        DropLinkDown(frame);
    }
    m_networkControl.clear();
    // A repaired cable starts with neither side paused.
    SetPaused(false);
    m_pauseWanted = false;
    m_pauseAdvertised = false;
}

void
EpsNetDevice::DropLinkDown(Ptr<const Packet> frame)
{
    ++m_counters.framesDroppedLinkDown;
    m_macTxDropTrace(frame);
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
    if (!Frame(packet, source, dest, protocolNumber))
    {
        ++m_counters.framesDroppedOversize;
        return false;
    }
    if (!m_linkUp && m_channel->GetNDevices() == 2)
    {
        DropLinkDown(packet); // the cable is cut
        return false;
    }
    FireTrace(m_macTxTrace, packet);
    if (IsNetworkControl(packet))
    {
        m_networkControl.push_back(packet);
        TryTransmit();
        return true;
    }
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
        Ptr<Packet> pause = MakePauseFrame(m_pauseWanted);
        m_channel->Transmit(pause, this, BeginTransmission(pause));
        return;
    }
    Ptr<Packet> frame = NextFrame();
    if (!frame)
    {
        m_busy = false;
        return;
    }
    ++m_counters.framesSent;
    m_counters.bytesSent += frame->GetSize();
    m_channel->Transmit(frame, this, BeginTransmission(frame));
}

Ptr<Packet>
EpsNetDevice::NextFrame()
{
    // PFC pauses the data class only: network control (CNPs) goes first and is not held.
    if (!m_networkControl.empty())
    {
        Ptr<Packet> frame = m_networkControl.front();
        m_networkControl.pop_front();
        return frame;
    }
    if (!m_paused && m_queue && !m_queue->IsEmpty())
    {
        return m_queue->Dequeue();
    }
    return m_frameSource.IsNull() ? nullptr : m_frameSource(m_paused);
}

void
EpsNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (!Arrive(frame))
    {
        ++m_counters.framesCorrupted;
        return;
    }
    uint32_t wireBytes = frame->GetSize();
    EthernetHeader header(false);
    frame->RemoveHeader(header);
    if (header.GetLengthType() == MAC_CONTROL_ETHERTYPE)
    {
        ReceiveControl(frame);
        return;
    }
    ++m_counters.framesReceived;
    m_counters.bytesReceived += wireBytes;
    DeliverUp(frame, header);
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

Ptr<Channel>
EpsNetDevice::GetChannel() const
{
    NS_LOG_FUNCTION(this);
    return m_channel;
}

bool
EpsNetDevice::IsLinkUp() const
{
    NS_LOG_FUNCTION(this);
    return m_linkUp;
}

bool
EpsNetDevice::IsPointToPoint() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

} // namespace ns3

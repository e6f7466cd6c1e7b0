/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "eps-switch.h"

#include "ns3/abort.h"
#include "ns3/attribute-default.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ecn-mark-tag.h"
#include "ns3/eps-channel.h"
#include "ns3/eps-net-device.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/splitmix-hash.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EpsSwitch");

NS_OBJECT_ENSURE_REGISTERED(EpsSwitch);

TypeId
EpsSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EpsSwitch")
            .SetParent<Object>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<EpsSwitch>()
            .AddAttribute("ProcessingDelay",
                          "Time from a frame's last bit in to its joining the egress queue "
                          "(forwarding lookup; a 300 ns port-to-port latency is typical of "
                          "Spectrum-2-class 400G switch ASICs).",
                          TimeValue(NanoSeconds(300)),
                          MakeTimeAccessor(&EpsSwitch::m_processingDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("BufferSize",
                          "Shared packet buffer of the whole switch, bytes (HPCC's simulator "
                          "default, 32 MiB).",
                          UintegerValue(32 * 1024 * 1024),
                          MakeUintegerAccessor(&EpsSwitch::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("DtAlpha",
                          "Dynamic threshold with PFC off: an egress queue may hold at most "
                          "DtAlpha x the free buffer. 0 disables it (plain shared buffer).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&EpsSwitch::m_dtAlpha),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("EcmpSeed",
                          "Seed of the ECMP hash; 0 uses the node id + 1, so that switches "
                          "in series do not make the same choices (no polarization).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EpsSwitch::SetEcmpSeed, &EpsSwitch::GetEcmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnEnabled",
                          "Mark frames (EcnMarkTag) by the RED profile on the egress queue.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EpsSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "Egress queue bytes at or below which no frame is marked. 0 "
                          "derives it from the egress port's rate: 4,000 B per Gb/s (HPCC's "
                          "simulator: 400 KB at 100 Gb/s), at most EcnKmax.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EpsSwitch::m_ecnKmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "Egress queue bytes above which every frame is marked. 0 derives "
                          "it from the egress port's rate: 16,000 B per Gb/s (1.6 MB at "
                          "100 Gb/s), at least EcnKmin.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EpsSwitch::m_ecnKmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "Marking probability when the queue is at EcnKmax.",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&EpsSwitch::m_ecnPmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("PfcEnabled",
                          "Priority flow control: pause an ingress port's upstream when its "
                          "buffered bytes exceed Xoff. Off: drop-tail (lossy) fabric.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EpsSwitch::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PfcXoff",
                          "PAUSE threshold per ingress port, bytes. 0 derives the largest "
                          "lossless one: BufferSize / ports - the port's headroom.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EpsSwitch::m_pfcXoff),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PfcXon",
                          "RESUME threshold per ingress port, bytes, below Xoff. 0 derives "
                          "Xoff - 2 maximal frames.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EpsSwitch::m_pfcXon),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("QueueLength",
                            "An egress queue changed: port, bytes queued.",
                            MakeTraceSourceAccessor(&EpsSwitch::m_queueLengthTrace),
                            "ns3::EpsSwitch::QueueLengthTracedCallback")
            .AddTraceSource(
                "EcnMark",
                "A frame was ECN-marked as it left: frame, egress port, queue bytes behind it.",
                MakeTraceSourceAccessor(&EpsSwitch::m_ecnMarkTrace),
                "ns3::EpsSwitch::EcnMarkTracedCallback")
            .AddTraceSource("PfcPause",
                            "An ingress port sent PAUSE (true) or RESUME (false) upstream.",
                            MakeTraceSourceAccessor(&EpsSwitch::m_pfcPauseTrace),
                            "ns3::EpsSwitch::PfcPauseTracedCallback")
            .AddTraceSource("Drop",
                            "A frame was dropped: frame, ingress port, reason.",
                            MakeTraceSourceAccessor(&EpsSwitch::m_dropTrace),
                            "ns3::EpsSwitch::DropTracedCallback");
    return tid;
}

EpsSwitch::EpsSwitch()
    : m_configured(false),
      m_bufferUsed(0),
      m_random(CreateObject<UniformRandomVariable>()),
      m_bufferSize(0),
      m_dtAlpha(0),
      m_ecmpSeed(0),
      m_hashSeed(0),
      m_ecnEnabled(true),
      m_ecnKmin(0),
      m_ecnKmax(0),
      m_ecnPmax(0),
      m_pfcEnabled(true),
      m_pfcXoff(0),
      m_pfcXon(0)
{
    NS_LOG_FUNCTION(this);
}

EpsSwitch::~EpsSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
EpsSwitch::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    Configure();
    Object::DoInitialize();
}

void
EpsSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& port : m_ports)
    {
        port.device->SetFrameSource(EpsNetDevice::FrameSource());
        port.device->SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback());
    }
    m_ports.clear();
    m_routes.clear();
    m_random = nullptr;
    Object::DoDispose();
}

uint32_t
EpsSwitch::AddPort(Ptr<EpsNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!device, "EpsSwitch::AddPort: null device");
    NS_ABORT_MSG_IF(GetPortOf(device) != NO_PORT, "EpsSwitch::AddPort: device already a port");
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(node && device->GetNode() != node,
                    "EpsSwitch::AddPort: the device belongs to another node");
    uint32_t port = m_ports.size();
    m_ports.emplace_back();
    m_ports.back().device = device;
    device->SetPromiscReceiveCallback(
        NetDevice::PromiscReceiveCallback([this, port](Ptr<NetDevice>,
                                                       Ptr<const Packet> payload,
                                                       uint16_t protocol,
                                                       const Address& source,
                                                       const Address& destination,
                                                       NetDevice::PacketType) {
            return Receive(port, payload, protocol, source, destination);
        }));
    device->SetFrameSource(EpsNetDevice::FrameSource(
        [this, port](bool networkControlOnly) { return Dequeue(port, networkControlOnly); }));
    device->AddLinkChangeCallback(MakeCallback(&EpsSwitch::OnLinkChange, this).Bind(port));
    m_configured = false;
    return port;
}

void
EpsSwitch::SetEcmpSeed(uint32_t seed)
{
    NS_LOG_FUNCTION(this << seed);
    m_ecmpSeed = seed;
    m_configured = false; // the hash seed in use is derived in Configure()
}

uint32_t
EpsSwitch::GetEcmpSeed() const
{
    NS_LOG_FUNCTION(this);
    return m_ecmpSeed;
}

uint32_t
EpsSwitch::GetNPorts() const
{
    NS_LOG_FUNCTION(this);
    return m_ports.size();
}

Ptr<EpsNetDevice>
EpsSwitch::GetPortDevice(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "EpsSwitch: no port " << port);
    return m_ports[port].device;
}

uint32_t
EpsSwitch::GetPortOf(Ptr<const NetDevice> device) const
{
    NS_LOG_FUNCTION(this << device);
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        if (PeekPointer(m_ports[port].device) == PeekPointer(device))
        {
            return port;
        }
    }
    return NO_PORT;
}

uint64_t
EpsSwitch::MacKey(Mac48Address address)
{
    uint8_t bytes[6];
    address.CopyTo(bytes);
    uint64_t key = 0;
    for (uint8_t byte : bytes)
    {
        key = (key << 8) | byte;
    }
    return key;
}

void
EpsSwitch::AddRoute(Mac48Address destination, std::vector<uint32_t> ports)
{
    NS_LOG_FUNCTION(this << destination);
    NS_ABORT_MSG_IF(ports.empty(), "EpsSwitch::AddRoute: no egress port for " << destination);
    NS_ABORT_MSG_IF(destination.IsGroup(),
                    "EpsSwitch::AddRoute: " << destination << " is not a unicast address");
    for (uint32_t port : ports)
    {
        NS_ABORT_MSG_IF(port >= m_ports.size(),
                        "EpsSwitch::AddRoute: port " << port << " does not exist (the switch has "
                                                     << m_ports.size() << ")");
    }
    m_routes[MacKey(destination)] = std::move(ports);
}

void
EpsSwitch::AddRoute(Mac48Address destination, uint32_t port)
{
    NS_LOG_FUNCTION(this << destination << port);
    AddRoute(destination, std::vector<uint32_t>{port});
}

void
EpsSwitch::RemoveRoute(Mac48Address destination)
{
    NS_LOG_FUNCTION(this << destination);
    m_routes.erase(MacKey(destination));
}

std::vector<uint32_t>
EpsSwitch::GetRoute(Mac48Address destination) const
{
    NS_LOG_FUNCTION(this << destination);
    auto route = m_routes.find(MacKey(destination));
    return route == m_routes.end() ? std::vector<uint32_t>() : route->second;
}

std::size_t
EpsSwitch::GetNRoutes() const
{
    NS_LOG_FUNCTION(this);
    return m_routes.size();
}

uint32_t
EpsSwitch::ReadFlowLabel(Ptr<const Packet> payload)
{
    NS_LOG_FUNCTION(payload);
    uint8_t bytes[FLOW_LABEL_BYTES] = {};
    payload->CopyData(bytes, FLOW_LABEL_BYTES);
    return (uint32_t(bytes[0]) << 24) | (uint32_t(bytes[1]) << 16) | (uint32_t(bytes[2]) << 8) |
           bytes[3];
}

uint32_t
EpsSwitch::SelectEgress(Mac48Address source, Mac48Address destination, uint32_t flowLabel)
{
    NS_LOG_FUNCTION(this << source << destination << flowLabel);
    if (!m_configured)
    {
        Configure();
    }
    auto route = m_routes.find(MacKey(destination));
    if (route == m_routes.end())
    {
        return NO_PORT;
    }
    return route->second.size() == 1
               ? route->second[0]
               : HashToPort(route->second, MacKey(source), route->first, flowLabel);
}

uint32_t
EpsSwitch::HashToPort(const std::vector<uint32_t>& ports,
                      uint64_t source,
                      uint64_t destination,
                      uint32_t flowLabel) const
{
    uint64_t hash = SplitMix64(m_hashSeed ^ source);
    hash = SplitMix64(hash ^ destination);
    hash = SplitMix64(hash ^ flowLabel);
    // Multiply-high maps the 64-bit hash onto [0, n) without a division.
    auto index =
        static_cast<std::size_t>((static_cast<unsigned __int128>(hash) * ports.size()) >> 64);
    return ports[index];
}

bool
EpsSwitch::Receive(uint32_t port,
                   Ptr<const Packet> payload,
                   uint16_t protocol,
                   const Address& source,
                   const Address& destination)
{
    NS_LOG_FUNCTION(this << port << payload);
    if (!m_configured)
    {
        Configure();
    }
    Mac48Address src = Mac48Address::ConvertFrom(source);
    Mac48Address dst = Mac48Address::ConvertFrom(destination);
    uint32_t egress = NO_PORT;
    auto route = m_routes.find(MacKey(dst));
    if (route != m_routes.end())
    {
        // The flow label is read only when there is a choice to make.
        egress = route->second.size() == 1
                     ? route->second[0]
                     : HashToPort(route->second, MacKey(src), route->first, ReadFlowLabel(payload));
    }

    // The device hands each received frame to its promiscuous callback last and keeps no
    // reference: forwarding the packet object itself saves a copy per hop.
    Ptr<Packet> frame = ConstCast<Packet>(payload);
    EthernetHeader header(false);
    header.SetSource(src);
    header.SetDestination(dst);
    header.SetLengthType(protocol);
    frame->AddHeader(header);
    uint32_t bytes = frame->GetSize();
    ++m_counters.framesReceived;
    m_counters.bytesReceived += bytes;

    DropReason reason = NO_ROUTE;
    if (egress != NO_PORT && !m_ports[egress].device->IsLinkUp())
    {
        Drop(frame, port, LINK_DOWN);
        return true;
    }
    if (egress == NO_PORT || !Admit(egress, bytes, reason))
    {
        Drop(frame, port, reason);
        return true;
    }
    m_bufferUsed += bytes;
    m_ports[port].ingressBytes += bytes;
    CheckXoff(port);
    if (m_processingDelay.IsZero())
    {
        Enqueue(egress, port, frame);
    }
    else
    {
        Simulator::Schedule(m_processingDelay, &EpsSwitch::Enqueue, this, egress, port, frame);
    }
    return true;
}

bool
EpsSwitch::Admit(uint32_t egress, uint32_t bytes, DropReason& reason) const
{
    if (m_bufferUsed + bytes > m_bufferSize)
    {
        reason = BUFFER_FULL;
        return false;
    }
    if (!m_pfcEnabled && m_dtAlpha > 0 &&
        m_ports[egress].queueBytes + bytes > m_dtAlpha * double(m_bufferSize - m_bufferUsed))
    {
        reason = EGRESS_THRESHOLD;
        return false;
    }
    return true;
}

void
EpsSwitch::Enqueue(uint32_t egress, uint32_t ingress, Ptr<Packet> frame)
{
    Port& port = m_ports[egress];
    if (!port.device->IsLinkUp())
    {
        DropQueued({frame, ingress}); // the link went down during the processing delay
        return;
    }
    bool networkControl = EpsNetDevice::IsNetworkControl(frame);
    port.queueBytes += frame->GetSize();
    (networkControl ? port.networkControl : port.queue).push_back({frame, ingress});
    m_queueLengthTrace(egress, port.queueBytes);
    port.device->NotifyFrameAvailable();
}

Ptr<Packet>
EpsSwitch::Dequeue(uint32_t egress, bool networkControlOnly)
{
    Port& port = m_ports[egress];
    // Strict priority: network control first; data only while the port is not paused.
    bool control = !port.networkControl.empty();
    if (!control && (networkControlOnly || port.queue.empty()))
    {
        return nullptr;
    }
    std::deque<Queued>& fifo = control ? port.networkControl : port.queue;
    Queued head = std::move(fifo.front());
    fifo.pop_front();
    uint32_t bytes = head.frame->GetSize();
    port.queueBytes -= bytes;
    m_bufferUsed -= bytes;
    m_ports[head.ingress].ingressBytes -= bytes;
    ++m_counters.framesForwarded;
    m_counters.bytesForwarded += bytes;
    m_queueLengthTrace(egress, port.queueBytes);
    CheckXon(head.ingress);
    // Marking as a frame leaves, by the queue it leaves behind (as HPCC's simulator does):
    // the news reaches the receiver without waiting out the queue it is about.
    if (!control && m_ecnEnabled && ShouldMark(port, port.queueBytes))
    {
        ++m_counters.framesMarked;
        EcnMarkTag tag;
        if (!head.frame->PeekPacketTag(tag)) // marked once, by the first congested hop
        {
            head.frame->AddPacketTag(EcnMarkTag(egress));
        }
        m_ecnMarkTrace(head.frame, egress, port.queueBytes);
    }
    return head.frame;
}

void
EpsSwitch::OnLinkChange(uint32_t index)
{
    Port& port = m_ports[index];
    if (port.device->IsLinkUp())
    {
        NS_LOG_INFO("port " << index << " link up");
        return;
    }
    NS_LOG_INFO("port " << index << " link down: " << port.queue.size() + port.networkControl.size()
                        << " queued frames lost");
    std::deque<Queued> lost;
    lost.swap(port.queue);
    lost.insert(lost.end(), port.networkControl.begin(), port.networkControl.end());
    port.networkControl.clear();
    port.queueBytes = 0;
    m_queueLengthTrace(index, 0);
    // The device forgot the PAUSE it had sent; so does the ingress.
    if (port.ingressPaused)
    {
        port.ingressPaused = false;
        m_pfcPauseTrace(index, false);
    }
    for (const Queued& queued : lost)
    {
        DropQueued(queued);
    }
}

void
EpsSwitch::DropQueued(const Queued& queued)
{
    uint32_t bytes = queued.frame->GetSize();
    m_bufferUsed -= bytes;
    m_ports[queued.ingress].ingressBytes -= bytes;
    Drop(queued.frame, queued.ingress, LINK_DOWN);
    CheckXon(queued.ingress);
}

bool
EpsSwitch::ShouldMark(const Port& port, uint64_t queueBytes)
{
    if (queueBytes <= port.ecnKmin)
    {
        return false;
    }
    if (queueBytes > port.ecnKmax)
    {
        return true;
    }
    // Only the ramp draws a random number, so runs below Kmin or above Kmax draw none.
    double probability =
        m_ecnPmax * double(queueBytes - port.ecnKmin) / double(port.ecnKmax - port.ecnKmin);
    return m_random->GetValue() < probability;
}

void
EpsSwitch::Drop(Ptr<const Packet> frame, uint32_t ingress, DropReason reason)
{
    NS_LOG_LOGIC("drop on ingress " << ingress << " reason " << reason);
    switch (reason)
    {
    case NO_ROUTE:
        ++m_counters.framesDroppedNoRoute;
        break;
    case BUFFER_FULL:
        ++m_counters.framesDroppedBufferFull;
        break;
    case EGRESS_THRESHOLD:
        ++m_counters.framesDroppedEgressThreshold;
        break;
    case LINK_DOWN:
        ++m_counters.framesDroppedLinkDown;
        break;
    }
    m_dropTrace(frame, ingress, reason);
}

void
EpsSwitch::CheckXoff(uint32_t ingress)
{
    Port& port = m_ports[ingress];
    if (m_pfcEnabled && !port.ingressPaused && port.ingressBytes > port.xoff)
    {
        NS_LOG_INFO("ingress " << ingress << " holds " << port.ingressBytes << " B: PAUSE");
        port.ingressPaused = true;
        ++m_counters.pausesSent;
        port.device->SendPause(true);
        m_pfcPauseTrace(ingress, true);
    }
}

void
EpsSwitch::CheckXon(uint32_t ingress)
{
    Port& port = m_ports[ingress];
    if (port.ingressPaused && port.ingressBytes <= port.xon)
    {
        NS_LOG_INFO("ingress " << ingress << " holds " << port.ingressBytes << " B: RESUME");
        port.ingressPaused = false;
        ++m_counters.resumesSent;
        port.device->SendPause(false);
        m_pfcPauseTrace(ingress, false);
    }
}

uint64_t
EpsSwitch::MaxFrameBytes(const Port& port)
{
    uint32_t mtu = port.device->GetMtu();
    if (Ptr<EpsNetDevice> peer = port.device->GetPeer())
    {
        mtu = std::max<uint32_t>(mtu, peer->GetMtu());
    }
    return mtu + EpsNetDevice::ETHERNET_HEADER_BYTES;
}

uint64_t
EpsSwitch::ComputeHeadroom(const Port& port) const
{
    Ptr<EpsNetDevice> peer = port.device->GetPeer();
    NS_ABORT_MSG_IF(!peer,
                    "EpsSwitch: PFC needs every port connected before the simulation starts");
    uint64_t bps =
        std::max(port.device->GetDataRate().GetBitRate(), peer->GetDataRate().GetBitRate());
    return PfcHeadroom(bps, port.device->GetEpsChannel()->GetDelay(), MaxFrameBytes(port));
}

uint64_t
EpsSwitch::PfcHeadroom(uint64_t bps, Time delay, uint64_t maxFrameBytes)
{
    NS_LOG_FUNCTION(bps << delay << maxFrameBytes);
    // Bytes still arriving after the PAUSE decision: the round trip of the cable at line
    // rate, the frame our transmitter is busy with (the PAUSE waits for it), the frame the
    // upstream is busy with when the PAUSE lands, and the PAUSE frame itself.
    static const unsigned __int128 ticksPerSecond = Seconds(1).GetTimeStep();
    unsigned __int128 bits = static_cast<unsigned __int128>(2 * delay.GetTimeStep()) * bps;
    auto roundTripBytes =
        static_cast<uint64_t>((bits + 8 * ticksPerSecond - 1) / (8 * ticksPerSecond));
    return roundTripBytes + 2 * maxFrameBytes + EpsNetDevice::PAUSE_FRAME_BYTES;
}

std::pair<uint64_t, uint64_t>
EpsSwitch::EcnThresholds(uint64_t kmin, uint64_t kmax, uint64_t bps)
{
    // HPCC's simulator (and SimAI's, which reuses it) scales the marking ramp with the link:
    // Kmin 100 KB and Kmax 400 KB per 25 Gb/s, so that the queue the ramp allows drains in
    // the same time at every rate (32 us and 128 us).
    auto derivedMin = static_cast<uint64_t>(std::llround(4e-6 * static_cast<double>(bps)));
    uint64_t derivedMax = 4 * derivedMin;
    if (kmin == 0 && kmax == 0)
    {
        return {derivedMin, derivedMax};
    }
    if (kmin == 0)
    {
        return {std::min(derivedMin, kmax), kmax};
    }
    if (kmax == 0)
    {
        return {kmin, std::max(derivedMax, kmin)};
    }
    return {kmin, kmax};
}

EpsSwitch::BufferSettings
EpsSwitch::DefaultSettings()
{
    TypeId tid = GetTypeId();
    BufferSettings s;
    s.bufferSize = AttributeDefault<UintegerValue>(tid, "BufferSize");
    s.dtAlpha = AttributeDefault<DoubleValue>(tid, "DtAlpha");
    s.ecnKmin = AttributeDefault<UintegerValue>(tid, "EcnKmin");
    s.ecnKmax = AttributeDefault<UintegerValue>(tid, "EcnKmax");
    s.pfcEnabled = AttributeDefault<BooleanValue>(tid, "PfcEnabled");
    s.pfcXoff = AttributeDefault<UintegerValue>(tid, "PfcXoff");
    s.pfcXon = AttributeDefault<UintegerValue>(tid, "PfcXon");
    return s;
}

namespace
{

/// The rules between the buffer's attributes alone (EpsSwitch::CheckBuffer).
std::string
CheckSettings(const EpsSwitch::BufferSettings& s)
{
    std::ostringstream error;
    if (s.ecnKmin != 0 && s.ecnKmax != 0 && s.ecnKmin > s.ecnKmax)
    {
        error << "EcnKmin (" << s.ecnKmin << " B) exceeds EcnKmax (" << s.ecnKmax << " B)";
    }
    else if (s.ecnKmin != 0 && s.ecnKmin >= s.bufferSize)
    {
        // The queue never holds more than the buffer: no frame would ever be marked.
        error << "EcnKmin (" << s.ecnKmin << " B) is not below BufferSize (" << s.bufferSize
              << " B): no frame would be marked";
    }
    else if (s.pfcEnabled && s.dtAlpha > 0)
    {
        // Admit applies the dynamic threshold to lossy switches only: it would be ignored.
        error << "DtAlpha (" << s.dtAlpha << ") applies with PFC off (PfcEnabled false)";
    }
    else if (!s.pfcEnabled && (s.pfcXoff != 0 || s.pfcXon != 0))
    {
        error << "PfcXoff and PfcXon apply with PFC on (PfcEnabled true)";
    }
    else if (s.pfcXoff > s.bufferSize)
    {
        error << "PfcXoff (" << s.pfcXoff << " B) exceeds BufferSize (" << s.bufferSize << " B)";
    }
    else if (s.pfcXon != 0 && s.pfcXoff != 0 && s.pfcXon >= s.pfcXoff)
    {
        error << "PfcXon (" << s.pfcXon << " B) must be below PfcXoff (" << s.pfcXoff << " B)";
    }
    return error.str();
}

} // namespace

std::string
EpsSwitch::CheckBuffer(const BufferSettings& s, std::vector<PfcPort>& ports)
{
    std::string settings = CheckSettings(s);
    if (!settings.empty())
    {
        return settings;
    }
    std::ostringstream error;
    for (const PfcPort& port : ports)
    {
        if (port.maxFrame > s.bufferSize)
        {
            error << "BufferSize (" << s.bufferSize << " B) cannot hold a " << port.maxFrame
                  << "-B frame";
            return error.str();
        }
    }
    if (!s.pfcEnabled || ports.empty())
    {
        return "";
    }
    uint64_t share = s.bufferSize / ports.size();
    unsigned __int128 reserved = 0; // up to 2^32 ports of up to 2^64 bytes each
    for (std::size_t i = 0; i < ports.size(); ++i)
    {
        PfcPort& port = ports[i];
        if (s.pfcXoff == 0 && share < port.headroom + port.maxFrame)
        {
            error << "BufferSize (" << s.bufferSize << " B) is too small for PFC on "
                  << ports.size() << " ports: port " << i << " needs " << port.headroom
                  << " B of headroom plus a " << port.maxFrame << "-B frame";
            return error.str();
        }
        port.xoff = s.pfcXoff != 0 ? s.pfcXoff : share - port.headroom;
        port.xon = s.pfcXon != 0                   ? s.pfcXon
                   : port.xoff > 2 * port.maxFrame ? port.xoff - 2 * port.maxFrame
                                                   : 0;
        if (port.xon >= port.xoff)
        {
            error << "PfcXon (" << port.xon << " B) must be below PfcXoff (" << port.xoff
                  << " B, BufferSize / " << ports.size() << " ports - " << port.headroom
                  << " B of headroom)";
            return error.str();
        }
        reserved += port.xoff + port.headroom;
    }
    if (reserved > s.bufferSize)
    {
        std::string need = reserved > UINT64_MAX ? "more than " + std::to_string(UINT64_MAX)
                                                 : std::to_string(static_cast<uint64_t>(reserved));
        error << "PFC cannot be lossless: the ports' PfcXoff plus headroom need " << need
              << " B but BufferSize is " << s.bufferSize << " B (lower PfcXoff, or 0 to derive it)";
    }
    return error.str();
}

void
EpsSwitch::Configure()
{
    NS_LOG_FUNCTION(this);
    BufferSettings
        settings{m_bufferSize, m_dtAlpha, m_ecnKmin, m_ecnKmax, m_pfcEnabled, m_pfcXoff, m_pfcXon};
    std::vector<PfcPort> plan(m_ports.size());
    for (std::size_t i = 0; i < m_ports.size(); ++i)
    {
        plan[i].maxFrame = MaxFrameBytes(m_ports[i]);
        // Headroom needs the peer: without PFC a port may stay unconnected.
        plan[i].headroom = m_pfcEnabled ? ComputeHeadroom(m_ports[i]) : 0;
    }
    std::string error = CheckBuffer(settings, plan);
    NS_ABORT_MSG_UNLESS(error.empty(), "EpsSwitch: " << error);
    for (std::size_t i = 0; i < m_ports.size(); ++i)
    {
        m_ports[i].headroom = plan[i].headroom;
        m_ports[i].xoff = plan[i].xoff;
        m_ports[i].xon = plan[i].xon;
        uint64_t bps = m_ports[i].device->GetDataRate().GetBitRate();
        std::tie(m_ports[i].ecnKmin, m_ports[i].ecnKmax) = EcnThresholds(m_ecnKmin, m_ecnKmax, bps);
    }
    Ptr<Node> node = GetObject<Node>();
    m_hashSeed = SplitMix64(m_ecmpSeed != 0 ? m_ecmpSeed : (node ? node->GetId() + 1 : 1));
    m_configured = true;
}

uint64_t
EpsSwitch::GetBufferUsed() const
{
    NS_LOG_FUNCTION(this);
    return m_bufferUsed;
}

uint64_t
EpsSwitch::GetQueueBytes(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "EpsSwitch: no port " << port);
    return m_ports[port].queueBytes;
}

uint64_t
EpsSwitch::GetIngressBytes(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "EpsSwitch: no port " << port);
    return m_ports[port].ingressBytes;
}

bool
EpsSwitch::IsIngressPaused(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "EpsSwitch: no port " << port);
    return m_ports[port].ingressPaused;
}

uint64_t
EpsSwitch::GetPfcXoff(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "EpsSwitch: no port " << port);
    if (!m_configured)
    {
        Configure();
    }
    return m_ports[port].xoff;
}

uint64_t
EpsSwitch::GetPfcXon(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "EpsSwitch: no port " << port);
    if (!m_configured)
    {
        Configure();
    }
    return m_ports[port].xon;
}

uint64_t
EpsSwitch::GetPfcHeadroom(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "EpsSwitch: no port " << port);
    if (!m_configured)
    {
        Configure();
    }
    return m_ports[port].headroom;
}

const EpsSwitchCounters&
EpsSwitch::GetCounters() const
{
    NS_LOG_FUNCTION(this);
    return m_counters;
}

int64_t
EpsSwitch::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_random->SetStream(stream);
    return 1;
}

} // namespace ns3

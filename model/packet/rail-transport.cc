/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-transport.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ecn-mark-tag.h"
#include "ns3/enum.h"
#include "ns3/eps-net-device.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/ocs-net-device.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailTransport");

NS_OBJECT_ENSURE_REGISTERED(RailTransport);

namespace
{
/// Bytes a frame adds to its payload on the wire: Ethernet header + RailTransportHeader.
constexpr uint32_t FRAME_OVERHEAD = RailTransportHeader::FRAME_OVERHEAD;

/// Key of a sending QP: local port, peer GPU, peer port.
uint64_t
QpKey(uint32_t port, uint32_t peer, uint32_t peerPort)
{
    return (static_cast<uint64_t>(peer) << 32) | (static_cast<uint64_t>(port) << 16) | peerPort;
}

/// \return the value \p key has in \p index, \p next if it had none (and then true).
template <typename Map, typename Key>
std::pair<uint32_t, bool>
Index(Map& index, const Key& key, uint32_t next)
{
    auto [it, fresh] = index.emplace(key, next);
    return {it->second, fresh};
}

/// Key of a receiving connection: source GPU and its qpn.
uint64_t
ConnectionKey(uint32_t sourceGpu, uint32_t qpn)
{
    return (static_cast<uint64_t>(sourceGpu) << 32) | qpn;
}

/// A well-mixed flow label, so switches spread connections evenly (deterministic).
uint32_t
FlowLabel(uint32_t gpu, uint32_t qpn, uint32_t peer)
{
    uint64_t x = (static_cast<uint64_t>(gpu) << 40) ^ (static_cast<uint64_t>(peer) << 20) ^ qpn;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return static_cast<uint32_t>(x);
}
} // namespace

TypeId
RailTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RailTransport")
            .SetParent<MessageTransport>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<RailTransport>()
            .AddAttribute("Mtu",
                          "Payload bytes per frame (RoCE's 4096 by default).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RailTransport::m_mtu),
                          MakeUintegerChecker<uint32_t>(1, 65000))
            .AddAttribute("ScaleUpMtu",
                          "Payload bytes per frame on scale-up (NVLink-domain) ports. NVLink "
                          "has no Ethernet MTU; larger frames model its transfers with fewer "
                          "events.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RailTransport::m_scaleUpMtu),
                          MakeUintegerChecker<uint32_t>(1, 65000))
            .AddAttribute("RealMtu",
                          "Payload of one real frame (RoCE's 4096). Frames above it (Mtu, "
                          "ScaleUpMtu) are coalesced: each stands for ceil(payload / RealMtu) "
                          "real frames and carries their headers as padding.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RailTransport::m_realMtu),
                          MakeUintegerChecker<uint32_t>(1, 65000))
            .AddAttribute("RelayChunk",
                          "PXN: a proxy spreads a forwarded message over its ports in chunks "
                          "of this many bytes (a multiple of Mtu is best).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RailTransport::m_relayChunk),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckInterval",
                          "Frames per cumulative ACK (the last frame of a part is always "
                          "acknowledged).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RailTransport::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Window",
                          "Most frames a QP may have unacknowledged.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RailTransport::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DeviceQueueFrames",
                          "Frames kept queued at each port's device, so it never idles. At "
                          "most 50: half the port queue (ns-3's 100 frames), the other half "
                          "for the acknowledgements sent meanwhile (a full queue drops them).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RailTransport::m_queueFrames),
                          MakeUintegerChecker<uint32_t>(1, 50))
            .AddAttribute("InitialPsn",
                          "PSN of the first frame of every connection, at both ends (RoCE "
                          "picks one per QP at connection setup). PSNs are 64-bit; tests "
                          "start them near 2^32 to show that they do not wrap there.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RailTransport::m_initialPsn),
                          MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 62))
            .AddAttribute("RetransmitTimeout",
                          "Time without acknowledgement progress before going back.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RailTransport::m_retransmitTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RetryCount",
                          "Timeouts in a row without acknowledgement progress after which a "
                          "QP's path counts as failed (RDMA's retry count; NCCL_IB_RETRY_CNT "
                          "is 7): its data moves to other ports, or waits for a fabric change.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RailTransport::m_retryCount),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Detour",
                          "Send what a failure stops around it, through other GPUs (see "
                          "RailDetour), when every port of the sender or of the peer on their "
                          "rail is down or Opus can give the pair no circuit; false: wait "
                          "for the repair.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RailTransport::m_detourOn),
                          MakeBooleanChecker())
            .AddAttribute("QpsPerConnection",
                          "Queue pairs a message to a peer is spread over on each port "
                          "(NCCL_IB_QPS_PER_CONNECTION), each with its own flow label, so "
                          "ECMP hashes them apart. Relayed (PXN) and detoured traffic uses one.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RailTransport::m_qpsPerConnection),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("Dcqcn",
                          "DCQCN rate control (reaction to CNPs, CNPs for ECN marks).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RailTransport::m_dcqcn),
                          MakeBooleanChecker())
            .AddAttribute("DcqcnProfile",
                          "DCQCN settings the other Dcqcn* attributes and CnpInterval start "
                          "from (each of them left at 0 takes the profile's value): cx7 "
                          "(NVIDIA ConnectX-6/7 firmware defaults), paper-40g (the DCQCN "
                          "paper's), pfc-only (no rate control: PFC alone).",
                          EnumValue(CX7),
                          MakeEnumAccessor(&RailTransport::m_dcqcnProfile),
                          MakeEnumChecker(CX7, "cx7", PAPER_40G, "paper-40g", PFC_ONLY, "pfc-only"))
            .AddAttribute("CnpInterval",
                          "Least time between two CNPs (min_time_between_cnps), counted per "
                          "receiving port (cx7) or per QP (paper-40g); 0: the profile's.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RailTransport::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DcqcnG",
                          "Gain g of DCQCN's alpha average (1 - dce_tcp_g / 1024); 0: the "
                          "profile's.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&RailTransport::m_dcqcnG),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("DcqcnAlphaPeriod",
                          "Period of DCQCN's alpha update (dce_tcp_rtt); 0: the profile's.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RailTransport::m_dcqcnAlphaPeriod),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DcqcnDecreasePeriod",
                          "Least time between two DCQCN rate cuts "
                          "(rate_reduce_monitor_period); 0: the profile's.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RailTransport::m_dcqcnDecreasePeriod),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DcqcnIncreaseTimer",
                          "DCQCN rate-increase timer T (rpg_time_reset); 0: the profile's.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RailTransport::m_dcqcnIncreaseTimer),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DcqcnByteCounter",
                          "Bytes sent between two DCQCN rate increases B (rpg_byte_reset); "
                          "0: the profile's.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RailTransport::m_dcqcnByteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("DcqcnRateAi",
                          "DCQCN additive increase R_AI (rpg_ai_rate); 0: the profile's.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RailTransport::m_dcqcnRateAi),
                          MakeDataRateChecker())
            .AddAttribute("DcqcnRateHai",
                          "DCQCN hyper increase R_HAI (rpg_hai_rate); 0: the profile's.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RailTransport::m_dcqcnRateHai),
                          MakeDataRateChecker())
            .AddAttribute("DcqcnMinRate",
                          "Floor of a DCQCN-throttled rate (rpg_min_rate); 0: the profile's.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RailTransport::m_dcqcnMinRate),
                          MakeDataRateChecker())
            .AddTraceSource("MessageSent",
                            "A message was acknowledged in full (peer, id, bytes).",
                            MakeTraceSourceAccessor(&RailTransport::m_messageSentTrace),
                            "ns3::RailTransport::MessageTracedCallback")
            .AddTraceSource("MessageReceived",
                            "A message arrived in full (source, id, bytes).",
                            MakeTraceSourceAccessor(&RailTransport::m_messageReceivedTrace),
                            "ns3::RailTransport::MessageTracedCallback")
            .AddTraceSource("Retransmit",
                            "A QP went back to an earlier PSN (qpn, psn).",
                            MakeTraceSourceAccessor(&RailTransport::m_retransmitTrace),
                            "ns3::RailTransport::RetransmitTracedCallback")
            .AddTraceSource("Rate",
                            "A QP's DCQCN rate after a CNP (qpn, bit/s).",
                            MakeTraceSourceAccessor(&RailTransport::m_rateTrace),
                            "ns3::RailTransport::RateTracedCallback")
            .AddTraceSource("CircuitWanted",
                            "Detoured data waits on an optical port for a circuit to a peer "
                            "that no working path reaches (port, peer GPU).",
                            MakeTraceSourceAccessor(&RailTransport::m_circuitWantedTrace),
                            "ns3::RailTransport::CircuitWantedTracedCallback");
    return tid;
}

RailTransport::RailTransport()
    : m_gpu(0),
      m_nextMessageId(1),
      m_mtu(4096),
      m_scaleUpMtu(4096),
      m_realMtu(4096),
      m_relayChunk(4096),
      m_ackInterval(16),
      m_window(4096),
      m_queueFrames(2),
      m_initialPsn(0),
      m_retryCount(7),
      m_detourOn(true),
      m_qpsPerConnection(1),
      m_dcqcn(false),
      m_dcqcnProfile(CX7),
      m_dcqcnG(0),
      m_dcqcnByteCounter(0)
{
    NS_LOG_FUNCTION(this);
}

RailTransport::~RailTransport()
{
    NS_LOG_FUNCTION(this);
}

void
RailTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& qp : m_qps)
    {
        qp.timeout.Cancel();
    }
    for (auto& port : m_ports)
    {
        port.wakeup.Cancel();
    }
    m_retryWaiting.Cancel();
    m_recheckParked.Cancel();
    m_holdDownEnd.Cancel();
    m_qps.clear();
    m_parked.clear();
    m_ports.clear();
    m_detour.reset();
    m_endpoints = nullptr;
    MessageTransport::DoDispose();
}

void
RailTransport::Setup(uint32_t gpu, Ptr<RailEndpoints> endpoints)
{
    NS_LOG_FUNCTION(this << gpu << endpoints);
    NS_ABORT_MSG_IF(m_endpoints, "RailTransport::Setup called twice");
    m_gpu = gpu;
    m_endpoints = endpoints;
    m_detour = std::make_unique<RailDetour>(endpoints);
    endpoints->AddChangeCallback(MakeCallback(&RailTransport::OnChangeElsewhere, this));
    const auto& devices = endpoints->GetPorts(gpu);
    for (uint32_t i = 0; i < devices.size(); ++i)
    {
        AddPort(devices[i], endpoints->GetPlane(gpu, i));
    }
}

void
RailTransport::AddPort(Ptr<NetDevice> device, uint32_t plane)
{
    uint32_t index = m_ports.size();
    Port port;
    port.device = device;
    port.optical = DynamicCast<OcsNetDevice>(device);
    port.plane = plane;
    port.mtu = m_endpoints->IsScaleUpPlane(plane) ? m_scaleUpMtu : m_mtu;
    port.rankInPlane = std::count_if(m_ports.begin(), m_ports.end(), [plane](const Port& p) {
        return p.plane == plane;
    });
    PointerValue queue;
    device->GetAttribute("TxQueue", queue);
    port.queue = queue.Get<Queue<Packet>>();
    NS_ABORT_MSG_UNLESS(port.queue, "RailTransport needs a device with a TxQueue");
    NS_ABORT_MSG_IF(port.mtu + RailTransportHeader::SIZE +
                            RailTransportHeader::CoalescedPadding(port.mtu, m_realMtu) >
                        device->GetMtu(),
                    "RailTransport frame payload " << port.mtu << " + " << RailTransportHeader::SIZE
                                                   << " header bytes exceeds the device MTU "
                                                   << device->GetMtu());
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    port.rateBps = rate.Get().GetBitRate();
    m_ports.push_back(port);
    port.queue->TraceConnectWithoutContext(
        "Dequeue",
        MakeCallback(&RailTransport::OnDequeue, this).Bind(index));
    device->AddLinkChangeCallback(MakeCallback(&RailTransport::OnCircuitChange, this).Bind(index));
    device->GetNode()->RegisterProtocolHandler(MakeCallback(&RailTransport::Receive, this),
                                               PROTOCOL,
                                               device);
}

uint32_t
RailTransport::GetGpu() const
{
    NS_LOG_FUNCTION(this);
    return m_gpu;
}

MessageTransportCounters
RailTransport::GetMessageCounters() const
{
    NS_LOG_FUNCTION(this);
    MessageTransportCounters counters;
    counters.messagesSent = m_counters.messagesSent;
    counters.messagesReceived = m_counters.messagesReceived;
    counters.payloadBytesDelivered = m_counters.payloadBytesDelivered;
    return counters;
}

const RailTransportCounters&
RailTransport::GetCounters() const
{
    NS_LOG_FUNCTION(this);
    return m_counters;
}

std::size_t
RailTransport::GetPendingMessageCount() const
{
    NS_LOG_FUNCTION(this);
    return m_outgoing.size();
}

uint64_t
RailTransport::Send(uint32_t peer, uint64_t bytes, SentCallback sent)
{
    NS_LOG_FUNCTION(this << peer << bytes);
    NS_ABORT_MSG_UNLESS(m_endpoints, "RailTransport::Send before Setup");
    NS_ABORT_MSG_IF(bytes == 0, "RailTransport::Send: a message has at least one byte");
    NS_ABORT_MSG_IF(peer == m_gpu || peer >= m_endpoints->GetGpuCount(),
                    "RailTransport::Send: bad peer GPU " << peer << " from GPU " << m_gpu);
    uint64_t id = m_nextMessageId++;
    m_outgoing[id] = Outgoing{0, sent, peer, bytes};
    if (DispatchOrDetour(id, peer, bytes))
    {
        return id;
    }
    if (PlaneRoutesTo(peer).empty())
    {
        uint32_t proxy = ProxyFor(peer);
        NS_ABORT_MSG_IF(proxy == NO_GPU,
                        "GPU " << m_gpu << " shares no plane with GPU " << peer
                               << " and no GPU of its scale-up domain is on the peer's rail");
        ++m_counters.messagesRelayed;
        Relay(id, proxy, peer, bytes);
        return id;
    }
    NS_LOG_INFO("GPU " << m_gpu << ": no circuit reaches GPU " << peer << " yet; message " << id
                       << " waits");
    m_waiting.push_back({id, peer, bytes, !FailedPortsTowards(peer).empty(), Simulator::Now()});
    return id;
}

int32_t
RailTransport::PeerPortVia(uint32_t port, uint32_t peer, bool holdDown) const
{
    const Port& p = m_ports[port];
    if (p.optical)
    {
        Ptr<OpticalCircuitSwitch> ocs = p.optical->GetSwitch();
        Ptr<OcsNetDevice> far = ocs ? ocs->GetCircuitEnd(p.optical->GetPort()) : nullptr;
        uint32_t gpu = 0;
        uint32_t index = 0;
        if (far && m_endpoints->Find(far->GetAddress(), gpu, index) && gpu == peer &&
            Counts(m_gpu, port, holdDown) && Counts(peer, index, holdDown))
        {
            return index;
        }
        return -1;
    }
    if (!Counts(m_gpu, port, holdDown))
    {
        return -1;
    }
    // A packet switch reaches every port of the plane. Port k talks to the peer's port k (k
    // modulo its ports). A port whose counterpart is down takes a live peer port that none
    // of this GPU's live ports talks to, or none: two ports sending into one would only
    // congest it, the peer's port being the bottleneck either way.
    std::vector<uint32_t> peerPorts = m_endpoints->GetPortsOnPlane(peer, p.plane);
    if (peerPorts.empty())
    {
        return -1; // the peer is not on this port's plane
    }
    auto counterpart = [&](uint32_t rank) { return peerPorts[rank % peerPorts.size()]; };
    std::vector<uint32_t> orphans; // this GPU's live ports on the plane whose counterpart is down
    std::set<uint32_t> taken;      // the peer's ports they talk to
    for (uint32_t q = 0; q < m_ports.size(); ++q)
    {
        if (m_ports[q].plane != p.plane || !Counts(m_gpu, q, holdDown))
        {
            continue;
        }
        uint32_t peerPort = counterpart(m_ports[q].rankInPlane);
        if (!Counts(peer, peerPort, holdDown))
        {
            orphans.push_back(q);
        }
        else if (q == port)
        {
            return peerPort;
        }
        else
        {
            taken.insert(peerPort);
        }
    }
    for (uint32_t q : orphans)
    {
        for (std::size_t j = 1; j < peerPorts.size(); ++j)
        {
            uint32_t peerPort = counterpart(m_ports[q].rankInPlane + j);
            if (Counts(peer, peerPort, holdDown) && taken.insert(peerPort).second)
            {
                if (q == port)
                {
                    return peerPort;
                }
                break;
            }
        }
    }
    return -1;
}

bool
RailTransport::Counts(uint32_t gpu, uint32_t index, bool holdDown) const
{
    return !m_endpoints->IsPortDown(gpu, index) ||
           (holdDown &&
            Simulator::Now() - m_endpoints->GetDownSince(gpu, index) < m_retransmitTimeout);
}

bool
RailTransport::PortFailed(uint32_t port) const
{
    return m_endpoints->IsPortDown(m_gpu, port);
}

bool
RailTransport::IsBroken(const QueuePair& qp) const
{
    return qp.gaveUp || PathDown(qp);
}

bool
RailTransport::GaveUpOn(uint32_t port, uint32_t peer, uint32_t peerPort) const
{
    bool optical = static_cast<bool>(m_ports[port].optical);
    uint64_t key = QpKey(port, peer, optical ? 0xffff : peerPort);
    auto found = m_qpIndex.find(key);
    if (found != m_qpIndex.end() && m_qps[found->second].gaveUp)
    {
        return true;
    }
    // The other lanes of the path (QpsPerConnection) share its fate.
    for (auto lane = m_laneIndex.lower_bound({key, 1});
         lane != m_laneIndex.end() && lane->first.first == key;
         ++lane)
    {
        if (m_qps[lane->second].gaveUp)
        {
            return true;
        }
    }
    return false;
}

bool
RailTransport::PathDown(const QueuePair& qp) const
{
    return PortFailed(qp.port) || m_endpoints->IsPortDown(qp.peer, qp.peerPort);
}

std::vector<std::pair<uint32_t, uint32_t>>
RailTransport::RoutesTo(uint32_t peer, bool holdDown) const
{
    std::vector<std::pair<uint32_t, uint32_t>> routes;
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        int32_t peerPort = PeerPortVia(port, peer, holdDown);
        if (peerPort >= 0)
        {
            routes.emplace_back(port, peerPort);
        }
    }
    return routes;
}

std::vector<std::pair<uint32_t, uint32_t>>
RailTransport::PlaneRoutesTo(uint32_t peer) const
{
    std::vector<std::pair<uint32_t, uint32_t>> routes;
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        std::vector<uint32_t> peerPorts = m_endpoints->GetPortsOnPlane(peer, m_ports[port].plane);
        if (!peerPorts.empty())
        {
            routes.emplace_back(port, peerPorts[m_ports[port].rankInPlane % peerPorts.size()]);
        }
    }
    return routes;
}

uint32_t
RailTransport::ProxyFor(uint32_t peer)
{
    auto known = m_proxies.find(peer);
    if (known != m_proxies.end())
    {
        return known->second;
    }
    // PXN: the GPU of this GPU's scale-up domain that sits on one of the peer's rails (the
    // lowest-numbered one, for determinism). The first hop is the scale-up link, the
    // second the peer's rail, as NCCL does.
    uint32_t proxy = NO_GPU;
    for (uint32_t gpu = 0; gpu < m_endpoints->GetGpuCount() && proxy == NO_GPU; ++gpu)
    {
        if (gpu != m_gpu && gpu != peer && SharesPlane(gpu, m_gpu, true) &&
            SharesPlane(gpu, peer, false))
        {
            proxy = gpu;
        }
    }
    m_proxies[peer] = proxy;
    return proxy;
}

uint32_t
RailTransport::ProxyBefore(uint32_t peer, const std::set<uint32_t>& avoid) const
{
    for (uint32_t gpu = 0; gpu < m_endpoints->GetGpuCount(); ++gpu)
    {
        if (gpu != m_gpu && gpu != peer && avoid.count(gpu) == 0 &&
            SharesPlane(gpu, m_gpu, false) && SharesPlane(gpu, peer, true))
        {
            return gpu;
        }
    }
    return NO_GPU;
}

bool
RailTransport::SharesPlane(uint32_t gpu, uint32_t other, bool scaleUp) const
{
    const auto& ports = m_endpoints->GetPorts(other);
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        uint32_t plane = m_endpoints->GetPlane(other, i);
        if (m_endpoints->IsScaleUpPlane(plane) == scaleUp &&
            !m_endpoints->GetPortsOnPlane(gpu, plane).empty())
        {
            return true;
        }
    }
    return false;
}

bool
RailTransport::Dispatch(uint64_t id, uint32_t peer, uint64_t bytes)
{
    // A part for a port that failed less than a RetransmitTimeout ago waits for it there.
    auto routes = RoutesTo(peer, true);
    if (routes.empty())
    {
        return false;
    }
    Part part{PartRole::OWN, m_gpu, id, bytes, NO_GPU, bytes, bytes, 0, 0, 0};
    m_outgoing[id].partsLeft = QueueParts(routes, peer, part, m_qpsPerConnection).size();
    return true;
}

void
RailTransport::Relay(uint64_t id, uint32_t proxy, uint32_t peer, uint64_t bytes)
{
    NS_LOG_INFO("GPU " << m_gpu << ": message " << id << " to GPU " << peer << " via GPU " << proxy
                       << " (PXN)");
    SendThrough(id, proxy, peer, bytes);
    m_outgoing[id].partsLeft = 1; // completed by the proxy when the peer has everything
}

void
RailTransport::SendThrough(uint64_t id, uint32_t hop, uint32_t peer, uint64_t bytes)
{
    auto routes = RoutesTo(hop, true);
    if (routes.empty())
    {
        routes = PlaneRoutesTo(hop); // sent once the circuit to the proxy is up
    }
    Part part{PartRole::RELAY, m_gpu, id, bytes, peer, bytes, bytes, 0, 0, 0};
    QueueParts(routes, hop, part);
}

bool
RailTransport::DispatchOrDetour(uint64_t id, uint32_t peer, uint64_t bytes)
{
    if (Dispatch(id, peer, bytes))
    {
        m_stoppedSince.erase(peer);
        return true;
    }
    uint32_t hop = DetourHop(peer);
    if (hop == NO_GPU && m_detourOn && MustGoAround(peer))
    {
        WantCircuitAround(peer); // it waits for the circuit (RetryWaiting)
    }
    if (hop == NO_GPU || !StoppedLongEnough(peer))
    {
        return false;
    }
    SendAround(hop, peer, Part{PartRole::OWN, m_gpu, id, bytes, NO_GPU, bytes, bytes, 0, 0, 0});
    m_outgoing[id].partsLeft = 1;
    return true;
}

bool
RailTransport::RailDeadTowards(uint32_t peer) const
{
    std::map<uint32_t, std::pair<bool, bool>> live; // shared plane -> (mine, peer's) live
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        const std::vector<uint32_t> peerPorts =
            m_endpoints->GetPortsOnPlane(peer, m_ports[port].plane);
        if (peerPorts.empty())
        {
            continue;
        }
        auto& [mine, theirs] = live[m_ports[port].plane];
        mine = mine || !PortFailed(port);
        for (uint32_t index : peerPorts)
        {
            theirs = theirs || !m_endpoints->IsPortDown(peer, index);
        }
    }
    return !live.empty() && std::all_of(live.begin(), live.end(), [](const auto& plane) {
        return !plane.second.first || !plane.second.second;
    });
}

bool
RailTransport::MustGoAround(uint32_t peer) const
{
    return m_detourPeers.count(peer) > 0 || RailDeadTowards(peer);
}

uint32_t
RailTransport::DetourHop(uint32_t peer, const std::set<uint32_t>& avoid) const
{
    if (!m_detourOn || !MustGoAround(peer))
    {
        return NO_GPU;
    }
    uint32_t hop = m_detour->NextHop(m_gpu, peer, avoid);
    return hop == peer ? NO_GPU : hop; // one hop apart: the direct path will do
}

bool
RailTransport::StoppedLongEnough(uint32_t peer)
{
    Time since =
        m_stoppedSince.emplace(peer, std::min(Simulator::Now(), FailedSince(peer))).first->second;
    Time left = since + m_retransmitTimeout - Simulator::Now();
    if (!left.IsStrictlyPositive())
    {
        return true;
    }
    if (!m_holdDownEnd.IsRunning() || Simulator::GetDelayLeft(m_holdDownEnd) > left)
    {
        m_holdDownEnd.Cancel();
        m_holdDownEnd = Simulator::Schedule(left, &RailTransport::RetryWaiting, this);
    }
    return false;
}

Time
RailTransport::FailedSince(uint32_t peer) const
{
    Time since = Time::Max();
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        std::vector<uint32_t> peerPorts = m_endpoints->GetPortsOnPlane(peer, m_ports[port].plane);
        if (!peerPorts.empty())
        {
            since = std::min(since, m_endpoints->GetDownSince(m_gpu, port));
        }
        for (uint32_t index : peerPorts)
        {
            since = std::min(since, m_endpoints->GetDownSince(peer, index));
        }
    }
    return since;
}

void
RailTransport::ForgetReachedPeers()
{
    for (auto it = m_stoppedSince.begin(); it != m_stoppedSince.end();)
    {
        it = RoutesTo(it->first).empty() ? std::next(it) : m_stoppedSince.erase(it);
    }
}

void
RailTransport::SendAround(uint32_t hop, uint32_t to, const Part& rest)
{
    uint64_t id = m_nextMessageId++;
    NS_LOG_INFO("GPU " << m_gpu << ": " << rest.bytes << " B of message " << rest.messageId
                       << " of GPU " << rest.origin << " to GPU " << to << " detour through GPU "
                       << hop << " (message " << id << ")");
    ++m_counters.detours;
    m_counters.bytesDetoured += rest.bytes;
    m_pieces[id] = rest;
    TransportOf(to)->ExpectDetour(m_gpu, id, rest);
    SendThrough(id, hop, to, rest.bytes);
}

void
RailTransport::SetDetour(uint32_t peer, bool detour)
{
    NS_LOG_FUNCTION(this << peer << detour);
    if (detour ? !m_detourPeers.insert(peer).second : m_detourPeers.erase(peer) == 0)
    {
        return;
    }
    if (detour)
    {
        // The pair relays from now, or from the failure that made it relay; what waits for
        // the peer may go once that has lasted long enough.
        m_stoppedSince.emplace(peer, std::min(Simulator::Now(), FailedSince(peer)));
        NotifyFabricChange();
    }
}

void
RailTransport::ExpectDetour(uint32_t source, uint64_t id, const Part& part)
{
    m_detoured[{source, id}] =
        DetourPiece{{part.origin, part.messageId}, part.messageBytes, part.relayTo, part.bytes};
}

bool
RailTransport::IsDetour(uint32_t source, uint64_t id) const
{
    return m_detoured.count({source, id}) > 0;
}

Ptr<RailTransport>
RailTransport::TransportOf(uint32_t gpu) const
{
    return m_endpoints->GetPorts(gpu)[0]->GetNode()->GetObject<RailTransport>();
}

std::vector<uint32_t>
RailTransport::QueueParts(const std::vector<std::pair<uint32_t, uint32_t>>& routes,
                          uint32_t peer,
                          Part part,
                          uint32_t lanes)
{
    // Shares proportional to the port rates, each split evenly over the lanes; the rounding
    // remainders go to the first.
    double totalRate = 0;
    for (const auto& route : routes)
    {
        totalRate += m_ports[route.first].rateBps;
    }
    std::vector<uint64_t> shares;
    uint64_t assigned = 0;
    for (const auto& route : routes)
    {
        shares.push_back(
            static_cast<uint64_t>(part.bytes * (m_ports[route.first].rateBps / totalRate)));
        assigned += shares.back();
    }
    shares[0] += part.bytes - assigned;
    std::vector<uint32_t> qpns;
    for (std::size_t i = 0; i < routes.size() * lanes; ++i)
    {
        std::size_t route = i / lanes;
        auto lane = static_cast<uint32_t>(i % lanes);
        uint64_t bytes = shares[route] / lanes + (lane == 0 ? shares[route] % lanes : 0);
        if (bytes == 0)
        {
            continue;
        }
        QueuePair& qp = GetQueuePair(routes[route].first, peer, routes[route].second, lane);
        Part slice = part;
        slice.bytes = bytes;
        slice.available = std::min(part.available, bytes);
        slice.firstPsn = qp.endPsn;
        slice.mtu = m_ports[routes[route].first].mtu;
        slice.frames = (bytes + slice.mtu - 1) / slice.mtu;
        qp.parts.push_back(slice);
        qp.endPsn += slice.frames;
        qpns.push_back(qp.qpn);
        if (PathDown(qp) || WaitsForCircuit(qp))
        {
            Stall(qp); // queued on a failed path or one without a circuit (a proxy's share)
        }
        Schedule(qp);
        Pump(qp.port);
    }
    return qpns;
}

RailTransport::QueuePair&
RailTransport::GetQueuePair(uint32_t port, uint32_t peer, uint32_t peerPort, uint32_t lane)
{
    // On an optical port the peer port is wherever the circuit leads, and it may change
    // while the QP lives (OnCircuitChange re-points it): the key leaves it out.
    bool optical = static_cast<bool>(m_ports[port].optical);
    uint64_t key = QpKey(port, peer, optical ? 0xffff : peerPort);
    auto next = static_cast<uint32_t>(m_qps.size());
    auto [qpn, fresh] = lane == 0 ? Index(m_qpIndex, key, next)
                                  : Index(m_laneIndex, std::make_pair(key, lane), next);
    if (fresh)
    {
        QueuePair qp;
        qp.qpn = m_qps.size();
        qp.port = port;
        qp.peer = peer;
        qp.peerPort = peerPort;
        qp.peerAddress = m_endpoints->GetPorts(peer)[peerPort]->GetAddress();
        qp.label = FlowLabel(m_gpu, qp.qpn, peer);
        qp.nextPsn = qp.ackedPsn = qp.endPsn = qp.highestSent = m_initialPsn;
        qp.rate = DcqcnRateController(GetDcqcnProfile(m_ports[port].rateBps).reactionPoint);
        m_qps.push_back(qp);
        UpdateReachability(m_qps.back());
    }
    return m_qps[qpn];
}

void
RailTransport::UpdateReachability(QueuePair& qp)
{
    if (!m_ports[qp.port].optical)
    {
        // A packet switch joins the QP's two ports while both are up, whichever peer port
        // new messages would pick (the preferred one may have come back since).
        qp.reachable = !PortFailed(qp.port) && !m_endpoints->IsPortDown(qp.peer, qp.peerPort);
        return;
    }
    int32_t peerPort = PeerPortVia(qp.port, qp.peer);
    if (peerPort >= 0)
    {
        qp.peerPort = peerPort;
        qp.peerAddress = m_endpoints->GetPorts(qp.peer)[peerPort]->GetAddress();
    }
    qp.reachable = peerPort >= 0;
}

void
RailTransport::Schedule(QueuePair& qp)
{
    if (!qp.scheduled && CanSend(qp))
    {
        qp.scheduled = true;
        m_ports[qp.port].ready.push_back(qp.qpn);
    }
}

RailTransport::Part*
RailTransport::PartOf(QueuePair& qp, uint64_t psn)
{
    for (auto& part : qp.parts)
    {
        if (psn < part.firstPsn + part.frames)
        {
            return psn >= part.firstPsn ? &part : nullptr;
        }
    }
    return nullptr;
}

uint32_t
RailTransport::FramePayload(const Part& part, uint64_t psn) const
{
    uint64_t offset = (psn - part.firstPsn) * part.mtu;
    return static_cast<uint32_t>(std::min<uint64_t>(part.mtu, part.bytes - offset));
}

bool
RailTransport::CanSend(QueuePair& qp)
{
    if (!qp.reachable || qp.gaveUp || qp.nextPsn >= qp.endPsn ||
        qp.nextPsn - qp.ackedPsn >= m_window)
    {
        return false;
    }
    // A forwarding proxy sends only bytes it has received.
    const Part* part = PartOf(qp, qp.nextPsn);
    uint64_t end = (qp.nextPsn - part->firstPsn) * part->mtu + FramePayload(*part, qp.nextPsn);
    return end <= part->available;
}

void
RailTransport::Pump(uint32_t index)
{
    Port& port = m_ports[index];
    if (port.pumping)
    {
        return; // the outer loop keeps filling
    }
    port.pumping = true;
    Time wake = Time::Max();
    while (port.queue->GetNPackets() < m_queueFrames)
    {
        QueuePair* qp = NextReady(port, wake);
        if (!qp)
        {
            break;
        }
        SendData(*qp);
    }
    port.pumping = false;
    if (wake != Time::Max() && (!port.wakeup.IsRunning() ||
                                Simulator::GetDelayLeft(port.wakeup) > wake - Simulator::Now()))
    {
        port.wakeup.Cancel();
        port.wakeup =
            Simulator::Schedule(wake - Simulator::Now(), &RailTransport::Pump, this, index);
    }
}

RailTransport::QueuePair*
RailTransport::NextReady(Port& port, Time& wake)
{
    Time now = Simulator::Now();
    for (std::size_t tries = port.ready.size(); tries > 0; --tries)
    {
        QueuePair& qp = m_qps[port.ready.front()];
        port.ready.pop_front();
        if (!CanSend(qp))
        {
            qp.scheduled = false; // rescheduled by an ACK, NACK, timeout, circuit or data
            continue;
        }
        port.ready.push_back(qp.qpn);
        Time paced = PacedUntil(qp);
        if (paced > now)
        {
            // A timer increase may come first and let the frame go sooner.
            wake = std::min({wake, paced, qp.rate.GetNextIncrease(now)});
            continue;
        }
        return &qp;
    }
    return nullptr;
}

void
RailTransport::SendData(QueuePair& qp)
{
    uint64_t psn = qp.nextPsn++;
    Part* part = PartOf(qp, psn);
    NS_ABORT_MSG_UNLESS(part, "PSN " << psn << " belongs to no part");
    uint32_t payload = FramePayload(*part, psn);
    RailTransportHeader header;
    header.label = qp.label;
    header.sourceGpu = m_gpu;
    header.qpn = qp.qpn;
    header.kind = RailTransportHeader::DATA;
    // The last frame of a part asks for an ACK, and so does the last one a forwarding proxy
    // has for now (its sender would otherwise time out waiting for bytes still to come), and
    // one that fills the window (as an RDMA NIC asks for one: a window below AckInterval
    // would otherwise wait for a timeout).
    uint64_t end = (psn - part->firstPsn) * part->mtu + payload;
    header.last = psn + 1 == part->firstPsn + part->frames || end == part->available ||
                  psn + 1 - qp.ackedPsn >= m_window;
    header.psn = psn;
    header.origin = part->origin;
    header.relayTo = part->relayTo;
    header.messageId = part->messageId;
    header.messageBytes = part->messageBytes;
    header.padding = RailTransportHeader::CoalescedPadding(payload, m_realMtu);
    Ptr<Packet> frame = Create<Packet>(payload + header.padding);
    frame->AddHeader(header);

    ++m_counters.dataFrames;
    if (psn < qp.highestSent)
    {
        ++m_counters.retransmittedFrames;
    }
    else
    {
        qp.highestSent = psn + 1;
        m_counters.payloadBytesSent += payload;
    }
    if (UsesDcqcn())
    {
        Time now = Simulator::Now();
        uint32_t wire = payload + header.padding + FRAME_OVERHEAD;
        qp.rate.OnSent(wire, now);
        // Pace only below the line rate: at line rate the device itself is the pacer.
        qp.paceFrom = now;
        qp.paceBits = qp.rate.IsThrottled() ? wire * 8.0 : 0;
    }
    if (qp.deadline == Time::Max())
    {
        ArmTimeout(qp);
    }
    m_ports[qp.port].device->Send(frame, qp.peerAddress, PROTOCOL);
}

void
RailTransport::SendControl(uint32_t port,
                           const Address& to,
                           RailTransportHeader::Kind kind,
                           uint32_t qpn,
                           uint32_t label,
                           uint64_t psn)
{
    RailTransportHeader header;
    header.label = label;
    header.sourceGpu = m_gpu;
    header.qpn = qpn;
    header.kind = kind;
    header.psn = psn;
    Ptr<Packet> frame = Create<Packet>(0);
    frame->AddHeader(header);
    if (kind == RailTransportHeader::CNP)
    {
        // RoCE sends CNPs as network control (strict priority, never paused): feedback must
        // not wait behind the data of a congested queue on the way back.
        SocketPriorityTag priority;
        priority.SetPriority(EpsNetDevice::NETWORK_CONTROL_PRIORITY);
        frame->AddPacketTag(priority);
    }
    m_ports[port].device->Send(frame, to, PROTOCOL);
}

void
RailTransport::ArmTimeout(QueuePair& qp)
{
    // ACKs come every AckInterval frames: a QP sending slowly (a DCQCN cut, or a share of a
    // busy port) must not time out while it is still sending those frames.
    const Port& port = m_ports[qp.port];
    double rate = port.rateBps / std::max<std::size_t>(1, port.ready.size());
    if (UsesDcqcn())
    {
        rate = std::min(rate, qp.rate.GetRate(Simulator::Now()));
    }
    Time ackGap = Seconds(m_ackInterval * (port.mtu + FRAME_OVERHEAD) * 8.0 / rate);
    ArmTimeoutIn(qp, m_retransmitTimeout + ackGap);
}

void
RailTransport::ArmTimeoutIn(QueuePair& qp, Time delay)
{
    qp.deadline = Simulator::Now() + delay;
    // An event already due at or before the new deadline will find it and wait on.
    if (!qp.timeout.IsRunning() ||
        static_cast<int64_t>(qp.timeout.GetTs()) > qp.deadline.GetTimeStep())
    {
        qp.timeout.Cancel();
        qp.timeout = Simulator::Schedule(delay, &RailTransport::OnTimeout, this, qp.qpn);
    }
}

void
RailTransport::DisarmTimeout(QueuePair& qp)
{
    qp.deadline = Time::Max();
}

void
RailTransport::OnTimeout(uint32_t qpn)
{
    QueuePair& qp = m_qps[qpn];
    if (qp.deadline == Time::Max())
    {
        return; // turned off since this event was scheduled
    }
    if (Simulator::Now() < qp.deadline)
    {
        // ACKs moved the deadline since this event was scheduled.
        qp.timeout = Simulator::Schedule(qp.deadline - Simulator::Now(),
                                         &RailTransport::OnTimeout,
                                         this,
                                         qpn);
        return;
    }
    qp.deadline = Time::Max();
    m_lastActivity = Simulator::Now();
    UpdateReachability(qp);
    if (!qp.parts.empty() && (IsBroken(qp) || WaitsForCircuit(qp)))
    {
        Stop(qp);
        ++m_counters.timeouts;
        qp.nextPsn = qp.ackedPsn;
        if (!MoveParts(qp))
        {
            NS_LOG_INFO("GPU " << m_gpu << " qp " << qpn
                               << ": path down, no other port reaches GPU " << qp.peer
                               << "; waiting");
        }
        return;
    }
    if (qp.ackedPsn == qp.nextPsn)
    {
        return; // nothing in flight
    }
    if (++qp.retries > m_retryCount)
    {
        NS_LOG_INFO("GPU " << m_gpu << " qp " << qpn << ": no progress after " << m_retryCount
                           << " retries; the path counts as failed");
        qp.gaveUp = true;
        Stop(qp);
        ++m_counters.timeouts;
        qp.nextPsn = qp.ackedPsn;
        MoveParts(qp);
        return;
    }
    ++m_counters.timeouts;
    NS_LOG_INFO("GPU " << m_gpu << " qp " << qpn << ": timeout, back to PSN " << qp.ackedPsn);
    m_retransmitTrace(qpn, qp.ackedPsn);
    qp.nextPsn = qp.ackedPsn;
    ArmTimeout(qp);
    Schedule(qp);
    Pump(qp.port);
}

void
RailTransport::OnDequeue(uint32_t port, Ptr<const Packet> frame)
{
    Pump(port);
}

void
RailTransport::OnCircuitChange(uint32_t port)
{
    for (auto& qp : m_qps)
    {
        // A QP a failure stopped, or one waiting for a circuit, may find another port now.
        if (qp.port == port || qp.hit || WaitsForCircuit(qp))
        {
            Recheck(qp);
        }
    }
    ForgetReachedPeers();
    ScheduleRetryWaiting();
    Pump(port);
}

void
RailTransport::NotifyFabricChange(bool restored)
{
    NS_LOG_FUNCTION(this << restored);
    for (auto& qp : m_qps)
    {
        Recheck(qp);
        if (restored && qp.lostBelow > qp.ackedPsn && qp.reachable && !IsBroken(qp))
        {
            // Frames a failure destroyed inside the network can get through again: sent
            // again now, not after a timeout (a repaired part is used again at once).
            qp.nextPsn = qp.ackedPsn;
            Schedule(qp);
        }
    }
    ForgetReachedPeers();
    ScheduleRetryWaiting();
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        Pump(port);
    }
}

void
RailTransport::Recheck(QueuePair& qp)
{
    qp.gaveUp = false; // something changed: the path gets another chance
    m_parked.erase(qp.qpn);
    qp.retries = 0;
    UpdateReachability(qp);
    bool broken = IsBroken(qp);
    if (!broken && WaitsForCircuit(qp) && OtherPortReaches(qp))
    {
        // Its data was queued here while no port reached the peer (a failure, or a pair
        // that relayed), and the circuits came back on other ports, maybe never on this one.
        MoveParts(qp);
        return;
    }
    if (!qp.parts.empty() && broken)
    {
        Stop(qp); // a failure stops its data
    }
    else if (qp.hit && !broken && (qp.reachable || FailedPortsTowards(qp.peer).empty()))
    {
        // Its path is back: what it sent since its last acknowledgement may have been lost
        // with the failure, so it goes back there now rather than after a timeout.
        qp.hit = false;
        qp.nextPsn = qp.ackedPsn;
        Recovered(qp.stoppedAt);
    }
    Schedule(qp);
    // A broken path with data gets one timeout to show it (nothing may be in flight).
    if (!qp.parts.empty() && qp.deadline == Time::Max() && broken)
    {
        ArmTimeout(qp);
    }
    else if (!broken && WaitsForCircuit(qp))
    {
        // Its circuit went (a reconfiguration), maybe for good: after a change, a QP
        // stopped before gets its rest of the hold-down again (one try per change).
        qp.hit ? ArmHoldDown(qp) : Stall(qp);
    }
}

bool
RailTransport::WaitsForCircuit(const QueuePair& qp) const
{
    return m_ports[qp.port].optical && !qp.reachable && !qp.parts.empty();
}

bool
RailTransport::OtherPortReaches(const QueuePair& qp) const
{
    auto routes = RoutesTo(qp.peer);
    return std::any_of(routes.begin(), routes.end(), [&qp](const auto& route) {
        return route.first != qp.port;
    });
}

void
RailTransport::ScheduleRetryWaiting()
{
    // After every change of this instant: the parts of a fabric that fail or come back
    // together (a server's cables, a whole OCS) do so one by one, and a message dispatched
    // after the first would take only that one's ports.
    if (!m_waiting.empty() && !m_retryWaiting.IsRunning())
    {
        m_retryWaiting = Simulator::ScheduleNow(&RailTransport::RetryWaiting, this);
    }
}

void
RailTransport::OnChangeElsewhere()
{
    if (!m_endpoints || m_recheckParked.IsRunning())
    {
        return;
    }
    // Every port change of the fabric comes here: only the QPs that wait are looked at.
    bool parked = std::any_of(m_parked.begin(), m_parked.end(), [this](uint32_t qpn) {
        return !m_qps[qpn].parts.empty();
    });
    if (parked || !m_waiting.empty())
    {
        // After every change of this instant (see ScheduleRetryWaiting).
        m_recheckParked = Simulator::ScheduleNow(&RailTransport::RecheckParked, this);
    }
}

void
RailTransport::RecheckParked()
{
    std::set<uint32_t> parked;
    parked.swap(m_parked);
    for (uint32_t qpn : parked)
    {
        if (m_qps[qpn].parts.empty())
        {
            m_parked.insert(qpn); // its data went since; it stays parked until a Recheck
        }
        else
        {
            Recheck(m_qps[qpn]);
        }
    }
    ScheduleRetryWaiting();
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        Pump(port);
    }
}

void
RailTransport::RetryWaiting()
{
    // Messages that found no port before may find one now.
    std::deque<Waiting> waiting;
    waiting.swap(m_waiting);
    for (Waiting w : waiting)
    {
        bool dispatched = DispatchOrDetour(w.id, w.peer, w.bytes);
        if (w.failed && (dispatched || FailedPortsTowards(w.peer).empty()))
        {
            // A failure kept it until now: what it waits for from now (a circuit) is not
            // the failure's doing.
            w.failed = false;
            Recovered(w.since);
        }
        if (!dispatched)
        {
            m_waiting.push_back(w);
        }
    }
}

uint64_t
RailTransport::ResetConnection(uint32_t sourceGpu, uint32_t qpn, uint64_t nextPsn)
{
    NS_LOG_FUNCTION(this << sourceGpu << qpn << nextPsn);
    auto [found, fresh] = m_receiving.try_emplace(ConnectionKey(sourceGpu, qpn));
    ReceiveState& state = found->second;
    uint64_t expected = fresh ? m_initialPsn : state.expectedPsn;
    state.expectedPsn = nextPsn;
    state.nackSent = false;
    state.unacked = 0;
    return expected;
}

bool
RailTransport::MoveParts(QueuePair& qp)
{
    // Not back to this path, nor to one that gave up too (until the fabric changes: a rail
    // split in two would have the data move between its ports for ever).
    auto routes = RoutesTo(qp.peer);
    bool optical = static_cast<bool>(m_ports[qp.port].optical);
    routes.erase(std::remove_if(routes.begin(),
                                routes.end(),
                                [&qp, optical, this](const std::pair<uint32_t, uint32_t>& route) {
                                    return (route.first == qp.port &&
                                            (optical || route.second == qp.peerPort)) ||
                                           GaveUpOn(route.first, qp.peer, route.second);
                                }),
                 routes.end());
    bool detours = std::any_of(qp.parts.begin(), qp.parts.end(), [&](const Part& part) {
        return RerouteHop(qp, part) != NO_GPU;
    });
    if (routes.empty() && !detours)
    {
        Park(qp);
        return false;
    }
    // Reconnecting, the receiver says how far it got: parts it has complete are done, the
    // rest moves; frames still on the old path arrive as duplicates and are dropped.
    uint64_t received = TransportOf(qp.peer)->ResetConnection(m_gpu, qp.qpn, qp.endPsn);
    Acknowledge(qp, received);
    std::deque<Part> left;
    left.swap(qp.parts);
    if (qp.hit)
    {
        Recovered(qp.stoppedAt);
    }
    if (qp.lostBelow > 0)
    {
        Recovered(qp.lostAt);
    }
    Time stopped = qp.stoppedAt;
    qp.hit = false;
    qp.lostBelow = 0;
    qp.ackedPsn = qp.nextPsn = qp.highestSent = qp.endPsn;
    DisarmTimeout(qp);
    NS_LOG_INFO("GPU " << m_gpu << " qp " << qp.qpn << ": path to GPU " << qp.peer << " down; "
                       << left.size() << " parts move to " << routes.size() << " ports"
                       << (routes.empty() ? " or detour" : ""));
    for (Part part : left)
    {
        uint64_t done = received > part.firstPsn
                            ? std::min(received - part.firstPsn, part.frames) * part.mtu
                            : 0;
        part.bytes -= done;
        part.offset += done;
        part.available = part.available > done ? part.available - done : 0;
        if (!routes.empty())
        {
            ++m_counters.partsMoved;
            m_counters.bytesMoved += part.bytes;
            Requeue(routes, qp.peer, part);
        }
        else if (uint32_t hop = RerouteHop(qp, part); hop != NO_GPU)
        {
            // A detour message of its own takes the rest to the same GPU another way.
            SendAround(hop, qp.peer, part);
        }
        else
        {
            // It waits on this QP for the repair (a PXN proxy's share), or for the rest of
            // its bytes (a detour hop's share: see Forwarded).
            qp.hit = true; // still stopped, since then
            qp.stoppedAt = stopped;
            Requeue({{qp.port, qp.peerPort}}, qp.peer, part);
            Park(qp);
        }
    }
    return true;
}

void
RailTransport::Park(QueuePair& qp)
{
    m_parked.insert(qp.qpn); // until a change (OnChangeElsewhere)
    // Detoured data waiting for a circuit that no communication asked for (a later one
    // took it) says so: Opus may light it, as no path around works.
    bool detoured = std::any_of(qp.parts.begin(), qp.parts.end(), [this](const Part& part) {
        return IsDetourPart(part);
    });
    if (detoured && WaitsForCircuit(qp) && !PortFailed(qp.port))
    {
        m_circuitWantedTrace(qp.port, qp.peer);
    }
    else if (!qp.parts.empty() && PathDown(qp))
    {
        WantCircuitAround(qp.peer);
    }
}

void
RailTransport::WantCircuitAround(uint32_t peer)
{
    // Its data goes around a failed port, and no lit circuit makes a path. Nothing else
    // would ask for one: Opus plans the job's communications (the pair relays, "where lit
    // circuits make a path"), and CircuitWanted above is for a live port of this GPU. So
    // the PXN path asks: a GPU of this scale-up domain and one of the peer's, on a rail
    // where both have live ports (the first such, for determinism), ask Opus to join them.
    if (!m_detourOn || m_detour->NextHop(m_gpu, peer) != NO_GPU)
    {
        return;
    }
    for (uint32_t hop = 0; hop < m_endpoints->GetGpuCount(); ++hop)
    {
        if (hop == m_gpu || hop == peer || !SharesPlane(hop, m_gpu, true))
        {
            continue;
        }
        const auto& ports = m_endpoints->GetPorts(hop);
        for (uint32_t index = 0; index < ports.size(); ++index)
        {
            if (!DynamicCast<OcsNetDevice>(ports[index]) || m_endpoints->IsPortDown(hop, index))
            {
                continue;
            }
            for (const auto& [far, farIndex] :
                 m_endpoints->GetPlaneMembers(m_endpoints->GetPlane(hop, index)))
            {
                if (far != peer && far != m_gpu && SharesPlane(far, peer, true) &&
                    !m_endpoints->IsPortDown(far, farIndex))
                {
                    NS_LOG_INFO("GPU " << m_gpu << ": no path around to GPU " << peer << "; GPUs "
                                       << hop << " and " << far << " ask for a circuit");
                    TransportOf(hop)->m_circuitWantedTrace(index, far);
                    return;
                }
            }
        }
    }
}

bool
RailTransport::IsDetourPart(const Part& part) const
{
    switch (part.role)
    {
    case PartRole::OWN:
        return false;
    case PartRole::RELAY:
        return m_pieces.count(part.messageId) > 0;
    case PartRole::FORWARD: {
        auto forward = m_forwards.find({part.origin, part.messageId});
        return forward != m_forwards.end() && forward->second.detour;
    }
    }
    return false;
}

uint32_t
RailTransport::RerouteHop(const QueuePair& qp, const Part& part) const
{
    bool detour = false; // the part belongs to a detour already
    switch (part.role)
    {
    case PartRole::OWN:
        return DetourHop(qp.peer);
    case PartRole::RELAY:
        detour = m_pieces.count(part.messageId) > 0;
        break;
    case PartRole::FORWARD:
        // A proxy or hop whose share cannot go on goes around to the same next GPU, once it
        // has all of it (bytes still to come would have nowhere to go: see Forwarded).
        detour = true;
        if (part.available < part.bytes)
        {
            return NO_GPU;
        }
        break;
    }
    if (!detour)
    {
        return DetourHop(qp.peer); // PXN: as its own parts would
    }
    uint32_t hop = m_detour->NextHop(m_gpu, qp.peer);
    return hop == qp.peer ? NO_GPU : hop;
}

Time
RailTransport::GetLastRecovery() const
{
    NS_LOG_FUNCTION(this);
    return m_lastRecovery;
}

void
RailTransport::NoteFrameLost(uint32_t qpn, uint64_t below)
{
    NS_LOG_FUNCTION(this << qpn << below);
    if (qpn < m_qps.size())
    {
        QueuePair& qp = m_qps[qpn];
        if (below > qp.ackedPsn)
        {
            qp.lostAt = qp.lostBelow == 0 ? Simulator::Now() : qp.lostAt;
            qp.lostBelow = std::max(qp.lostBelow, below);
        }
    }
}

void
RailTransport::CatchFrom(Time failure)
{
    NS_LOG_FUNCTION(this << failure);
    m_caughtFrom = failure;
}

void
RailTransport::Stop(QueuePair& qp)
{
    if (!qp.hit)
    {
        qp.hit = true;
        qp.stoppedAt = Simulator::Now();
    }
}

void
RailTransport::Stall(QueuePair& qp)
{
    if (qp.hit)
    {
        // Already stopped, but an ACK of its last frame in flight may have turned its timer
        // off: the parts queued now must still move when the hold-down ends.
        ArmHoldDown(qp);
        return;
    }
    // Stopped since the failure struck, if a port towards the peer is down: one
    // RetransmitTimeout of that, as for any failure, before the data goes another way.
    qp.hit = true;
    qp.stoppedAt = std::min(Simulator::Now(), FailedSince(qp.peer));
    ArmHoldDown(qp);
}

void
RailTransport::ArmHoldDown(QueuePair& qp)
{
    if (qp.deadline == Time::Max())
    {
        ArmTimeoutIn(qp, std::max(Time(0), qp.stoppedAt + m_retransmitTimeout - Simulator::Now()));
    }
}

void
RailTransport::Recovered(Time stoppedAt)
{
    // Traffic stopped long after the failure struck found it in place and went around it,
    // or waited for its repair: the penalty shows that, not the recovery.
    if (stoppedAt >= m_caughtFrom && stoppedAt - m_caughtFrom <= m_retransmitTimeout)
    {
        m_lastRecovery = Simulator::Now();
    }
}

Time
RailTransport::GetLastActivity() const
{
    NS_LOG_FUNCTION(this);
    return m_lastActivity;
}

std::set<std::string>
RailTransport::FailedPortsTowards(uint32_t peer) const
{
    std::set<std::string> down; // sorted and once each, for a stable report
    auto name = [](uint32_t gpu, uint32_t k) {
        return "gpu" + std::to_string(gpu) + ".port" + std::to_string(k);
    };
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        std::vector<uint32_t> peerPorts = m_endpoints->GetPortsOnPlane(peer, m_ports[port].plane);
        if (!peerPorts.empty() && PortFailed(port))
        {
            down.insert(name(m_gpu, m_ports[port].rankInPlane));
        }
        for (uint32_t k = 0; k < peerPorts.size(); ++k)
        {
            if (m_endpoints->IsPortDown(peer, peerPorts[k]))
            {
                down.insert(name(peer, k));
            }
        }
    }
    return down;
}

std::string
RailTransport::DescribeBlockage(uint32_t peer, bool gaveUp) const
{
    std::set<std::string> down = FailedPortsTowards(peer);
    if (down.empty())
    {
        return gaveUp ? "no acknowledgement after " + std::to_string(m_retryCount) +
                            " retransmission timeouts (a failure inside the network)"
                      : "no circuit reaches GPU " + std::to_string(peer);
    }
    std::string text;
    for (const std::string& port : down)
    {
        text += (text.empty() ? "" : ", ") + port;
    }
    bool around = m_detourOn && MustGoAround(peer);
    return "port" + std::string(down.size() > 1 ? "s " : " ") + text + " down" +
           (around ? "; no working path around them" : "");
}

std::vector<std::string>
RailTransport::DescribeWaiting() const
{
    NS_LOG_FUNCTION(this);
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> waiting; // peer -> (parts, bytes)
    std::set<uint32_t> gaveUp;                                 // peers of QPs that gave up
    for (const QueuePair& qp : m_qps)
    {
        if (!qp.parts.empty() && IsBroken(qp))
        {
            for (const Part& part : qp.parts)
            {
                ++waiting[qp.peer].first;
                waiting[qp.peer].second += part.bytes;
            }
            if (qp.gaveUp)
            {
                gaveUp.insert(qp.peer);
            }
        }
    }
    for (const Waiting& w : m_waiting)
    {
        ++waiting[w.peer].first;
        waiting[w.peer].second += w.bytes;
    }
    std::vector<std::string> lines;
    for (const auto& [peer, load] : waiting)
    {
        lines.push_back("GPU " + std::to_string(m_gpu) + " -> GPU " + std::to_string(peer) + ": " +
                        std::to_string(load.first) + " transfer" + (load.first > 1 ? "s" : "") +
                        " (" + std::to_string(load.second) +
                        " B) wait: " + DescribeBlockage(peer, gaveUp.count(peer) > 0));
    }
    return lines;
}

void
RailTransport::Requeue(const std::vector<std::pair<uint32_t, uint32_t>>& routes,
                       uint32_t peer,
                       const Part& rest)
{
    switch (rest.role)
    {
    case PartRole::OWN:
        m_outgoing[rest.messageId].partsLeft += QueueParts(routes, peer, rest).size() - 1;
        break;
    case PartRole::RELAY:
        QueueParts(routes, peer, rest); // still completed by the proxy
        break;
    case PartRole::FORWARD: {
        // A forwarded share stays one part: its bytes become available in order.
        auto forward = m_forwards.find({rest.origin, rest.messageId});
        NS_ABORT_MSG_IF(forward == m_forwards.end(), "moving an unknown forwarded message");
        forward->second.qpns[rest.slot] = QueueParts({routes[0]}, peer, rest)[0];
        break;
    }
    }
}

void
RailTransport::Receive(Ptr<NetDevice> device,
                       Ptr<const Packet> frame,
                       uint16_t protocol,
                       const Address& from,
                       const Address& to,
                       NetDevice::PacketType type)
{
    m_lastActivity = Simulator::Now();
    // Peeked, not removed: removing would need a copy of the frame (it is const), and
    // nothing reads the payload.
    RailTransportHeader header;
    uint32_t headerBytes = frame->PeekHeader(header);
    switch (header.kind)
    {
    case RailTransportHeader::DATA: {
        uint32_t port = 0;
        while (m_ports[port].device != device)
        {
            ++port;
        }
        EcnMarkTag mark;
        ReceiveData(port,
                    from,
                    header,
                    frame->GetSize() - headerBytes - header.padding,
                    frame->PeekPacketTag(mark));
        break;
    }
    case RailTransportHeader::ACK:
        ReceiveAck(header);
        break;
    case RailTransportHeader::NACK:
        ReceiveNack(header);
        break;
    case RailTransportHeader::CNP:
        ReceiveCnp(header);
        break;
    }
}

void
RailTransport::ReceiveData(uint32_t port,
                           const Address& from,
                           const RailTransportHeader& header,
                           uint32_t payload,
                           bool marked)
{
    auto [found, fresh] = m_receiving.try_emplace(ConnectionKey(header.sourceGpu, header.qpn));
    ReceiveState& state = found->second;
    if (fresh)
    {
        state.expectedPsn = m_initialPsn;
    }
    if (marked && UsesDcqcn())
    {
        SendCnp(port, from, header, state);
    }
    if (header.psn != state.expectedPsn)
    {
        if (header.psn > state.expectedPsn && !state.nackSent)
        {
            state.nackSent = true;
            ++m_counters.nacksSent;
            SendControl(port,
                        from,
                        RailTransportHeader::NACK,
                        header.qpn,
                        header.label,
                        state.expectedPsn);
        }
        else if (header.psn < state.expectedPsn)
        {
            // A duplicate: our ACK may have been lost; repeat it.
            SendControl(port,
                        from,
                        RailTransportHeader::ACK,
                        header.qpn,
                        header.label,
                        state.expectedPsn);
        }
        return;
    }
    ++state.expectedPsn;
    state.nackSent = false;
    m_counters.payloadBytesReceived += payload;
    if (header.last || ++state.unacked >= m_ackInterval)
    {
        state.unacked = 0;
        SendControl(port,
                    from,
                    RailTransportHeader::ACK,
                    header.qpn,
                    header.label,
                    state.expectedPsn);
    }
    if (header.relayTo != NO_GPU && header.relayTo != m_gpu)
    {
        Forwarded(header, payload);
    }
    else
    {
        Deliver(header, payload);
    }
}

void
RailTransport::Deliver(const RailTransportHeader& header, uint32_t payload)
{
    MessageKey key{header.origin, header.messageId};
    uint64_t total = header.messageBytes;
    // A detour message's bytes count towards the message it carries a piece of, which may
    // itself be a detour message (a detour that went around a second failure).
    for (auto piece = m_detoured.find(key); piece != m_detoured.end(); piece = m_detoured.find(key))
    {
        MessageKey detour = key;
        DetourPiece carried = piece->second;
        key = carried.message;
        total = carried.messageBytes;
        NS_ASSERT_MSG(payload <= carried.left, "a detour got more bytes than it has");
        piece->second.left -= payload;
        if (piece->second.left == 0)
        {
            // Every byte of the detour is here, whichever way it came: its sender is told
            // (instantly, as PXN's completion flag).
            m_detoured.erase(piece);
            m_passed.erase(detour);
            TransportOf(detour.first)->Complete(detour.second);
        }
        if (carried.relayTo != NO_GPU)
        {
            // Bytes of a message this GPU forwards, come around a failure.
            RailTransportHeader forwarded = header;
            forwarded.origin = key.first;
            forwarded.messageId = key.second;
            forwarded.messageBytes = total;
            forwarded.relayTo = carried.relayTo;
            Forwarded(forwarded, payload);
            return;
        }
    }
    uint64_t& arrived = m_arrived[key];
    arrived += payload;
    m_counters.payloadBytesDelivered += payload;
    NS_ASSERT_MSG(arrived <= total,
                  "message " << key.second << " from GPU " << key.first
                             << " got more bytes than it has");
    if (arrived < total)
    {
        return;
    }
    m_arrived.erase(key);
    m_passed.erase(key);
    ++m_counters.messagesReceived;
    m_messageReceivedTrace(key.first, key.second, total);
    NotifyReceived(key.first, key.second, total);
}

void
RailTransport::Forwarded(const RailTransportHeader& header, uint32_t payload)
{
    MessageKey key{header.origin, header.messageId};
    auto [it, fresh] = m_forwards.emplace(key, Forward());
    Forward& forward = it->second;
    if (fresh)
    {
        ++m_counters.messagesForwarded;
        Ptr<RailTransport> destination = TransportOf(header.relayTo);
        forward.detour = destination->IsDetour(header.origin, header.messageId);
        std::set<uint32_t>& passed = destination->PassedThrough(key);
        passed.insert(m_gpu); // the forwarders so far (the origin may forward it once)
        // Past its PXN proxy a message is detouring, whether or not it left as a detour.
        uint32_t next = ForwardHop(header.relayTo, forward.detour || passed.size() > 1, passed);
        auto routes = RoutesTo(next, true);
        if (routes.empty())
        {
            routes = PlaneRoutesTo(next); // sent once a circuit is up or a part repaired
        }
        NS_ABORT_MSG_IF(routes.empty(),
                        "GPU " << m_gpu << " cannot forward to GPU " << header.relayTo);
        // Each port forwards whole chunks, round robin: chunk j goes to port j mod n.
        uint64_t chunks = (header.messageBytes + m_relayChunk - 1) / m_relayChunk;
        for (uint32_t i = 0; i < routes.size() && i < chunks; ++i)
        {
            uint64_t mine = 0;
            for (uint64_t j = i; j < chunks; j += routes.size())
            {
                mine += std::min<uint64_t>(m_relayChunk, header.messageBytes - j * m_relayChunk);
            }
            Part part{PartRole::FORWARD,
                      header.origin,
                      header.messageId,
                      header.messageBytes,
                      next == header.relayTo ? NO_GPU : header.relayTo,
                      mine,
                      0,
                      0,
                      0,
                      0,
                      static_cast<uint32_t>(forward.qpns.size()),
                      0};
            auto qpns = QueueParts({routes[i]}, next, part);
            forward.qpns.insert(forward.qpns.end(), qpns.begin(), qpns.end());
        }
        forward.partsLeft = forward.qpns.size();
    }
    forward.arrived += payload;
    // Bytes available to part i: its share of the whole chunks arrived, plus the chunk in
    // progress if it is that part's.
    uint64_t n = forward.qpns.size();
    uint64_t full = forward.arrived / m_relayChunk;
    uint64_t partial = forward.arrived % m_relayChunk;
    for (uint64_t i = 0; i < n; ++i)
    {
        uint64_t chunksOfI = full / n + (i < full % n ? 1 : 0);
        uint64_t available = chunksOfI * m_relayChunk + (full % n == i ? partial : 0);
        QueuePair& qp = m_qps[forward.qpns[i]];
        for (auto& part : qp.parts)
        {
            if (part.role == PartRole::FORWARD && part.origin == header.origin &&
                part.messageId == header.messageId && part.slot == i)
            {
                uint64_t ours = available > part.offset ? available - part.offset : 0;
                bool arriving = part.available < part.bytes;
                part.available = std::min(ours, part.bytes);
                if (qp.hit && arriving && part.available == part.bytes)
                {
                    Recheck(qp); // a share of a broken path may go around the failure now
                }
            }
        }
        Schedule(qp);
        Pump(qp.port);
    }
}

uint32_t
RailTransport::ForwardHop(uint32_t to, bool detour, const std::set<uint32_t>& passed)
{
    if (!RoutesTo(to, true).empty())
    {
        return to;
    }
    // A detour follows the working paths; PXN waits for its circuit unless its rail is dead,
    // or its pair relays, for one RetransmitTimeout (as new messages do). Neither goes back
    // through a GPU it passed: paths change under a message (a port that flaps), and a
    // message that came back would be forwarded twice by one GPU.
    uint32_t hop = detour                  ? m_detour->NextHop(m_gpu, to, passed)
                   : StoppedLongEnough(to) ? DetourHop(to, passed)
                                           : NO_GPU;
    if (hop == NO_GPU && PlaneRoutesTo(to).empty())
    {
        hop = m_detour->NextHop(m_gpu, to, passed);          // off the destination's rail: any path
        hop = hop == NO_GPU ? ProxyBefore(to, passed) : hop; // none: wait on the way there
    }
    if (hop == NO_GPU && PlaneRoutesTo(to).empty())
    {
        hop = ProxyBefore(to, {}); // somewhere to wait, even one it passed, beats nowhere
    }
    return hop == NO_GPU ? to : hop;
}

std::set<uint32_t>&
RailTransport::PassedThrough(const MessageKey& key)
{
    return m_passed[key];
}

void
RailTransport::Acknowledge(QueuePair& qp, uint64_t psn)
{
    if (psn <= qp.ackedPsn)
    {
        return;
    }
    qp.ackedPsn = psn;
    qp.retries = 0;
    qp.gaveUp = false;
    if (qp.lostBelow > 0 && psn >= qp.lostBelow)
    {
        qp.lostBelow = 0; // what a failure destroyed is through now
        Recovered(qp.lostAt);
    }
    qp.nextPsn = std::max(qp.nextPsn, psn);
    while (!qp.parts.empty() && qp.parts.front().firstPsn + qp.parts.front().frames <= psn)
    {
        Part part = qp.parts.front();
        qp.parts.pop_front();
        PartDone(part);
    }
    if (qp.ackedPsn == qp.nextPsn)
    {
        DisarmTimeout(qp);
        if (qp.hit && !qp.parts.empty() && IsBroken(qp))
        {
            // The last frame in flight got through, but the data behind it is stopped by a
            // failure: it still moves when the hold-down ends.
            ArmHoldDown(qp);
        }
    }
    else
    {
        ArmTimeout(qp);
    }
    Schedule(qp);
    Pump(qp.port);
}

void
RailTransport::PartDone(const Part& part)
{
    switch (part.role)
    {
    case PartRole::OWN: {
        auto message = m_outgoing.find(part.messageId);
        NS_ABORT_MSG_IF(message == m_outgoing.end(), "unknown message " << part.messageId);
        if (--message->second.partsLeft == 0)
        {
            Complete(part.messageId);
        }
        break;
    }
    case PartRole::RELAY:
        break; // the proxy completes it
    case PartRole::FORWARD: {
        auto forward = m_forwards.find({part.origin, part.messageId});
        NS_ABORT_MSG_IF(forward == m_forwards.end(), "unknown forwarded message");
        if (--forward->second.partsLeft == 0)
        {
            bool detour = forward->second.detour;
            m_forwards.erase(forward);
            // The last hop of PXN tells the origin (a detour's destination does). The
            // completion notice travels back over the scale-up domain in NCCL (a flag in GPU
            // memory); it is modelled as instantaneous.
            if (part.relayTo == NO_GPU && !detour)
            {
                TransportOf(part.origin)->Complete(part.messageId);
            }
        }
        break;
    }
    }
}

void
RailTransport::Complete(uint64_t id)
{
    auto piece = m_pieces.find(id);
    if (piece != m_pieces.end())
    {
        // A detour arrived: it counts as the part it replaced.
        Part replaced = piece->second;
        m_pieces.erase(piece);
        PartDone(replaced);
        return;
    }
    auto message = m_outgoing.find(id);
    NS_ABORT_MSG_IF(message == m_outgoing.end(), "unknown message " << id);
    Outgoing done = message->second;
    m_outgoing.erase(message);
    ++m_counters.messagesSent;
    m_messageSentTrace(done.peer, id, done.bytes);
    if (!done.sent.IsNull())
    {
        done.sent(id);
    }
}

void
RailTransport::ReceiveAck(const RailTransportHeader& header)
{
    NS_ABORT_MSG_IF(header.qpn >= m_qps.size(), "ACK for unknown qp " << header.qpn);
    Acknowledge(m_qps[header.qpn], header.psn);
}

void
RailTransport::ReceiveNack(const RailTransportHeader& header)
{
    NS_ABORT_MSG_IF(header.qpn >= m_qps.size(), "NACK for unknown qp " << header.qpn);
    QueuePair& qp = m_qps[header.qpn];
    Acknowledge(qp, header.psn);
    if (header.psn >= qp.ackedPsn && header.psn < qp.nextPsn)
    {
        NS_LOG_INFO("GPU " << m_gpu << " qp " << qp.qpn << ": NACK, back to PSN " << header.psn);
        m_retransmitTrace(qp.qpn, header.psn);
        qp.nextPsn = header.psn;
        Schedule(qp);
        Pump(qp.port);
    }
}

void
RailTransport::SendCnp(uint32_t port,
                       const Address& from,
                       const RailTransportHeader& header,
                       ReceiveState& state)
{
    // The notification point: ConnectX sends at most one CNP per interval from each port,
    // whichever QP's marked frame comes first; the DCQCN paper, one per flow.
    DcqcnProfile profile = GetDcqcnProfile(m_ports[port].rateBps);
    Time& last = profile.cnpIntervalPerPort ? m_ports[port].lastCnp : state.lastCnp;
    if (Simulator::Now() - last < profile.cnpInterval)
    {
        return;
    }
    last = Simulator::Now();
    ++m_counters.cnpsSent;
    SendControl(port, from, RailTransportHeader::CNP, header.qpn, header.label, header.psn);
}

Time
RailTransport::PacedUntil(QueuePair& qp)
{
    if (qp.paceBits == 0)
    {
        return Time(0);
    }
    // A rate limiter, as the NIC's: the last frame's bits are paid at the rate of now, so
    // a rate that rose since it left lets the next one go sooner (a QP cut to the floor
    // would otherwise wait out the floor's gap after its rate came back).
    return qp.paceFrom + Seconds(qp.paceBits / qp.rate.GetRate(Simulator::Now()));
}

bool
RailTransport::UsesDcqcn() const
{
    return m_dcqcn && m_dcqcnProfile != PFC_ONLY;
}

DcqcnProfile
RailTransport::GetDcqcnProfile(double lineRateBps) const
{
    NS_LOG_FUNCTION(this << lineRateBps);
    DcqcnProfile profile =
        DcqcnProfile::Get(m_dcqcnProfile == PAPER_40G ? "paper-40g" : "cx7", lineRateBps);
    // Every attribute left at 0 keeps the profile's value.
    DcqcnParameters& rp = profile.reactionPoint;
    auto override = [](auto& value, auto attribute) {
        if (attribute != decltype(attribute)(0))
        {
            value = attribute;
        }
    };
    override(profile.cnpInterval, m_cnpInterval);
    override(rp.g, m_dcqcnG);
    override(rp.alphaPeriod, m_dcqcnAlphaPeriod);
    override(rp.decreasePeriod, m_dcqcnDecreasePeriod);
    override(rp.increaseTimer, m_dcqcnIncreaseTimer);
    override(rp.byteCounter, m_dcqcnByteCounter);
    override(rp.additiveIncreaseBps, static_cast<double>(m_dcqcnRateAi.GetBitRate()));
    override(rp.hyperIncreaseBps, static_cast<double>(m_dcqcnRateHai.GetBitRate()));
    override(rp.minRateBps, static_cast<double>(m_dcqcnMinRate.GetBitRate()));
    return profile;
}

void
RailTransport::ReceiveCnp(const RailTransportHeader& header)
{
    NS_ABORT_MSG_IF(header.qpn >= m_qps.size(), "CNP for unknown qp " << header.qpn);
    ++m_counters.cnpsReceived;
    if (!UsesDcqcn())
    {
        return;
    }
    QueuePair& qp = m_qps[header.qpn];
    qp.rate.OnCnp(Simulator::Now());
    m_rateTrace(qp.qpn, qp.rate.GetRate(Simulator::Now()));
}

} // namespace ns3

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
#include "ns3/rail-failover.h"
#include "ns3/rail-receiver.h"
#include "ns3/rail-relay.h"
#include "ns3/rail-sender.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailTransport");

NS_OBJECT_ENSURE_REGISTERED(RailTransport);

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
    m_receiver = std::make_unique<RailReceiver>(*this);
    m_failover = std::make_unique<RailFailover>(*this);
    m_sender = std::make_unique<RailSender>(*this);
    m_relay = std::make_unique<RailRelay>(*this);
}

RailTransport::~RailTransport()
{
    NS_LOG_FUNCTION(this);
}

void
RailTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& qp : m_sender->m_qps)
    {
        qp.timeout.Cancel();
    }
    for (auto& port : m_ports)
    {
        port.wakeup.Cancel();
    }
    m_retryWaiting.Cancel();
    m_failover->m_recheckParked.Cancel();
    m_failover->m_holdDownEnd.Cancel();
    m_sender->m_qps.clear();
    m_failover->m_parked.clear();
    m_ports.clear();
    m_failover->m_detour.reset();
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
    m_failover->m_detour = std::make_unique<RailDetour>(endpoints);
    endpoints->AddChangeCallback(MakeCallback(&RailFailover::OnChangeElsewhere, m_failover.get()));
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
        MakeCallback(&RailSender::OnDequeue, m_sender.get()).Bind(index));
    device->AddLinkChangeCallback(MakeCallback(&RailTransport::OnCircuitChange, this).Bind(index));
    device->GetNode()->RegisterProtocolHandler(
        MakeCallback(&RailReceiver::Receive, m_receiver.get()),
        PROTOCOL,
        device);
}

uint32_t
RailTransport::GetGpu() const
{
    NS_LOG_FUNCTION(this);
    return m_gpu;
}

RailTransportCounters
RailTransport::GetCounters() const
{
    NS_LOG_FUNCTION(this);
    RailTransportCounters counters = m_counters;
    MessageTransportCounters base = GetMessageCounters();
    counters.messagesSent = base.messagesSent;
    counters.messagesReceived = base.messagesReceived;
    counters.payloadBytesDelivered = base.payloadBytesDelivered;
    return counters;
}

void
RailTransport::DoSend(uint64_t id, uint32_t peer, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << id << peer << bytes);
    NS_ABORT_MSG_UNLESS(m_endpoints, "RailTransport::Send before Setup");
    NS_ABORT_MSG_IF(peer == m_gpu || peer >= m_endpoints->GetGpuCount(),
                    "RailTransport::Send: bad peer GPU " << peer << " from GPU " << m_gpu);
    m_outgoing[id] = Outgoing{0};
    if (m_failover->DispatchOrDetour(id, peer, bytes))
    {
        return;
    }
    if (PlaneRoutesTo(peer).empty())
    {
        uint32_t proxy = m_relay->ProxyFor(peer);
        NS_ABORT_MSG_IF(proxy == NO_GPU,
                        "GPU " << m_gpu << " shares no plane with GPU " << peer
                               << " and no GPU of its scale-up domain is on the peer's rail");
        ++m_counters.messagesRelayed;
        m_relay->Relay(id, proxy, peer, bytes);
        return;
    }
    NS_LOG_INFO("GPU " << m_gpu << ": no circuit reaches GPU " << peer << " yet; message " << id
                       << " waits");
    m_waiting.push_back(
        {id, peer, bytes, !m_failover->FailedPortsTowards(peer).empty(), Simulator::Now()});
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
    m_outgoing[id].partsLeft = m_sender->QueueParts(routes, peer, part, m_qpsPerConnection).size();
    return true;
}

void
RailTransport::SetDetour(uint32_t peer, bool detour)
{
    m_failover->SetDetour(peer, detour);
}

Ptr<RailTransport>
RailTransport::TransportOf(uint32_t gpu) const
{
    return m_endpoints->GetPorts(gpu)[0]->GetNode()->GetObject<RailTransport>();
}

void
RailTransport::OnCircuitChange(uint32_t port)
{
    for (auto& qp : m_sender->m_qps)
    {
        // A QP a failure stopped, or one waiting for a circuit, may find another port now.
        if (qp.port == port || qp.hit || m_failover->WaitsForCircuit(qp))
        {
            Recheck(qp);
        }
    }
    m_failover->ForgetReachedPeers();
    ScheduleRetryWaiting();
    m_sender->Pump(port);
}

void
RailTransport::NotifyFabricChange(bool restored)
{
    NS_LOG_FUNCTION(this << restored);
    for (auto& qp : m_sender->m_qps)
    {
        Recheck(qp);
        if (restored && qp.lostBelow > qp.ackedPsn && qp.reachable && !m_failover->IsBroken(qp))
        {
            // Frames a failure destroyed inside the network can get through again: sent
            // again now, not after a timeout (a repaired part is used again at once).
            qp.nextPsn = qp.ackedPsn;
            m_sender->Schedule(qp);
        }
    }
    m_failover->ForgetReachedPeers();
    ScheduleRetryWaiting();
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        m_sender->Pump(port);
    }
}

void
RailTransport::Recheck(QueuePair& qp)
{
    qp.gaveUp = false; // something changed: the path gets another chance
    m_failover->m_parked.erase(qp.qpn);
    qp.retries = 0;
    m_sender->UpdateReachability(qp);
    bool broken = m_failover->IsBroken(qp);
    if (!broken && m_failover->WaitsForCircuit(qp) && m_failover->OtherPortReaches(qp))
    {
        // Its data was queued here while no port reached the peer (a failure, or a pair
        // that relayed), and the circuits came back on other ports, maybe never on this one.
        m_failover->MoveParts(qp);
        return;
    }
    // A QP stopped before has had its hold-down (or part of it) already: its data goes on
    // (another port, a detour, or parked again) when that ends, not a whole timeout later.
    bool stoppedBefore = qp.hit;
    if (!qp.parts.empty() && broken)
    {
        m_failover->Stop(qp); // a failure stops its data
    }
    else if (qp.hit && !broken && (qp.reachable || m_failover->FailedPortsTowards(qp.peer).empty()))
    {
        // Its path is back: what it sent since its last acknowledgement may have been lost
        // with the failure, so it goes back there now rather than after a timeout.
        qp.hit = false;
        qp.nextPsn = qp.ackedPsn;
        m_failover->Recovered(qp.stoppedAt);
    }
    m_sender->Schedule(qp);
    // A broken path with data gets one timeout to show it (nothing may be in flight).
    if (!qp.parts.empty() && qp.deadline == Time::Max() && broken)
    {
        stoppedBefore ? m_failover->ArmHoldDown(qp) : m_sender->ArmTimeout(qp);
    }
    else if (!broken && m_failover->WaitsForCircuit(qp))
    {
        // Its circuit went (a reconfiguration), maybe for good: after a change, a QP
        // stopped before gets its rest of the hold-down again (one try per change).
        qp.hit ? m_failover->ArmHoldDown(qp) : m_failover->Stall(qp);
    }
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
RailTransport::RetryWaiting()
{
    // Messages that found no port before may find one now.
    std::deque<Waiting> waiting;
    waiting.swap(m_waiting);
    for (Waiting w : waiting)
    {
        bool dispatched = m_failover->DispatchOrDetour(w.id, w.peer, w.bytes);
        if (w.failed && (dispatched || m_failover->FailedPortsTowards(w.peer).empty()))
        {
            // A failure kept it until now: what it waits for from now (a circuit) is not
            // the failure's doing.
            w.failed = false;
            m_failover->Recovered(w.since);
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
    return m_receiver->ResetConnection(sourceGpu, qpn, nextPsn);
}

Time
RailTransport::GetLastRecovery() const
{
    return m_failover->GetLastRecovery();
}

void
RailTransport::NoteFrameLost(uint32_t qpn, uint64_t below)
{
    m_failover->NoteFrameLost(qpn, below);
}

void
RailTransport::CatchFrom(Time failure)
{
    m_failover->CatchFrom(failure);
}

Time
RailTransport::GetLastActivity() const
{
    NS_LOG_FUNCTION(this);
    return m_lastActivity;
}

std::vector<std::string>
RailTransport::DescribeWaiting() const
{
    return m_failover->DescribeWaiting();
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
    case PartRole::FORWARD:
        m_relay->ShareDone(part);
        break;
    }
}

void
RailTransport::Complete(uint64_t id)
{
    auto piece = m_failover->m_pieces.find(id);
    if (piece != m_failover->m_pieces.end())
    {
        // A detour arrived: it counts as the part it replaced.
        Part replaced = piece->second;
        m_failover->m_pieces.erase(piece);
        PartDone(replaced);
        return;
    }
    NS_ABORT_MSG_IF(m_outgoing.erase(id) == 0, "unknown message " << id);
    NotifySent(id);
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

} // namespace ns3

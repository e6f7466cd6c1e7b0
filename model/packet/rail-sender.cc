/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-sender.h"

#include "ns3/abort.h"
#include "ns3/ecn-mark-tag.h"
#include "ns3/eps-net-device.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/ocs-net-device.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/rail-failover.h"
#include "ns3/rail-receiver.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailSender");

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

bool
RailSender::GaveUpOn(uint32_t port, uint32_t peer, uint32_t peerPort) const
{
    bool optical = static_cast<bool>(m_rt.m_ports[port].optical);
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

std::vector<uint32_t>
RailSender::QueueParts(const std::vector<std::pair<uint32_t, uint32_t>>& routes,
                       uint32_t peer,
                       Part part,
                       uint32_t lanes)
{
    // Shares proportional to the port rates, each split evenly over the lanes; the rounding
    // remainders go to the first.
    double totalRate = 0;
    for (const auto& route : routes)
    {
        totalRate += m_rt.m_ports[route.first].rateBps;
    }
    std::vector<uint64_t> shares;
    uint64_t assigned = 0;
    for (const auto& route : routes)
    {
        shares.push_back(
            static_cast<uint64_t>(part.bytes * (m_rt.m_ports[route.first].rateBps / totalRate)));
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
        slice.mtu = m_rt.m_ports[routes[route].first].mtu;
        slice.frames = (bytes + slice.mtu - 1) / slice.mtu;
        qp.parts.push_back(slice);
        qp.endPsn += slice.frames;
        qpns.push_back(qp.qpn);
        if (m_rt.m_failover->PathDown(qp) || m_rt.m_failover->WaitsForCircuit(qp))
        {
            m_rt.m_failover->Stall(
                qp); // queued on a failed path or one without a circuit (a proxy's share)
        }
        Schedule(qp);
        Pump(qp.port);
    }
    return qpns;
}

RailTransport::QueuePair&
RailSender::GetQueuePair(uint32_t port, uint32_t peer, uint32_t peerPort, uint32_t lane)
{
    // On an optical port the peer port is wherever the circuit leads, and it may change
    // while the QP lives (OnCircuitChange re-points it): the key leaves it out.
    bool optical = static_cast<bool>(m_rt.m_ports[port].optical);
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
        qp.peerAddress = m_rt.m_endpoints->GetPorts(peer)[peerPort]->GetAddress();
        qp.label = FlowLabel(m_rt.m_gpu, qp.qpn, peer);
        qp.nextPsn = qp.ackedPsn = qp.endPsn = qp.highestSent = m_rt.m_initialPsn;
        qp.rate =
            DcqcnRateController(m_rt.GetDcqcnProfile(m_rt.m_ports[port].rateBps).reactionPoint);
        m_qps.push_back(qp);
        UpdateReachability(m_qps.back());
    }
    return m_qps[qpn];
}

void
RailSender::UpdateReachability(QueuePair& qp)
{
    if (!m_rt.m_ports[qp.port].optical)
    {
        // A packet switch joins the QP's two ports while both are up, whichever peer port
        // new messages would pick (the preferred one may have come back since).
        qp.reachable = !m_rt.m_failover->PortFailed(qp.port) &&
                       !m_rt.m_endpoints->IsPortDown(qp.peer, qp.peerPort);
        return;
    }
    int32_t peerPort = m_rt.PeerPortVia(qp.port, qp.peer);
    if (peerPort >= 0)
    {
        qp.peerPort = peerPort;
        qp.peerAddress = m_rt.m_endpoints->GetPorts(qp.peer)[peerPort]->GetAddress();
    }
    qp.reachable = peerPort >= 0;
}

void
RailSender::Schedule(QueuePair& qp)
{
    if (!qp.scheduled && CanSend(qp))
    {
        qp.scheduled = true;
        m_rt.m_ports[qp.port].ready.push_back(qp.qpn);
    }
}

RailTransport::Part*
RailSender::PartOf(QueuePair& qp, uint64_t psn)
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
RailSender::FramePayload(const Part& part, uint64_t psn) const
{
    uint64_t offset = (psn - part.firstPsn) * part.mtu;
    return static_cast<uint32_t>(std::min<uint64_t>(part.mtu, part.bytes - offset));
}

bool
RailSender::CanSend(QueuePair& qp)
{
    if (!qp.reachable || qp.gaveUp || qp.nextPsn >= qp.endPsn ||
        qp.nextPsn - qp.ackedPsn >= m_rt.m_window)
    {
        return false;
    }
    // A forwarding proxy sends only bytes it has received.
    const Part* part = PartOf(qp, qp.nextPsn);
    uint64_t end = (qp.nextPsn - part->firstPsn) * part->mtu + FramePayload(*part, qp.nextPsn);
    return end <= part->available;
}

void
RailSender::Pump(uint32_t index)
{
    Port& port = m_rt.m_ports[index];
    if (port.pumping)
    {
        return; // the outer loop keeps filling
    }
    port.pumping = true;
    Time wake = Time::Max();
    while (port.queue->GetNPackets() < m_rt.m_queueFrames)
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
        port.wakeup = Simulator::Schedule(wake - Simulator::Now(), &RailSender::Pump, this, index);
    }
}

RailTransport::QueuePair*
RailSender::NextReady(Port& port, Time& wake)
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
RailSender::SendData(QueuePair& qp)
{
    uint64_t psn = qp.nextPsn++;
    Part* part = PartOf(qp, psn);
    NS_ABORT_MSG_UNLESS(part, "PSN " << psn << " belongs to no part");
    uint32_t payload = FramePayload(*part, psn);
    RailTransportHeader header;
    header.label = qp.label;
    header.sourceGpu = m_rt.m_gpu;
    header.qpn = qp.qpn;
    header.kind = RailTransportHeader::DATA;
    // The last frame of a part asks for an ACK, and so does the last one a forwarding proxy
    // has for now (its sender would otherwise time out waiting for bytes still to come), and
    // one that fills the window (as an RDMA NIC asks for one: a window below AckInterval
    // would otherwise wait for a timeout).
    uint64_t end = (psn - part->firstPsn) * part->mtu + payload;
    header.last = psn + 1 == part->firstPsn + part->frames || end == part->available ||
                  psn + 1 - qp.ackedPsn >= m_rt.m_window;
    header.psn = psn;
    header.origin = part->origin;
    header.relayTo = part->relayTo;
    header.messageId = part->messageId;
    header.messageBytes = part->messageBytes;
    header.padding = RailTransportHeader::CoalescedPadding(payload, m_rt.m_realMtu);
    Ptr<Packet> frame = Create<Packet>(payload + header.padding);
    frame->AddHeader(header);

    ++m_rt.m_counters.dataFrames;
    if (psn < qp.highestSent)
    {
        ++m_rt.m_counters.retransmittedFrames;
    }
    else
    {
        qp.highestSent = psn + 1;
        m_rt.m_counters.payloadBytesSent += payload;
    }
    if (m_rt.UsesDcqcn())
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
    m_rt.m_ports[qp.port].device->Send(frame, qp.peerAddress, RailTransport::PROTOCOL);
}

void
RailSender::SendControl(uint32_t port,
                        const Address& to,
                        RailTransportHeader::Kind kind,
                        uint32_t qpn,
                        uint32_t label,
                        uint64_t psn)
{
    RailTransportHeader header;
    header.label = label;
    header.sourceGpu = m_rt.m_gpu;
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
    m_rt.m_ports[port].device->Send(frame, to, RailTransport::PROTOCOL);
}

void
RailSender::ArmTimeout(QueuePair& qp)
{
    // ACKs come every AckInterval frames: a QP sending slowly (a DCQCN cut, or a share of a
    // busy port) must not time out while it is still sending those frames.
    const Port& port = m_rt.m_ports[qp.port];
    double rate = port.rateBps / std::max<std::size_t>(1, port.ready.size());
    if (m_rt.UsesDcqcn())
    {
        rate = std::min(rate, qp.rate.GetRate(Simulator::Now()));
    }
    Time ackGap = Seconds(m_rt.m_ackInterval * (port.mtu + FRAME_OVERHEAD) * 8.0 / rate);
    ArmTimeoutIn(qp, m_rt.m_retransmitTimeout + ackGap);
}

void
RailSender::ArmTimeoutIn(QueuePair& qp, Time delay)
{
    qp.deadline = Simulator::Now() + delay;
    // An event already due at or before the new deadline will find it and wait on.
    if (!qp.timeout.IsRunning() ||
        static_cast<int64_t>(qp.timeout.GetTs()) > qp.deadline.GetTimeStep())
    {
        qp.timeout.Cancel();
        qp.timeout = Simulator::Schedule(delay, &RailSender::OnTimeout, this, qp.qpn);
    }
}

void
RailSender::DisarmTimeout(QueuePair& qp)
{
    qp.deadline = Time::Max();
}

void
RailSender::OnTimeout(uint32_t qpn)
{
    QueuePair& qp = m_qps[qpn];
    if (qp.deadline == Time::Max())
    {
        return; // turned off since this event was scheduled
    }
    if (Simulator::Now() < qp.deadline)
    {
        // ACKs moved the deadline since this event was scheduled.
        qp.timeout =
            Simulator::Schedule(qp.deadline - Simulator::Now(), &RailSender::OnTimeout, this, qpn);
        return;
    }
    qp.deadline = Time::Max();
    m_rt.m_lastActivity = Simulator::Now();
    UpdateReachability(qp);
    if (!qp.parts.empty() &&
        (m_rt.m_failover->IsBroken(qp) || m_rt.m_failover->WaitsForCircuit(qp)))
    {
        m_rt.m_failover->Stop(qp);
        ++m_rt.m_counters.timeouts;
        qp.nextPsn = qp.ackedPsn;
        if (!m_rt.m_failover->MoveParts(qp))
        {
            NS_LOG_INFO("GPU " << m_rt.m_gpu << " qp " << qpn
                               << ": path down, no other port reaches GPU " << qp.peer
                               << "; waiting");
        }
        return;
    }
    if (qp.ackedPsn == qp.nextPsn)
    {
        return; // nothing in flight
    }
    if (++qp.retries > m_rt.m_retryCount)
    {
        NS_LOG_INFO("GPU " << m_rt.m_gpu << " qp " << qpn << ": no progress after "
                           << m_rt.m_retryCount << " retries; the path counts as failed");
        qp.gaveUp = true;
        m_rt.m_failover->Stop(qp);
        ++m_rt.m_counters.timeouts;
        qp.nextPsn = qp.ackedPsn;
        m_rt.m_failover->MoveParts(qp);
        return;
    }
    ++m_rt.m_counters.timeouts;
    NS_LOG_INFO("GPU " << m_rt.m_gpu << " qp " << qpn << ": timeout, back to PSN " << qp.ackedPsn);
    m_rt.m_retransmitTrace(qpn, qp.ackedPsn);
    qp.nextPsn = qp.ackedPsn;
    ArmTimeout(qp);
    Schedule(qp);
    Pump(qp.port);
}

void
RailSender::OnDequeue(uint32_t port, Ptr<const Packet> frame)
{
    Pump(port);
}

void
RailSender::Acknowledge(QueuePair& qp, uint64_t psn)
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
        m_rt.m_failover->Recovered(qp.lostAt);
    }
    qp.nextPsn = std::max(qp.nextPsn, psn);
    while (!qp.parts.empty() && qp.parts.front().firstPsn + qp.parts.front().frames <= psn)
    {
        Part part = qp.parts.front();
        qp.parts.pop_front();
        m_rt.PartDone(part);
    }
    if (qp.ackedPsn == qp.nextPsn)
    {
        DisarmTimeout(qp);
        if (qp.hit && !qp.parts.empty() && m_rt.m_failover->IsBroken(qp))
        {
            // The last frame in flight got through, but the data behind it is stopped by a
            // failure: it still moves when the hold-down ends.
            m_rt.m_failover->ArmHoldDown(qp);
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
RailSender::ReceiveAck(const RailTransportHeader& header)
{
    NS_ABORT_MSG_IF(header.qpn >= m_qps.size(), "ACK for unknown qp " << header.qpn);
    Acknowledge(m_qps[header.qpn], header.psn);
}

void
RailSender::ReceiveNack(const RailTransportHeader& header)
{
    NS_ABORT_MSG_IF(header.qpn >= m_qps.size(), "NACK for unknown qp " << header.qpn);
    QueuePair& qp = m_qps[header.qpn];
    Acknowledge(qp, header.psn);
    if (header.psn >= qp.ackedPsn && header.psn < qp.nextPsn)
    {
        NS_LOG_INFO("GPU " << m_rt.m_gpu << " qp " << qp.qpn << ": NACK, back to PSN "
                           << header.psn);
        m_rt.m_retransmitTrace(qp.qpn, header.psn);
        qp.nextPsn = header.psn;
        Schedule(qp);
        Pump(qp.port);
    }
}

Time
RailSender::PacedUntil(QueuePair& qp)
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

void
RailSender::ReceiveCnp(const RailTransportHeader& header)
{
    NS_ABORT_MSG_IF(header.qpn >= m_qps.size(), "CNP for unknown qp " << header.qpn);
    ++m_rt.m_counters.cnpsReceived;
    if (!m_rt.UsesDcqcn())
    {
        return;
    }
    QueuePair& qp = m_qps[header.qpn];
    qp.rate.OnCnp(Simulator::Now());
    m_rt.m_rateTrace(qp.qpn, qp.rate.GetRate(Simulator::Now()));
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-failover.h"

#include "ns3/abort.h"
#include "ns3/ecn-mark-tag.h"
#include "ns3/eps-net-device.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/ocs-net-device.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/rail-receiver.h"
#include "ns3/rail-relay.h"
#include "ns3/rail-sender.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailFailover");

bool
RailFailover::PortFailed(uint32_t port) const
{
    return m_rt.m_endpoints->IsPortDown(m_rt.m_gpu, port);
}

bool
RailFailover::IsBroken(const QueuePair& qp) const
{
    return qp.gaveUp || PathDown(qp);
}

bool
RailFailover::PathDown(const QueuePair& qp) const
{
    return PortFailed(qp.port) || m_rt.m_endpoints->IsPortDown(qp.peer, qp.peerPort);
}

bool
RailFailover::DispatchOrDetour(uint64_t id, uint32_t peer, uint64_t bytes)
{
    if (m_rt.Dispatch(id, peer, bytes))
    {
        m_stoppedSince.erase(peer);
        return true;
    }
    uint32_t hop = DetourHop(peer);
    if (hop == NO_GPU && m_rt.m_detourOn && MustGoAround(peer))
    {
        WantCircuitAround(peer); // it waits for the circuit (RetryWaiting)
    }
    if (hop == NO_GPU || !StoppedLongEnough(peer))
    {
        return false;
    }
    SendAround(hop,
               peer,
               Part{PartRole::OWN, m_rt.m_gpu, id, bytes, NO_GPU, bytes, bytes, 0, 0, 0});
    m_rt.m_outgoing[id].partsLeft = 1;
    return true;
}

bool
RailFailover::RailDeadTowards(uint32_t peer) const
{
    std::map<uint32_t, std::pair<bool, bool>> live; // shared plane -> (mine, peer's) live
    for (uint32_t port = 0; port < m_rt.m_ports.size(); ++port)
    {
        const std::vector<uint32_t> peerPorts =
            m_rt.m_endpoints->GetPortsOnPlane(peer, m_rt.m_ports[port].plane);
        if (peerPorts.empty())
        {
            continue;
        }
        auto& [mine, theirs] = live[m_rt.m_ports[port].plane];
        mine = mine || !PortFailed(port);
        for (uint32_t index : peerPorts)
        {
            theirs = theirs || !m_rt.m_endpoints->IsPortDown(peer, index);
        }
    }
    return !live.empty() && std::all_of(live.begin(), live.end(), [](const auto& plane) {
        return !plane.second.first || !plane.second.second;
    });
}

bool
RailFailover::MustGoAround(uint32_t peer) const
{
    return m_detourPeers.count(peer) > 0 || RailDeadTowards(peer);
}

uint32_t
RailFailover::DetourHop(uint32_t peer, const std::set<uint32_t>& avoid) const
{
    if (!m_rt.m_detourOn || !MustGoAround(peer))
    {
        return NO_GPU;
    }
    uint32_t hop = m_detour->NextHop(m_rt.m_gpu, peer, avoid);
    return hop == peer ? NO_GPU : hop; // one hop apart: the direct path will do
}

bool
RailFailover::StoppedLongEnough(uint32_t peer)
{
    Time since =
        m_stoppedSince.emplace(peer, std::min(Simulator::Now(), FailedSince(peer))).first->second;
    Time left = since + m_rt.m_retransmitTimeout - Simulator::Now();
    if (!left.IsStrictlyPositive())
    {
        return true;
    }
    if (!m_holdDownEnd.IsRunning() || Simulator::GetDelayLeft(m_holdDownEnd) > left)
    {
        m_holdDownEnd.Cancel();
        m_holdDownEnd = Simulator::Schedule(left, &RailTransport::RetryWaiting, &m_rt);
    }
    return false;
}

Time
RailFailover::FailedSince(uint32_t peer) const
{
    Time since = Time::Max();
    for (uint32_t port = 0; port < m_rt.m_ports.size(); ++port)
    {
        std::vector<uint32_t> peerPorts =
            m_rt.m_endpoints->GetPortsOnPlane(peer, m_rt.m_ports[port].plane);
        if (!peerPorts.empty())
        {
            since = std::min(since, m_rt.m_endpoints->GetDownSince(m_rt.m_gpu, port));
        }
        for (uint32_t index : peerPorts)
        {
            since = std::min(since, m_rt.m_endpoints->GetDownSince(peer, index));
        }
    }
    return since;
}

void
RailFailover::ForgetReachedPeers()
{
    for (auto it = m_stoppedSince.begin(); it != m_stoppedSince.end();)
    {
        it = m_rt.RoutesTo(it->first).empty() ? std::next(it) : m_stoppedSince.erase(it);
    }
}

void
RailFailover::SendAround(uint32_t hop, uint32_t to, const Part& rest)
{
    uint64_t id = m_rt.AllocateMessageId();
    NS_LOG_INFO("GPU " << m_rt.m_gpu << ": " << rest.bytes << " B of message " << rest.messageId
                       << " of GPU " << rest.origin << " to GPU " << to << " detour through GPU "
                       << hop << " (message " << id << ")");
    ++m_rt.m_counters.detours;
    m_rt.m_counters.bytesDetoured += rest.bytes;
    m_pieces[id] = rest;
    m_rt.TransportOf(to)->m_failover->ExpectDetour(m_rt.m_gpu, id, rest);
    m_rt.m_relay->SendThrough(id, hop, to, rest.bytes);
}

void
RailFailover::SetDetour(uint32_t peer, bool detour)
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
        m_rt.NotifyFabricChange();
    }
}

void
RailFailover::ExpectDetour(uint32_t source, uint64_t id, const Part& part)
{
    m_detoured[{source, id}] =
        DetourPiece{{part.origin, part.messageId}, part.messageBytes, part.relayTo, part.bytes};
}

bool
RailFailover::IsDetour(uint32_t source, uint64_t id) const
{
    return m_detoured.count({source, id}) > 0;
}

bool
RailFailover::WaitsForCircuit(const QueuePair& qp) const
{
    return m_rt.m_ports[qp.port].optical && !qp.reachable && !qp.parts.empty();
}

bool
RailFailover::OtherPortReaches(const QueuePair& qp) const
{
    auto routes = m_rt.RoutesTo(qp.peer);
    return std::any_of(routes.begin(), routes.end(), [&qp](const auto& route) {
        return route.first != qp.port;
    });
}

void
RailFailover::OnChangeElsewhere()
{
    if (!m_rt.m_endpoints || m_recheckParked.IsRunning())
    {
        return;
    }
    // Every port change of the fabric comes here: only the QPs that wait are looked at.
    bool parked = std::any_of(m_parked.begin(), m_parked.end(), [this](uint32_t qpn) {
        return !m_rt.m_sender->m_qps[qpn].parts.empty();
    });
    if (parked || !m_rt.m_waiting.empty())
    {
        // After every change of this instant (see ScheduleRetryWaiting).
        m_recheckParked = Simulator::ScheduleNow(&RailFailover::RecheckParked, this);
    }
}

void
RailFailover::RecheckParked()
{
    std::set<uint32_t> parked;
    parked.swap(m_parked);
    for (uint32_t qpn : parked)
    {
        if (m_rt.m_sender->m_qps[qpn].parts.empty())
        {
            m_parked.insert(qpn); // its data went since; it stays parked until a Recheck
        }
        else
        {
            m_rt.Recheck(m_rt.m_sender->m_qps[qpn]);
        }
    }
    m_rt.ScheduleRetryWaiting();
    for (uint32_t port = 0; port < m_rt.m_ports.size(); ++port)
    {
        m_rt.m_sender->Pump(port);
    }
}

bool
RailFailover::MoveParts(QueuePair& qp)
{
    // Not back to this path, nor to one that gave up too (until the fabric changes: a rail
    // split in two would have the data move between its ports for ever).
    auto routes = m_rt.RoutesTo(qp.peer);
    bool optical = static_cast<bool>(m_rt.m_ports[qp.port].optical);
    routes.erase(
        std::remove_if(routes.begin(),
                       routes.end(),
                       [&qp, optical, this](const std::pair<uint32_t, uint32_t>& route) {
                           return (route.first == qp.port &&
                                   (optical || route.second == qp.peerPort)) ||
                                  m_rt.m_sender->GaveUpOn(route.first, qp.peer, route.second);
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
    uint64_t received = m_rt.TransportOf(qp.peer)->ResetConnection(m_rt.m_gpu, qp.qpn, qp.endPsn);
    m_rt.m_sender->Acknowledge(qp, received);
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
    m_rt.m_sender->DisarmTimeout(qp);
    NS_LOG_INFO("GPU " << m_rt.m_gpu << " qp " << qp.qpn << ": path to GPU " << qp.peer << " down; "
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
            ++m_rt.m_counters.partsMoved;
            m_rt.m_counters.bytesMoved += part.bytes;
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
RailFailover::Park(QueuePair& qp)
{
    m_parked.insert(qp.qpn); // until a change (OnChangeElsewhere)
    // Detoured data waiting for a circuit that no communication asked for (a later one
    // took it) says so: Opus may light it, as no path around works.
    bool detoured = std::any_of(qp.parts.begin(), qp.parts.end(), [this](const Part& part) {
        return IsDetourPart(part);
    });
    if (detoured && WaitsForCircuit(qp) && !PortFailed(qp.port))
    {
        m_rt.m_circuitWantedTrace(qp.port, qp.peer);
    }
    else if (!qp.parts.empty() && PathDown(qp))
    {
        WantCircuitAround(qp.peer);
    }
}

void
RailFailover::WantCircuitAround(uint32_t peer)
{
    // Its data goes around a failed port, and no lit circuit makes a path. Nothing else
    // would ask for one: Opus plans the job's communications (the pair relays, "where lit
    // circuits make a path"), and CircuitWanted in Park is for a live port of this GPU. So
    // the PXN path asks: a GPU of this scale-up domain and one of the peer's, on a rail
    // where both have live ports (the first such, for determinism), ask Opus to join them.
    if (!m_rt.m_detourOn || m_detour->NextHop(m_rt.m_gpu, peer) != NO_GPU)
    {
        return;
    }
    const auto& endpoints = m_rt.m_endpoints;
    for (uint32_t hop = 0; hop < endpoints->GetGpuCount(); ++hop)
    {
        if (hop == m_rt.m_gpu || hop == peer || !m_rt.SharesPlane(hop, m_rt.m_gpu, true))
        {
            continue;
        }
        const auto& ports = endpoints->GetPorts(hop);
        for (uint32_t index = 0; index < ports.size(); ++index)
        {
            if (!DynamicCast<OcsNetDevice>(ports[index]) || endpoints->IsPortDown(hop, index))
            {
                continue;
            }
            for (const auto& [far, farIndex] :
                 endpoints->GetPlaneMembers(endpoints->GetPlane(hop, index)))
            {
                if (far != peer && far != m_rt.m_gpu && m_rt.SharesPlane(far, peer, true) &&
                    !endpoints->IsPortDown(far, farIndex))
                {
                    NS_LOG_INFO("GPU " << m_rt.m_gpu << ": no path around to GPU " << peer
                                       << "; GPUs " << hop << " and " << far
                                       << " ask for a circuit");
                    m_rt.TransportOf(hop)->m_circuitWantedTrace(index, far);
                    return;
                }
            }
        }
    }
}

bool
RailFailover::IsDetourPart(const Part& part) const
{
    switch (part.role)
    {
    case PartRole::OWN:
        return false;
    case PartRole::RELAY:
        return m_pieces.count(part.messageId) > 0;
    case PartRole::FORWARD:
        return m_rt.m_relay->GoesAround({part.origin, part.messageId});
    }
    return false;
}

uint32_t
RailFailover::RerouteHop(const QueuePair& qp, const Part& part) const
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
    uint32_t hop = m_detour->NextHop(m_rt.m_gpu, qp.peer);
    return hop == qp.peer ? NO_GPU : hop;
}

Time
RailFailover::GetLastRecovery() const
{
    NS_LOG_FUNCTION(this);
    return m_lastRecovery;
}

void
RailFailover::NoteFrameLost(uint32_t qpn, uint64_t below)
{
    NS_LOG_FUNCTION(this << qpn << below);
    if (qpn < m_rt.m_sender->m_qps.size())
    {
        QueuePair& qp = m_rt.m_sender->m_qps[qpn];
        if (below > qp.ackedPsn)
        {
            qp.lostAt = qp.lostBelow == 0 ? Simulator::Now() : qp.lostAt;
            qp.lostBelow = std::max(qp.lostBelow, below);
        }
    }
}

void
RailFailover::CatchFrom(Time failure)
{
    NS_LOG_FUNCTION(this << failure);
    m_caughtFrom = failure;
}

void
RailFailover::Stop(QueuePair& qp)
{
    if (!qp.hit)
    {
        qp.hit = true;
        qp.stoppedAt = Simulator::Now();
    }
}

void
RailFailover::Stall(QueuePair& qp)
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
RailFailover::ArmHoldDown(QueuePair& qp)
{
    if (qp.deadline == Time::Max())
    {
        m_rt.m_sender->ArmTimeoutIn(
            qp,
            std::max(Time(0), qp.stoppedAt + m_rt.m_retransmitTimeout - Simulator::Now()));
    }
}

void
RailFailover::Recovered(Time stoppedAt)
{
    // Traffic stopped long after the failure struck found it in place and went around it,
    // or waited for its repair: the penalty shows that, not the recovery.
    if (stoppedAt >= m_caughtFrom && stoppedAt - m_caughtFrom <= m_rt.m_retransmitTimeout)
    {
        m_lastRecovery = Simulator::Now();
    }
}

std::set<std::string>
RailFailover::FailedPortsTowards(uint32_t peer) const
{
    std::set<std::string> down; // sorted and once each, for a stable report
    auto name = [](uint32_t gpu, uint32_t k) {
        return "gpu" + std::to_string(gpu) + ".port" + std::to_string(k);
    };
    for (uint32_t port = 0; port < m_rt.m_ports.size(); ++port)
    {
        std::vector<uint32_t> peerPorts =
            m_rt.m_endpoints->GetPortsOnPlane(peer, m_rt.m_ports[port].plane);
        if (!peerPorts.empty() && PortFailed(port))
        {
            down.insert(name(m_rt.m_gpu, m_rt.m_ports[port].rankInPlane));
        }
        for (uint32_t k = 0; k < peerPorts.size(); ++k)
        {
            if (m_rt.m_endpoints->IsPortDown(peer, peerPorts[k]))
            {
                down.insert(name(peer, k));
            }
        }
    }
    return down;
}

std::string
RailFailover::DescribeBlockage(uint32_t peer, bool gaveUp) const
{
    std::set<std::string> down = FailedPortsTowards(peer);
    if (down.empty())
    {
        return gaveUp ? "no acknowledgement after " + std::to_string(m_rt.m_retryCount) +
                            " retransmission timeouts (a failure inside the network)"
                      : "no circuit reaches GPU " + std::to_string(peer);
    }
    std::string text;
    for (const std::string& port : down)
    {
        text += (text.empty() ? "" : ", ") + port;
    }
    bool around = m_rt.m_detourOn && MustGoAround(peer);
    return "port" + std::string(down.size() > 1 ? "s " : " ") + text + " down" +
           (around ? "; no working path around them" : "");
}

std::vector<std::string>
RailFailover::DescribeWaiting() const
{
    NS_LOG_FUNCTION(this);
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> waiting; // peer -> (parts, bytes)
    std::set<uint32_t> gaveUp;                                 // peers of QPs that gave up
    for (const QueuePair& qp : m_rt.m_sender->m_qps)
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
    for (const Waiting& w : m_rt.m_waiting)
    {
        ++waiting[w.peer].first;
        waiting[w.peer].second += w.bytes;
    }
    std::vector<std::string> lines;
    for (const auto& [peer, load] : waiting)
    {
        lines.push_back("GPU " + std::to_string(m_rt.m_gpu) + " -> GPU " + std::to_string(peer) +
                        ": " + std::to_string(load.first) + " transfer" +
                        (load.first > 1 ? "s" : "") + " (" + std::to_string(load.second) +
                        " B) wait: " + DescribeBlockage(peer, gaveUp.count(peer) > 0));
    }
    return lines;
}

void
RailFailover::Requeue(const std::vector<std::pair<uint32_t, uint32_t>>& routes,
                      uint32_t peer,
                      const Part& rest)
{
    switch (rest.role)
    {
    case PartRole::OWN:
        m_rt.m_outgoing[rest.messageId].partsLeft +=
            m_rt.m_sender->QueueParts(routes, peer, rest).size() - 1;
        break;
    case PartRole::RELAY:
        m_rt.m_sender->QueueParts(routes, peer, rest); // still completed by the proxy
        break;
    case PartRole::FORWARD:
        // A forwarded share stays one part: its bytes become available in order.
        m_rt.m_relay->MoveShare(rest, m_rt.m_sender->QueueParts({routes[0]}, peer, rest)[0]);
        break;
    }
}

} // namespace ns3

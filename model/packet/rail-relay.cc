/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-relay.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rail-failover.h"
#include "ns3/rail-sender.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailRelay");

uint32_t
RailRelay::ProxyFor(uint32_t peer)
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
    for (uint32_t gpu = 0; gpu < m_rt.m_endpoints->GetGpuCount() && proxy == NO_GPU; ++gpu)
    {
        if (gpu != m_rt.m_gpu && gpu != peer && m_rt.SharesPlane(gpu, m_rt.m_gpu, true) &&
            m_rt.SharesPlane(gpu, peer, false))
        {
            proxy = gpu;
        }
    }
    m_proxies[peer] = proxy;
    return proxy;
}

uint32_t
RailRelay::ProxyBefore(uint32_t peer, const std::set<uint32_t>& avoid) const
{
    for (uint32_t gpu = 0; gpu < m_rt.m_endpoints->GetGpuCount(); ++gpu)
    {
        if (gpu != m_rt.m_gpu && gpu != peer && avoid.count(gpu) == 0 &&
            m_rt.SharesPlane(gpu, m_rt.m_gpu, false) && m_rt.SharesPlane(gpu, peer, true))
        {
            return gpu;
        }
    }
    return NO_GPU;
}

void
RailRelay::Relay(uint64_t id, uint32_t proxy, uint32_t peer, uint64_t bytes)
{
    NS_LOG_INFO("GPU " << m_rt.m_gpu << ": message " << id << " to GPU " << peer << " via GPU "
                       << proxy << " (PXN)");
    SendThrough(id, proxy, peer, bytes);
    m_rt.m_outgoing[id].partsLeft = 1; // completed by the proxy when the peer has everything
}

void
RailRelay::SendThrough(uint64_t id, uint32_t hop, uint32_t peer, uint64_t bytes)
{
    auto routes = m_rt.RoutesTo(hop, true);
    if (routes.empty())
    {
        routes = m_rt.PlaneRoutesTo(hop); // sent once the circuit to the proxy is up
    }
    Part part{PartRole::RELAY, m_rt.m_gpu, id, bytes, peer, bytes, bytes, 0, 0, 0};
    m_rt.m_sender->QueueParts(routes, hop, part);
}

void
RailRelay::PassOn(const RailTransportHeader& header, uint32_t payload)
{
    MessageKey key{header.origin, header.messageId};
    auto [it, fresh] = m_forwards.emplace(key, Forwarding());
    Forwarding& forwarding = it->second;
    if (fresh)
    {
        StartForwarding(key, header, forwarding);
    }
    forwarding.arrived += payload;
    // Bytes available to share i: its part of the whole chunks arrived, plus the chunk in
    // progress if it is that share's.
    const uint32_t chunk = m_rt.m_relayChunk;
    uint64_t n = forwarding.qpns.size();
    uint64_t full = forwarding.arrived / chunk;
    uint64_t partial = forwarding.arrived % chunk;
    for (uint64_t i = 0; i < n; ++i)
    {
        uint64_t chunksOfI = full / n + (i < full % n ? 1 : 0);
        uint64_t available = chunksOfI * chunk + (full % n == i ? partial : 0);
        QueuePair& qp = m_rt.m_sender->m_qps[forwarding.qpns[i]];
        bool complete = false; // a share of a broken path may go around the failure now
        for (auto& part : qp.parts)
        {
            if (part.role == PartRole::FORWARD && part.origin == header.origin &&
                part.messageId == header.messageId && part.slot == i)
            {
                uint64_t ours = available > part.offset ? available - part.offset : 0;
                bool arriving = part.available < part.bytes;
                part.available = std::min(ours, part.bytes);
                complete = complete || (qp.hit && arriving && part.available == part.bytes);
            }
        }
        if (complete)
        {
            m_rt.Recheck(qp); // after the loop: it may move the parts off this QP
        }
        m_rt.m_sender->Schedule(qp);
        m_rt.m_sender->Pump(qp.port);
    }
}

void
RailRelay::StartForwarding(const MessageKey& key,
                           const RailTransportHeader& header,
                           Forwarding& forwarding)
{
    ++m_rt.m_counters.messagesForwarded;
    Ptr<RailTransport> destination = m_rt.TransportOf(header.relayTo);
    forwarding.detour = destination->m_failover->IsDetour(header.origin, header.messageId);
    std::set<uint32_t>& passed = destination->m_relay->PassedThrough(key);
    passed.insert(m_rt.m_gpu); // the forwarders so far (the origin may forward it once)
    // Past its PXN proxy a message is detouring, whether or not it left as a detour.
    uint32_t next = NextHop(header.relayTo, forwarding.detour || passed.size() > 1, passed);
    forwarding.around = forwarding.detour || passed.size() > 1 || next != header.relayTo;
    auto routes = m_rt.RoutesTo(next, true);
    if (routes.empty())
    {
        routes = m_rt.PlaneRoutesTo(next); // sent once a circuit is up or a part repaired
    }
    NS_ABORT_MSG_IF(routes.empty(),
                    "GPU " << m_rt.m_gpu << " cannot forward to GPU " << header.relayTo);
    // Each port forwards whole chunks, round robin: chunk j goes to port j mod n.
    const uint32_t chunk = m_rt.m_relayChunk;
    uint64_t chunks = (header.messageBytes + chunk - 1) / chunk;
    for (uint32_t i = 0; i < routes.size() && i < chunks; ++i)
    {
        uint64_t mine = 0;
        for (uint64_t j = i; j < chunks; j += routes.size())
        {
            mine += std::min<uint64_t>(chunk, header.messageBytes - j * chunk);
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
                  static_cast<uint32_t>(forwarding.qpns.size()),
                  0};
        auto qpns = m_rt.m_sender->QueueParts({routes[i]}, next, part);
        forwarding.qpns.insert(forwarding.qpns.end(), qpns.begin(), qpns.end());
    }
    forwarding.partsLeft = forwarding.qpns.size();
}

uint32_t
RailRelay::NextHop(uint32_t to, bool detour, const std::set<uint32_t>& passed)
{
    if (!m_rt.RoutesTo(to, true).empty())
    {
        return to;
    }
    // A detour follows the working paths; PXN waits for its circuit unless its rail is dead,
    // or its pair relays, for one RetransmitTimeout (as new messages do). Neither goes back
    // through a GPU it passed: paths change under a message (a port that flaps), and a
    // message that came back would be forwarded twice by one GPU.
    RailFailover& failover = *m_rt.m_failover;
    uint32_t hop = detour ? failover.m_detour->NextHop(m_rt.m_gpu, to, passed)
                   : failover.StoppedLongEnough(to) ? failover.DetourHop(to, passed)
                                                    : NO_GPU;
    if (hop == NO_GPU && m_rt.PlaneRoutesTo(to).empty())
    {
        // Off the destination's rail: any path; none: wait on the way there.
        hop = failover.m_detour->NextHop(m_rt.m_gpu, to, passed);
        hop = hop == NO_GPU ? ProxyBefore(to, passed) : hop;
    }
    if (hop == NO_GPU && m_rt.PlaneRoutesTo(to).empty())
    {
        hop = ProxyBefore(to, {}); // somewhere to wait, even one it passed, beats nowhere
    }
    return hop == NO_GPU ? to : hop;
}

void
RailRelay::ShareDone(const Part& part)
{
    auto forward = m_forwards.find({part.origin, part.messageId});
    NS_ABORT_MSG_IF(forward == m_forwards.end(), "unknown forwarded message");
    if (--forward->second.partsLeft > 0)
    {
        return;
    }
    bool detour = forward->second.detour;
    m_forwards.erase(forward);
    // The last hop of PXN tells the origin (a detour's destination does). The completion
    // notice travels back over the scale-up domain in NCCL (a flag in GPU memory); it is
    // modelled as instantaneous.
    if (part.relayTo == NO_GPU && !detour)
    {
        m_rt.TransportOf(part.origin)->Complete(part.messageId);
    }
}

void
RailRelay::MoveShare(const Part& share, uint32_t qpn)
{
    auto forward = m_forwards.find({share.origin, share.messageId});
    NS_ABORT_MSG_IF(forward == m_forwards.end(), "moving an unknown forwarded message");
    forward->second.qpns[share.slot] = qpn;
}

bool
RailRelay::GoesAround(const MessageKey& key) const
{
    auto forward = m_forwards.find(key);
    return forward != m_forwards.end() && forward->second.around;
}

std::set<uint32_t>&
RailRelay::PassedThrough(const MessageKey& key)
{
    return m_passed[key];
}

void
RailRelay::ForgetPassed(const MessageKey& key)
{
    m_passed.erase(key);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowTransport");

NS_OBJECT_ENSURE_REGISTERED(FlowTransport);

TypeId
FlowTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowTransport")
            .SetParent<MessageTransport>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<FlowTransport>()
            .AddAttribute("RetransmitTimeout",
                          "How long a transfer whose NIC port or peer port failed waits for it "
                          "before its bytes go another way, and a new message with no route "
                          "waits after a failure before it detours: the packet model's "
                          "ns3::RailTransport::RetransmitTimeout.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&FlowTransport::m_retransmitTimeout),
                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

void
FlowTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_check.Cancel();
    for (auto& [tag, part] : m_parts)
    {
        part.giveUp.Cancel();
    }
    m_fabric = nullptr;
    m_outgoing.clear();
    m_parts.clear();
    m_drained = FlowNetwork::DrainedCallback();
    MessageTransport::DoDispose();
}

void
FlowTransport::Setup(uint32_t gpu, Ptr<FlowFabric> fabric)
{
    NS_LOG_FUNCTION(this << gpu << fabric);
    m_gpu = gpu;
    m_fabric = fabric;
    m_drained = MakeCallback(&FlowTransport::PartDrained, this);
}

uint32_t
FlowTransport::GetGpu() const
{
    NS_LOG_FUNCTION(this);
    return m_gpu;
}

const FlowTransportCounters&
FlowTransport::GetCounters() const
{
    NS_LOG_FUNCTION(this);
    return m_counters;
}

void
FlowTransport::CatchFrom(Time failure)
{
    NS_LOG_FUNCTION(this << failure);
    m_caughtFrom = failure;
}

Time
FlowTransport::GetLastRecovery() const
{
    NS_LOG_FUNCTION(this);
    return m_lastRecovery;
}

void
FlowTransport::DoSend(uint64_t id, uint32_t peer, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << id << peer << bytes);
    NS_ABORT_MSG_UNLESS(m_fabric, "FlowTransport::Send before Setup");
    NS_ABORT_MSG_IF(peer == m_gpu || peer >= m_fabric->GetSpec().Gpus(),
                    "FlowTransport::Send: bad peer GPU " << peer << " from GPU " << m_gpu);
    m_outgoing[id] = Outgoing{peer, bytes, {}, 0, Time(0), Time(0)};
    if (!Dispatch(id))
    {
        NS_LOG_INFO("GPU " << m_gpu << ": no circuit reaches GPU " << peer << " yet; message " << id
                           << " waits");
        m_outgoing.at(id).waitingSince = Simulator::Now();
        m_waiting.push_back(id);
    }
}

bool
FlowTransport::Dispatch(uint64_t id)
{
    const Outgoing& message = m_outgoing.at(id);
    std::vector<FlowRoute> routes = m_fabric->RoutesBetween(m_gpu, message.peer, message.bytes);
    if (!routes.empty() && !m_stoppedSince.empty())
    {
        m_stoppedSince.erase(message.peer); // in reach again
    }
    if (routes.empty())
    {
        routes = Around(message.peer, message.bytes, false);
        if (routes.empty())
        {
            return false;
        }
        ++m_counters.detours;
        m_counters.bytesDetoured += message.bytes;
    }
    StartParts(id, routes);
    return true;
}

void
FlowTransport::StartParts(uint64_t id, const std::vector<FlowRoute>& routes)
{
    Outgoing& message = m_outgoing.at(id);
    for (const FlowRoute& route : routes)
    {
        if (route.bytes == 0)
        {
            continue;
        }
        ++message.partsLeft;
        uint64_t tag = m_nextTag++;
        FlowNetwork::TransferId transfer = m_fabric->GetNetwork()->Start(route.path,
                                                                         route.wireBytes,
                                                                         route.connection,
                                                                         m_drained,
                                                                         tag);
        Part& part = m_parts[tag];
        part.message = id;
        part.route = route;
        part.transfer = transfer;
        message.parts.push_back(tag);
        if (!m_fabric->IsPathUp(route.path))
        {
            // ECMP hashed it onto a dead link inside a Clos: it waits for routing to move.
            m_fabric->GetNetwork()->Pause(transfer);
            part.running = false;
            part.stoppedAt = Simulator::Now();
        }
    }
}

std::vector<FlowRoute>
FlowTransport::Around(uint32_t peer, uint64_t bytes, bool waited)
{
    if (!m_fabric->MayDetour(m_gpu, peer))
    {
        return {};
    }
    if (!waited)
    {
        // A new message detours once its peer has been out of reach for a RetransmitTimeout:
        // since the latest failure, or since it first found no way if that came later.
        Time now = Simulator::Now();
        auto [stopped, fresh] = m_stoppedSince.emplace(peer, now);
        Time failure = m_fabric->GetLastFailure();
        if (fresh && !failure.IsStrictlyNegative())
        {
            stopped->second = std::min(now, failure);
        }
        Time left = stopped->second + m_retransmitTimeout - now;
        if (left.IsStrictlyPositive())
        {
            if (!m_check.IsRunning() || Simulator::GetDelayLeft(m_check) > left)
            {
                m_check.Cancel();
                m_check = Simulator::Schedule(left, &FlowTransport::OnFabricChange, this);
            }
            return {};
        }
    }
    return m_fabric->DetourRoutes(m_gpu, peer, bytes);
}

void
FlowTransport::PartDrained(uint64_t tag)
{
    Part& drained = m_parts.at(tag);
    Outgoing& message = m_outgoing.at(drained.message);
    // Its transfer id goes back to the network: a circuit change must not touch it again.
    drained.done = true;
    drained.giveUp.Cancel();
    Time arrival = Simulator::Now() + drained.route.latency;
    message.arrival = std::max(message.arrival, arrival);
    message.acknowledged = std::max(message.acknowledged, arrival + drained.route.ackLatency);
    if (--message.partsLeft > 0)
    {
        return;
    }
    Ptr<FlowTransport> peer = m_fabric->GetFlowTransport(message.peer);
    Time now = Simulator::Now();
    Simulator::Schedule(message.arrival - now,
                        &FlowTransport::Arrive,
                        peer,
                        m_gpu,
                        drained.message,
                        message.bytes);
    Simulator::Schedule(message.acknowledged - now,
                        &FlowTransport::Complete,
                        this,
                        drained.message);
}

void
FlowTransport::Arrive(uint32_t source, uint64_t id, uint64_t bytes)
{
    NotifyPayloadDelivered(bytes);
    NotifyDelivered(source, id, bytes);
}

void
FlowTransport::Complete(uint64_t id)
{
    auto message = m_outgoing.find(id);
    NS_ABORT_MSG_IF(message == m_outgoing.end(), "FlowTransport: no message " << id);
    for (uint64_t tag : message->second.parts)
    {
        m_parts.erase(tag);
    }
    m_outgoing.erase(message);
    NotifySent(id);
}

void
FlowTransport::OnPortChange(uint32_t railGpu, uint32_t port)
{
    NS_LOG_FUNCTION(this << railGpu << port);
    // A part that gave up on its path may take this circuit around the failure.
    RevisitParts([railGpu, port](const Part& part) {
        return (part.route.railGpu == railGpu && part.route.port == port) || part.gaveUp;
    });
    ScheduleRetry();
}

void
FlowTransport::OnFabricChange()
{
    NS_LOG_FUNCTION(this);
    RevisitParts([](const Part&) { return true; });
    ScheduleRetry();
}

void
FlowTransport::RevisitParts(const std::function<bool(const Part&)>& concerned)
{
    // In message order, so that the network sees the same changes in the same order on
    // every run (the table is unordered).
    std::vector<uint64_t> ids;
    for (const auto& [id, message] : m_outgoing)
    {
        ids.push_back(id);
    }
    std::sort(ids.begin(), ids.end());
    for (uint64_t id : ids)
    {
        // A moved part adds parts to its message: those are new, and checked as they start.
        for (uint64_t tag : std::vector<uint64_t>(m_outgoing.at(id).parts))
        {
            const Part& part = m_parts.at(tag);
            if (!part.done && concerned(part))
            {
                Revisit(tag);
            }
        }
    }
}

void
FlowTransport::ScheduleRetry()
{
    // A reconfiguration brings its circuits up one port at a time: try the waiting messages
    // once they are all up, so that a message uses every port that reaches its peer (C6).
    if (!m_waiting.empty() && !m_retryPending)
    {
        m_retryPending = true;
        Simulator::ScheduleNow(&FlowTransport::RetryWaiting, this);
    }
}

void
FlowTransport::RetryWaiting()
{
    m_retryPending = false;
    std::deque<uint64_t> waiting;
    waiting.swap(m_waiting);
    for (uint64_t id : waiting)
    {
        if (!Dispatch(id))
        {
            m_waiting.push_back(id);
            continue;
        }
        Recovered(m_outgoing.at(id).waitingSince); // traffic a failure held moves
    }
}

bool
FlowTransport::Failed(const Part& part) const
{
    const FlowRoute& route = part.route;
    return route.port != FlowRoute::SCALE_UP && (!m_fabric->IsPortUp(route.railGpu, route.port) ||
                                                 !m_fabric->IsPortUp(route.target, route.peerPort));
}

void
FlowTransport::Revisit(uint64_t tag)
{
    Part& part = m_parts.at(tag);
    if (part.gaveUp)
    {
        TryMove(tag);
        return;
    }
    Ptr<FlowNetwork> network = m_fabric->GetNetwork();
    const Outgoing& message = m_outgoing.at(part.message);
    std::vector<FlowNetwork::LinkId> path;
    uint32_t peerPort = part.route.peerPort;
    bool failed = Failed(part);
    if (!failed && m_fabric->PathOf(m_gpu, message.peer, part.route, path, peerPort))
    {
        part.giveUp.Cancel();
        if (part.running && path == part.route.path)
        {
            return;
        }
        if (part.running)
        {
            network->Pause(part.transfer);
        }
        network->Resume(part.transfer, path);
        part.route.path = path;
        part.route.peerPort = peerPort;
        part.running = true;
        Recovered(part.stoppedAt);
        part.stoppedAt = Seconds(-1);
        return;
    }
    if (part.running)
    {
        NS_LOG_INFO("GPU " << m_gpu << ": message " << part.message << " pauses on port "
                           << part.route.port);
        network->Pause(part.transfer);
        part.running = false;
        bool broken = failed || !m_fabric->IsPathUp(part.route.path);
        part.stoppedAt = broken ? Simulator::Now() : Seconds(-1);
    }
    if (!failed && part.route.detour)
    {
        // The circuit a detour borrowed went to others (Opus dropped the hold once the pair
        // had its own again): what is left goes the way that works now.
        part.gaveUp = true;
        TryMove(tag);
        return;
    }
    if (failed && !part.giveUp.IsRunning())
    {
        part.giveUp = Simulator::Schedule(m_retransmitTimeout, &FlowTransport::GiveUp, this, tag);
    }
}

void
FlowTransport::GiveUp(uint64_t tag)
{
    NS_LOG_FUNCTION(this << tag);
    m_parts.at(tag).gaveUp = true;
    TryMove(tag);
}

void
FlowTransport::TryMove(uint64_t tag)
{
    Part& part = m_parts.at(tag);
    Ptr<FlowNetwork> network = m_fabric->GetNetwork();
    const Outgoing& message = m_outgoing.at(part.message);
    std::vector<FlowNetwork::LinkId> path;
    uint32_t peerPort = part.route.peerPort;
    if (!Failed(part) && m_fabric->PathOf(m_gpu, message.peer, part.route, path, peerPort))
    {
        part.gaveUp = false; // its path is back: it goes on there at once
        Revisit(tag);
        return;
    }
    // The payload still to send, from the wire bytes left (whole bytes, never more).
    uint64_t wireLeft = network->GetBytesLeft(part.transfer);
    uint64_t bytes = std::min<uint64_t>(
        part.route.bytes,
        static_cast<uint64_t>(std::ceil(double(part.route.bytes) * wireLeft /
                                        std::max<uint64_t>(1, part.route.wireBytes))));
    bytes = std::max<uint64_t>(1, bytes);
    std::vector<FlowRoute> routes = m_fabric->RoutesBetween(m_gpu, message.peer, bytes);
    bool around = routes.empty();
    if (around)
    {
        routes = Around(message.peer, bytes, true); // its path failed a timeout ago
    }
    if (routes.empty() || network->Withdraw(part.transfer) == 0)
    {
        return; // it waits for a repair or a way around; or it drains at this instant
    }
    NS_LOG_INFO("GPU " << m_gpu << ": message " << part.message << " moves " << bytes
                       << " bytes off port " << part.route.port << (around ? " around" : ""));
    uint64_t id = part.message;
    part.done = true;
    --m_outgoing.at(id).partsLeft;
    ++(around ? m_counters.detours : m_counters.partsMoved);
    (around ? m_counters.bytesDetoured : m_counters.bytesMoved) += bytes;
    Recovered(part.stoppedAt);
    StartParts(id, routes);
}

void
FlowTransport::Recovered(Time stoppedAt)
{
    // As the packet model's: traffic stopped long after the failure struck found it in
    // place, and its penalty shows that, not the recovery.
    if (!stoppedAt.IsStrictlyNegative() && stoppedAt >= m_caughtFrom &&
        stoppedAt - m_caughtFrom <= m_retransmitTimeout)
    {
        m_lastRecovery = Simulator::Now();
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowTransport");

NS_OBJECT_ENSURE_REGISTERED(FlowTransport);

TypeId
FlowTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowTransport")
                            .SetParent<MessageTransport>()
                            .SetGroupName("PhotonicRails")
                            .AddConstructor<FlowTransport>();
    return tid;
}

void
FlowTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_fabric = nullptr;
    m_outgoing.clear();
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
        m_waiting.push_back(id);
    }
}

bool
FlowTransport::Dispatch(uint64_t id)
{
    Outgoing& message = m_outgoing.at(id);
    std::vector<FlowRoute> routes = m_fabric->RoutesBetween(m_gpu, message.peer, message.bytes);
    if (routes.empty())
    {
        return false;
    }
    for (const FlowRoute& route : routes)
    {
        if (route.bytes == 0)
        {
            continue;
        }
        ++message.partsLeft;
        uint64_t tag = (id << PART_BITS) | message.parts.size();
        FlowNetwork::TransferId transfer = m_fabric->GetNetwork()->Start(route.path,
                                                                         route.wireBytes,
                                                                         route.connection,
                                                                         m_drained,
                                                                         tag);
        message.parts.push_back(Part{route.railGpu,
                                     route.port,
                                     transfer,
                                     route.path,
                                     route.latency,
                                     route.ackLatency,
                                     true,
                                     false});
    }
    return true;
}

void
FlowTransport::PartDrained(uint64_t tag)
{
    uint64_t id = tag >> PART_BITS;
    std::size_t part = tag & ((uint64_t(1) << PART_BITS) - 1);
    Outgoing& message = m_outgoing.at(id);
    // Its transfer id goes back to the network: a circuit change must not touch it again.
    Part& drained = message.parts[part];
    drained.drained = true;
    Time arrival = Simulator::Now() + drained.latency;
    message.arrival = std::max(message.arrival, arrival);
    message.acknowledged = std::max(message.acknowledged, arrival + drained.ackLatency);
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
                        id,
                        message.bytes);
    Simulator::Schedule(message.acknowledged - now, &FlowTransport::Complete, this, id);
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
    NS_ABORT_MSG_IF(m_outgoing.erase(id) == 0, "FlowTransport: no message " << id);
    NotifySent(id);
}

void
FlowTransport::OnPortChange(uint32_t railGpu, uint32_t port)
{
    NS_LOG_FUNCTION(this << railGpu << port);
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
        for (Part& part : m_outgoing.at(id).parts)
        {
            if (!part.drained && part.railGpu == railGpu && part.port == port)
            {
                Reroute(id, part);
            }
        }
    }
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
        }
    }
}

void
FlowTransport::Reroute(uint64_t id, Part& part)
{
    const Outgoing& message = m_outgoing.at(id);
    Ptr<FlowNetwork> network = m_fabric->GetNetwork();
    for (const FlowRoute& route : m_fabric->RoutesBetween(m_gpu, message.peer, message.bytes))
    {
        if (route.port != part.port)
        {
            continue;
        }
        if (part.running && route.path == part.path)
        {
            return;
        }
        if (part.running)
        {
            network->Pause(part.transfer);
        }
        network->Resume(part.transfer, route.path);
        part.path = route.path;
        part.running = true;
        return;
    }
    if (part.running)
    {
        NS_LOG_INFO("GPU " << m_gpu << ": message " << id << " pauses on port " << part.port);
        network->Pause(part.transfer);
        part.running = false;
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-control-plane.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusControlPlane");

NS_OBJECT_ENSURE_REGISTERED(OpusControlPlane);

TypeId
OpusControlPlane::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OpusControlPlane")
            .SetParent<Object>()
            .SetGroupName("PhotonicRails")
            .AddTraceSource("Grant",
                            "A communication got its circuits.",
                            MakeTraceSourceAccessor(&OpusControlPlane::m_grantTrace),
                            "ns3::OpusControlPlane::GrantTracedCallback");
    return tid;
}

OpusControlPlane::OpusControlPlane()
{
    NS_LOG_FUNCTION(this);
}

OpusControlPlane::~OpusControlPlane()
{
    NS_LOG_FUNCTION(this);
}

void
OpusControlPlane::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_communicators.clear();
    Object::DoDispose();
}

void
OpusControlPlane::SetUpDemands(uint32_t gpusPerServer,
                               uint32_t portsPerGpu,
                               std::vector<Ptr<CollectiveCommunicator>> communicators)
{
    m_gpusPerServer = gpusPerServer;
    m_portsPerGpu = portsPerGpu;
    m_communicators = std::move(communicators);
}

std::string
OpusControlPlane::ShapeKey(const CollectiveCall& call, uint32_t rank) const
{
    std::ostringstream key;
    if (call.type == WorkloadOpType::SEND || call.type == WorkloadOpType::RECV)
    {
        bool send = call.type == WorkloadOpType::SEND;
        key << "p2p " << (send ? rank : call.peer) << '>' << (send ? call.peer : rank);
        return key.str();
    }
    return CollectiveCommunicator::ShapeKey(call);
}

std::shared_ptr<const OpusDemand>
OpusControlPlane::GetDemand(const CollectiveCall& call, uint32_t rank)
{
    NS_LOG_FUNCTION(this << call.instance << rank);
    std::string key = ShapeKey(call, rank);
    auto cached = m_demands.find(key);
    if (cached != m_demands.end())
    {
        return cached->second;
    }
    std::set<OpusDemand::Link> links;
    if (call.type == WorkloadOpType::SEND)
    {
        OpusDemand::AddMessage(rank, call.peer, m_gpusPerServer, links);
    }
    else if (call.type == WorkloadOpType::RECV)
    {
        OpusDemand::AddMessage(call.peer, rank, m_gpusPerServer, links);
    }
    else
    {
        std::vector<std::shared_ptr<const CollectivePlan>> plans;
        std::vector<std::pair<uint32_t, const CollectivePlan*>> members;
        for (uint32_t member : call.members)
        {
            plans.push_back(m_communicators.at(member)->GetPlan(call));
            members.emplace_back(member, plans.back().get());
        }
        OpusDemand::AddPlans(members, m_gpusPerServer, links);
    }
    auto demand = std::make_shared<const OpusDemand>(OpusDemand::Build(links, m_portsPerGpu));
    m_demands[key] = demand;
    return demand;
}

std::set<std::pair<uint32_t, uint32_t>>
OpusControlPlane::GpusOf(const OpusDemand& demand)
{
    std::set<std::pair<uint32_t, uint32_t>> gpus;
    for (const OpusCircuitNeed& need : demand.GetNeeds())
    {
        gpus.insert({need.rail, need.a});
        gpus.insert({need.rail, need.b});
    }
    return gpus;
}

void
OpusControlPlane::Grant(const std::string& instance,
                        Time ready,
                        const std::vector<GrantCallback>& grants)
{
    Time waited = Simulator::Now() - ready;
    if (waited.IsStrictlyPositive())
    {
        AddWait(instance, ready, Simulator::Now());
    }
    NS_LOG_INFO("grant " << instance << " after " << waited.As(Time::MS));
    m_grantTrace(instance, waited);
    for (const GrantCallback& grant : grants)
    {
        grant();
    }
}

void
OpusControlPlane::AddWait(const std::string& instance, Time from, Time to)
{
    m_waits.push_back(OpusWait{instance, from, to});
}

const std::vector<OpusWait>&
OpusControlPlane::GetWaits() const
{
    NS_LOG_FUNCTION(this);
    return m_waits;
}

const std::vector<OpusReconfigurationRecord>&
OpusControlPlane::GetReconfigurations() const
{
    NS_LOG_FUNCTION(this);
    return m_records;
}

Time
OpusControlPlane::GetWaitTime() const
{
    NS_LOG_FUNCTION(this);
    return GetWaitTime([](const OpusWait&) { return true; });
}

Time
OpusControlPlane::GetWaitTime(const std::function<bool(const OpusWait&)>& select) const
{
    NS_LOG_FUNCTION(this);
    std::vector<std::pair<Time, Time>> waits;
    for (const OpusWait& wait : m_waits)
    {
        if (select(wait))
        {
            waits.emplace_back(wait.from, wait.to);
        }
    }
    std::sort(waits.begin(), waits.end());
    Time total;
    Time coveredUntil;
    bool first = true;
    for (const auto& [from, to] : waits)
    {
        Time start = first ? from : std::max(from, coveredUntil);
        if (to > start)
        {
            total += to - start;
        }
        coveredUntil = first ? to : std::max(coveredUntil, to);
        first = false;
    }
    return total;
}

} // namespace ns3

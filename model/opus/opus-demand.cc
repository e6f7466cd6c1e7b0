/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-demand.h"

#include "ns3/log.h"
#include "ns3/rail-topology.h"

#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusDemand");

void
OpusDemand::AddMessage(uint32_t source,
                       uint32_t destination,
                       uint32_t gpusPerServer,
                       std::set<Link>& links)
{
    RailTopology topology(gpusPerServer);
    if (topology.SameServer(source, destination))
    {
        return; // scale-up domain
    }
    uint32_t proxy = topology.ProxyFor(source, destination);
    links.insert(
        {topology.RailOf(destination), std::min(proxy, destination), std::max(proxy, destination)});
}

void
OpusDemand::AddPlans(const std::vector<std::pair<uint32_t, const CollectivePlan*>>& plans,
                     uint32_t gpusPerServer,
                     std::set<Link>& links)
{
    for (const auto& [rank, plan] : plans)
    {
        for (const CollectiveTask& task : plan->tasks)
        {
            if (task.kind == CollectiveTask::SEND)
            {
                AddMessage(rank, task.peer, gpusPerServer, links);
            }
        }
    }
}

OpusDemand
OpusDemand::Build(const std::set<Link>& links, uint32_t portsPerGpu)
{
    if (portsPerGpu == 0)
    {
        throw std::invalid_argument("a GPU needs at least one NIC port on its rail");
    }
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> peers; // (rail, gpu) -> distinct peers
    for (const auto& [rail, a, b] : links)
    {
        ++peers[{rail, a}];
        ++peers[{rail, b}];
    }
    for (const auto& [railGpu, count] : peers)
    {
        if (count > portsPerGpu)
        {
            throw std::invalid_argument("GPU " + std::to_string(railGpu.second) +
                                        " needs circuits to " + std::to_string(count) +
                                        " peers on rail " + std::to_string(railGpu.first) +
                                        " at once but has " + std::to_string(portsPerGpu) +
                                        " NIC port(s): one circuit configuration cannot serve it");
        }
    }
    OpusDemand demand;
    for (const auto& [rail, a, b] : links)
    {
        uint32_t circuits =
            std::min(portsPerGpu / peers[{rail, a}], portsPerGpu / peers[{rail, b}]);
        demand.m_needs.push_back({rail, a, b, circuits});
    }
    return demand;
}

const std::vector<OpusCircuitNeed>&
OpusDemand::GetNeeds() const
{
    return m_needs;
}

bool
OpusDemand::IsEmpty() const
{
    return m_needs.empty();
}

std::vector<uint32_t>
OpusDemand::GetRails() const
{
    std::vector<uint32_t> rails;
    for (const OpusCircuitNeed& need : m_needs)
    {
        if (rails.empty() || rails.back() != need.rail)
        {
            rails.push_back(need.rail);
        }
    }
    return rails;
}

std::string
OpusDemand::GetKey() const
{
    std::string key;
    for (const OpusCircuitNeed& need : m_needs)
    {
        key += std::to_string(need.rail) + ':' + std::to_string(need.a) + '-' +
               std::to_string(need.b) + 'x' + std::to_string(need.circuits) + ' ';
    }
    return key;
}

} // namespace ns3

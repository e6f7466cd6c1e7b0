/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-plan-builder.h"

#include "ns3/rail-topology.h"

namespace ns3
{
namespace plan
{

Group::Group(const CollectiveRequest& request)
{
    if (!IsWorkloadCollective(request.type))
    {
        Reject(WorkloadOpTypeName(request.type) + " is not a collective");
    }
    if (request.gpusPerServer == 0 || request.channels == 0 || request.chunkBytes == 0)
    {
        Reject("gpusPerServer, channels and chunkBytes must be >= 1");
    }
    if (request.members.empty())
    {
        Reject("the group has no members");
    }
    std::map<uint32_t, uint32_t> position; // global rank -> group position
    for (uint32_t g = 0; g < request.members.size(); ++g)
    {
        if (!position.emplace(request.members[g], g).second)
        {
            Reject("rank " + std::to_string(request.members[g]) + " is twice in the group");
        }
    }
    for (const auto& [rank, g] : position)
    {
        ranks.push_back(rank);
        groupIndex.push_back(g);
    }
    auto find = [this](uint32_t rank, const std::string& who) {
        auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
        if (it == ranks.end() || *it != rank)
        {
            Reject(who + " " + std::to_string(rank) + " is not a member of the group");
        }
        return static_cast<uint32_t>(it - ranks.begin());
    };
    me = find(request.rank, "rank");
    if (request.type == WorkloadOpType::BROADCAST || request.type == WorkloadOpType::REDUCE)
    {
        root = find(request.root, "root");
    }
}

bool
Builder::CrossesServers(const Ring& ring) const
{
    for (std::size_t p = 0; p < ring.ranks.size(); ++p)
    {
        uint32_t next = ring.ranks[(p + 1) % ring.ranks.size()];
        if (!RailTopology(m_gpusPerServer).SameServer(ring.ranks[p], next))
        {
            return true;
        }
    }
    return false;
}

} // namespace plan
} // namespace ns3

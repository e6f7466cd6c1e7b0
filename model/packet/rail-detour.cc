/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-detour.h"

#include "ns3/log.h"
#include "ns3/ocs-net-device.h"
#include "ns3/optical-circuit-switch.h"

#include <deque>
#include <iterator>
#include <limits>
#include <set>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailDetour");

RailDetour::RailDetour(Ptr<const RailEndpoints> endpoints)
    : m_endpoints(endpoints)
{
}

template <typename Visit>
void
RailDetour::ForEachNeighbour(uint32_t gpu, std::set<uint32_t>& expanded, Visit visit) const
{
    const auto& ports = m_endpoints->GetPorts(gpu);
    for (uint32_t index = 0; index < ports.size(); ++index)
    {
        if (m_endpoints->IsPortDown(gpu, index))
        {
            continue;
        }
        if (Ptr<OcsNetDevice> optical = DynamicCast<OcsNetDevice>(ports[index]))
        {
            Ptr<OpticalCircuitSwitch> ocs = optical->GetSwitch();
            Ptr<OcsNetDevice> far = ocs ? ocs->GetCircuitPeer(optical->GetPort()) : nullptr;
            uint32_t peer = 0;
            uint32_t peerIndex = 0;
            if (far && m_endpoints->Find(far->GetAddress(), peer, peerIndex))
            {
                visit(peer); // GetCircuitPeer: lit, so both ends are live
            }
            continue;
        }
        uint32_t plane = m_endpoints->GetPlane(gpu, index);
        if (!expanded.insert(plane).second)
        {
            continue;
        }
        for (const auto& [member, memberIndex] : m_endpoints->GetPlaneMembers(plane))
        {
            if (member != gpu && !m_endpoints->IsPortDown(member, memberIndex))
            {
                visit(member);
            }
        }
    }
}

uint32_t
RailDetour::NextHop(uint32_t from, uint32_t to, const std::set<uint32_t>& avoid) const
{
    if (from == to)
    {
        return to;
    }
    // Hops to `to` from every GPU (links are symmetric), then a neighbour of `from` one hop
    // nearer. GPUs to avoid are left out, `from` aside.
    constexpr uint32_t FAR = std::numeric_limits<uint32_t>::max();
    auto usable = [&](uint32_t gpu) { return gpu == from || avoid.count(gpu) == 0; };
    std::vector<uint32_t> hops(m_endpoints->GetGpuCount(), FAR);
    std::set<uint32_t> expanded;
    std::deque<uint32_t> frontier{to};
    hops[to] = 0;
    while (!frontier.empty() && hops[from] == FAR)
    {
        uint32_t gpu = frontier.front();
        frontier.pop_front();
        ForEachNeighbour(gpu, expanded, [&](uint32_t next) {
            if (hops[next] == FAR && usable(next))
            {
                hops[next] = hops[gpu] + 1;
                frontier.push_back(next);
            }
        });
    }
    if (hops[from] == FAR)
    {
        NS_LOG_INFO("no working path from GPU " << from << " to GPU " << to);
        return NO_GPU;
    }
    std::set<uint32_t> nearer;
    std::set<uint32_t> none;
    ForEachNeighbour(from, none, [&](uint32_t next) {
        if (hops[next] != FAR && hops[next] + 1 == hops[from] && usable(next))
        {
            nearer.insert(next);
        }
    });
    // Spread over equal paths (e.g. the other rails around a dead one), the same every run.
    return nearer.empty() ? NO_GPU : *std::next(nearer.begin(), (from + to) % nearer.size());
}

} // namespace ns3

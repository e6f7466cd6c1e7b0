/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-rate-solver.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowRateSolver");

namespace
{

/// Orders the heap by smallest share first, then smallest link id, for determinism.
using ShareOrder = std::greater<std::pair<double, uint32_t>>;

} // namespace

FlowRateSolver::LinkId
FlowRateSolver::AddLink(double capacity)
{
    CheckCapacity(capacity);
    m_links.emplace_back();
    m_links.back().capacity = capacity;
    return static_cast<LinkId>(m_links.size() - 1);
}

void
FlowRateSolver::SetLinkCapacity(LinkId link, double capacity)
{
    CheckLink(link);
    CheckCapacity(capacity);
    m_links[link].capacity = capacity;
    Touch(link);
}

double
FlowRateSolver::GetLinkCapacity(LinkId link) const
{
    CheckLink(link);
    return m_links[link].capacity;
}

uint32_t
FlowRateSolver::GetLinkCount() const
{
    return static_cast<uint32_t>(m_links.size());
}

FlowRateSolver::FlowId
FlowRateSolver::AddFlow(const std::vector<LinkId>& path)
{
    CheckPath(path); // before any change, so a bad path leaves the solver as it was
    FlowId id = TakeSlot();
    Flow& flow = m_flows[id];
    flow.path = path;
    flow.places.resize(path.size());
    for (uint32_t hop = 0; hop < path.size(); ++hop)
    {
        std::vector<Crossing>& crossings = m_links[path[hop]].crossings;
        flow.places[hop] = static_cast<uint32_t>(crossings.size());
        crossings.push_back({id, hop});
        Touch(path[hop]);
    }
    flow.rate = 0;
    flow.active = true;
    flow.isNew = true;
    ++m_activeFlows;
    return id;
}

void
FlowRateSolver::RemoveFlow(FlowId flow)
{
    CheckActive(flow);
    Flow& f = m_flows[flow];
    for (uint32_t hop = 0; hop < f.path.size(); ++hop)
    {
        // Swap-removal: the last crossing takes this one's place and its flow learns where.
        std::vector<Crossing>& crossings = m_links[f.path[hop]].crossings;
        uint32_t place = f.places[hop];
        Crossing moved = crossings.back();
        crossings[place] = moved;
        m_flows[moved.flow].places[moved.hop] = place;
        crossings.pop_back();
        Touch(f.path[hop]);
    }
    f.path.clear(); // keeps the capacity for the slot's next flow
    f.places.clear();
    f.rate = 0;
    f.active = false;
    f.isNew = false;
    m_freeSlots.push_back(flow);
    --m_activeFlows;
}

bool
FlowRateSolver::IsActive(FlowId flow) const
{
    return flow < m_flows.size() && m_flows[flow].active;
}

const std::vector<FlowRateSolver::LinkId>&
FlowRateSolver::GetPath(FlowId flow) const
{
    CheckActive(flow);
    return m_flows[flow].path;
}

double
FlowRateSolver::GetRate(FlowId flow) const
{
    CheckActive(flow);
    return m_flows[flow].rate;
}

std::size_t
FlowRateSolver::GetFlowCount() const
{
    return m_activeFlows;
}

const std::vector<FlowRateSolver::FlowId>&
FlowRateSolver::Solve()
{
    m_changed.clear();
    CollectComponents();
    m_flowsSolved += m_componentFlows.size();
    PrepareFilling();
    Fill();
    std::sort(m_changed.begin(), m_changed.end());
    return m_changed;
}

uint64_t
FlowRateSolver::GetFlowsSolved() const
{
    return m_flowsSolved;
}

double
FlowRateSolver::GetLinkLoad(LinkId link) const
{
    CheckLink(link);
    double load = 0;
    for (const Crossing& c : m_links[link].crossings)
    {
        load += m_flows[c.flow].rate;
    }
    return load;
}

void
FlowRateSolver::CheckCapacity(double capacity)
{
    if (!std::isfinite(capacity) || capacity < 0)
    {
        throw std::invalid_argument("link capacity must be finite and >= 0");
    }
}

void
FlowRateSolver::CheckLink(LinkId link) const
{
    if (link >= m_links.size())
    {
        throw std::invalid_argument("no link " + std::to_string(link));
    }
}

void
FlowRateSolver::CheckActive(FlowId flow) const
{
    if (!IsActive(flow))
    {
        throw std::invalid_argument("no active flow " + std::to_string(flow));
    }
}

void
FlowRateSolver::CheckPath(const std::vector<LinkId>& path)
{
    if (path.empty())
    {
        throw std::invalid_argument("a flow crosses at least one link");
    }
    // A fresh epoch marks the links seen so far: repeats are found in O(path length).
    ++m_epoch;
    for (LinkId link : path)
    {
        CheckLink(link);
        if (m_links[link].visited == m_epoch)
        {
            throw std::invalid_argument("a flow crosses link " + std::to_string(link) + " twice");
        }
        m_links[link].visited = m_epoch;
    }
}

FlowRateSolver::FlowId
FlowRateSolver::TakeSlot()
{
    if (!m_freeSlots.empty())
    {
        FlowId id = m_freeSlots.back();
        m_freeSlots.pop_back();
        return id;
    }
    m_flows.emplace_back();
    return static_cast<FlowId>(m_flows.size() - 1);
}

void
FlowRateSolver::Touch(LinkId link)
{
    if (!m_links[link].touched)
    {
        m_links[link].touched = true;
        m_touched.push_back(link);
    }
}

void
FlowRateSolver::CollectComponents()
{
    ++m_epoch;
    m_componentLinks.clear();
    m_componentFlows.clear();
    for (LinkId link : m_touched)
    {
        m_links[link].touched = false;
        if (m_links[link].visited != m_epoch)
        {
            m_links[link].visited = m_epoch;
            m_componentLinks.push_back(link);
        }
    }
    m_touched.clear();
    // Breadth-first: the link list doubles as the queue.
    for (std::size_t next = 0; next < m_componentLinks.size(); ++next)
    {
        for (const Crossing& c : m_links[m_componentLinks[next]].crossings)
        {
            Flow& flow = m_flows[c.flow];
            if (flow.visited == m_epoch)
            {
                continue;
            }
            flow.visited = m_epoch;
            m_componentFlows.push_back(c.flow);
            for (LinkId link : flow.path)
            {
                if (m_links[link].visited != m_epoch)
                {
                    m_links[link].visited = m_epoch;
                    m_componentLinks.push_back(link);
                }
            }
        }
    }
}

void
FlowRateSolver::PrepareFilling()
{
    // Every flow on a component link is in the component, so all of them start unfrozen.
    m_heap.clear();
    for (LinkId link : m_componentLinks)
    {
        Link& l = m_links[link];
        l.remaining = l.capacity;
        l.unfrozen = static_cast<uint32_t>(l.crossings.size());
        if (l.unfrozen > 0)
        {
            m_heap.emplace_back(ShareOf(link), link);
        }
    }
    std::make_heap(m_heap.begin(), m_heap.end(), ShareOrder());
}

void
FlowRateSolver::Fill()
{
    // Each link has at most one heap entry. Freezing flows only raises the other links'
    // shares, so an entry's key is never above its link's share: a popped entry whose key
    // is current is the smallest share left; a stale one goes back with its current share.
    while (!m_heap.empty())
    {
        std::pop_heap(m_heap.begin(), m_heap.end(), ShareOrder());
        ShareEntry entry = m_heap.back();
        m_heap.pop_back();
        LinkId link = entry.second;
        if (m_links[link].unfrozen == 0)
        {
            continue;
        }
        double share = ShareOf(link);
        if (share != entry.first)
        {
            m_heap.emplace_back(share, link);
            std::push_heap(m_heap.begin(), m_heap.end(), ShareOrder());
            continue;
        }
        FreezeAt(link, share);
    }
}

double
FlowRateSolver::ShareOf(LinkId link) const
{
    const Link& l = m_links[link];
    return l.remaining / l.unfrozen;
}

void
FlowRateSolver::FreezeAt(LinkId link, double share)
{
    // Every flow gets the same share, so the order of the crossings (which depends on
    // history) does not change any result.
    for (const Crossing& c : m_links[link].crossings)
    {
        Flow& flow = m_flows[c.flow];
        if (flow.frozen == m_epoch)
        {
            continue;
        }
        flow.frozen = m_epoch;
        SetRate(c.flow, share);
        for (LinkId other : flow.path)
        {
            if (other != link)
            {
                Link& o = m_links[other];
                o.remaining = std::max(0.0, o.remaining - share); // rounding must not go < 0
                --o.unfrozen;
            }
        }
    }
    m_links[link].unfrozen = 0;
}

void
FlowRateSolver::SetRate(FlowId flow, double share)
{
    Flow& f = m_flows[flow];
    if (f.isNew || f.rate != share)
    {
        m_changed.push_back(flow);
    }
    f.rate = share;
    f.isNew = false;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-fault-state.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

void
FlowFaultState::Resize(std::size_t links)
{
    m_holds.resize(links, 0);
    m_routedAround.resize(links, false);
}

bool
FlowFaultState::Any() const
{
    return m_down > 0 || m_avoided > 0;
}

void
FlowFaultState::Hold(LinkId link, bool down)
{
    NS_ABORT_MSG_UNLESS(link < m_holds.size(), "FlowFaultState: no link " << link);
    uint32_t& holds = m_holds[link];
    NS_ABORT_MSG_IF(!down && holds == 0, "FlowFaultState: link " << link << " is not down");
    bool wasDown = holds > 0;
    holds = down ? holds + 1 : holds - 1;
    if (wasDown != (holds > 0))
    {
        m_down = down ? m_down + 1 : m_down - 1;
    }
}

bool
FlowFaultState::IsDown(LinkId link) const
{
    return m_down > 0 && m_holds[link] > 0;
}

bool
FlowFaultState::IsUp(const std::vector<LinkId>& path) const
{
    return std::none_of(path.begin(), path.end(), [this](LinkId l) { return IsDown(l); });
}

bool
FlowFaultState::IsRoutedAround(LinkId link) const
{
    return m_avoided > 0 && m_routedAround[link];
}

void
FlowFaultState::Reroute()
{
    m_avoided = 0;
    for (std::size_t link = 0; link < m_holds.size(); ++link)
    {
        m_routedAround[link] = m_holds[link] > 0;
        m_avoided += m_routedAround[link] ? 1 : 0;
    }
}

void
FlowFaultState::SetDetour(uint32_t a, uint32_t b, bool detour)
{
    auto pair = std::minmax(a, b);
    if (detour)
    {
        m_detour.insert(pair);
    }
    else
    {
        m_detour.erase(pair);
    }
}

bool
FlowFaultState::IsDetoured(uint32_t a, uint32_t b) const
{
    return !m_detour.empty() && m_detour.count(std::minmax(a, b)) > 0;
}

} // namespace ns3

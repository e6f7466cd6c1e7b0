/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "eps-routing.h"

#include "eps-switch.h"

#include "ns3/eps-net-device.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <deque>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EpsRouting");

NS_OBJECT_ENSURE_REGISTERED(EpsRouting);

TypeId
EpsRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EpsRouting")
            .SetParent<Object>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<EpsRouting>()
            .AddAttribute("DetectionDelay",
                          "Time from a link going down (or up) to routes that avoid (or use) "
                          "it: failure detection plus routing reconvergence. An assumption of "
                          "the order of a BFD detection time, not a measured value.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&EpsRouting::m_detectionDelay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Rerouted",
                            "The routes were recomputed after a link went down or came up.",
                            MakeTraceSourceAccessor(&EpsRouting::m_reroutedTrace),
                            "ns3::EpsRouting::ReroutedTracedCallback");
    return tid;
}

EpsRouting::EpsRouting()
{
    NS_LOG_FUNCTION(this);
}

EpsRouting::~EpsRouting()
{
    NS_LOG_FUNCTION(this);
}

void
EpsRouting::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_pending.Cancel();
    m_switches.clear();
    Object::DoDispose();
}

void
EpsRouting::SetSwitches(const std::vector<Ptr<EpsSwitch>>& switches)
{
    NS_LOG_FUNCTION(this << switches.size());
    m_switches = switches;
    std::map<uint32_t, int32_t> byNode;
    for (uint32_t i = 0; i < switches.size(); ++i)
    {
        byNode[switches[i]->GetPortDevice(0)->GetNode()->GetId()] = i;
    }
    m_links.assign(switches.size(), {});
    for (uint32_t i = 0; i < switches.size(); ++i)
    {
        for (uint32_t port = 0; port < switches[i]->GetNPorts(); ++port)
        {
            Ptr<EpsNetDevice> device = switches[i]->GetPortDevice(port);
            Ptr<EpsNetDevice> far = device->GetPeer();
            auto other = far ? byNode.find(far->GetNode()->GetId()) : byNode.end();
            m_links[i].push_back(other == byNode.end() ? -1 : other->second);
            device->AddLinkChangeCallback(MakeCallback(&EpsRouting::OnLinkChange, this));
        }
    }
}

Time
EpsRouting::GetDetectionDelay() const
{
    NS_LOG_FUNCTION(this);
    return m_detectionDelay;
}

uint32_t
EpsRouting::GetRecomputations() const
{
    NS_LOG_FUNCTION(this);
    return m_recomputations;
}

const std::vector<Time>&
EpsRouting::GetReroutes() const
{
    NS_LOG_FUNCTION(this);
    return m_reroutes;
}

void
EpsRouting::OnLinkChange()
{
    // Both ends of a cable report, and a switch failure cuts many: one recomputation.
    if (!m_pending.IsRunning())
    {
        m_pending = Simulator::Schedule(m_detectionDelay, [this]() {
            ++m_recomputations;
            if (Recompute())
            {
                m_reroutes.push_back(Simulator::Now());
                m_reroutedTrace();
            }
        });
    }
}

int32_t
EpsRouting::NeighbourOf(uint32_t sw, uint32_t port) const
{
    return m_links[sw][port];
}

std::vector<int32_t>
EpsRouting::Distances(uint32_t target) const
{
    std::vector<int32_t> distance(m_switches.size(), -1);
    std::deque<uint32_t> frontier{target};
    distance[target] = 0;
    while (!frontier.empty())
    {
        uint32_t sw = frontier.front();
        frontier.pop_front();
        for (uint32_t port = 0; port < m_links[sw].size(); ++port)
        {
            int32_t next = NeighbourOf(sw, port);
            if (next >= 0 && distance[next] < 0 && m_switches[sw]->GetPortDevice(port)->IsLinkUp())
            {
                distance[next] = distance[sw] + 1;
                frontier.push_back(next);
            }
        }
    }
    return distance;
}

bool
EpsRouting::Recompute()
{
    NS_LOG_FUNCTION(this);
    bool changed = false;
    auto install = [&changed](Ptr<EpsSwitch> sw, Mac48Address mac, std::vector<uint32_t> ports) {
        if (sw->GetRoute(mac) == ports)
        {
            return;
        }
        changed = true;
        ports.empty() ? sw->RemoveRoute(mac) : sw->AddRoute(mac, ports);
    };
    for (uint32_t home = 0; home < m_switches.size(); ++home)
    {
        std::vector<int32_t> distance = Distances(home);
        for (uint32_t hostPort = 0; hostPort < m_links[home].size(); ++hostPort)
        {
            Ptr<EpsNetDevice> host = m_switches[home]->GetPortDevice(hostPort)->GetPeer();
            if (NeighbourOf(home, hostPort) >= 0 || !host)
            {
                continue;
            }
            Mac48Address mac = Mac48Address::ConvertFrom(host->GetAddress());
            install(m_switches[home], mac, {hostPort});
            for (uint32_t sw = 0; sw < m_switches.size(); ++sw)
            {
                if (sw == home)
                {
                    continue;
                }
                std::vector<uint32_t> ports;
                for (uint32_t port = 0; distance[sw] > 0 && port < m_links[sw].size(); ++port)
                {
                    int32_t next = NeighbourOf(sw, port);
                    if (next >= 0 && distance[next] == distance[sw] - 1 &&
                        m_switches[sw]->GetPortDevice(port)->IsLinkUp())
                    {
                        ports.push_back(port);
                    }
                }
                install(m_switches[sw], mac, ports);
            }
        }
    }
    return changed;
}

} // namespace ns3

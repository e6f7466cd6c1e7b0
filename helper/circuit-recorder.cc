/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "circuit-recorder.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CircuitRecorder");

void
CircuitRecorder::Attach(const std::vector<Ptr<OpticalCircuitSwitch>>& switches)
{
    m_ports.assign(switches.size(), {});
    for (uint32_t rail = 0; rail < switches.size(); ++rail)
    {
        m_ports[rail].assign(switches[rail]->GetRadix(), PortState{});
        switches[rail]->TraceConnectWithoutContext(
            "CircuitUp",
            MakeCallback(&CircuitRecorder::Up, this).Bind(rail));
        switches[rail]->TraceConnectWithoutContext(
            "CircuitDown",
            MakeCallback(&CircuitRecorder::Down, this).Bind(rail));
    }
}

void
CircuitRecorder::Up(uint32_t rail, uint32_t input, uint32_t /* output */)
{
    PortState& port = m_ports[rail][input];
    if (port.upSince.IsStrictlyNegative())
    {
        port.upSince = Simulator::Now();
    }
}

void
CircuitRecorder::Down(uint32_t rail, uint32_t input, uint32_t /* output */)
{
    PortState& port = m_ports[rail][input];
    if (!port.upSince.IsStrictlyNegative())
    {
        port.intervals.emplace_back(port.upSince, Simulator::Now());
        port.upSince = Time(-1);
    }
}

Time
CircuitRecorder::GetUpTime(uint32_t rail, uint32_t port, Time until) const
{
    const PortState& state = m_ports.at(rail).at(port);
    Time total;
    auto add = [&](Time from, Time to) {
        to = std::min(to, until);
        if (to > from)
        {
            total += to - from;
        }
    };
    for (const auto& [from, to] : state.intervals)
    {
        add(from, to);
    }
    if (!state.upSince.IsStrictlyNegative())
    {
        add(state.upSince, until);
    }
    return total;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "controller-failover.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/opus-controller.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ControllerFailover");

ControllerFailover::ControllerFailover(const FaultSchedule& schedule, Time failover)
    : m_failover(failover)
{
    for (const Fault& fault : schedule.GetFaults())
    {
        if (fault.kind == Fault::CONTROLLER)
        {
            m_faults.push_back(fault);
        }
        else
        {
            m_others.Add(fault);
        }
    }
    if (m_faults.empty())
    {
        m_others = schedule; // untouched: the runs without controller faults stay the same
    }
    m_outages = Outages(m_faults, failover);
    for (const Fault& fault : m_faults)
    {
        Time takeover = TakeoverOf(fault, failover);
        m_events.push_back({fault.down, fault.part, "down"});
        if (takeover < fault.up)
        {
            m_events.push_back({takeover, fault.part, "standby takes over"});
        }
        if (fault.IsRepaired())
        {
            m_events.push_back({fault.up, fault.part, "up"});
        }
    }
    std::stable_sort(m_events.begin(), m_events.end(), [](const auto& a, const auto& b) {
        return a.at < b.at;
    });
}

bool
ControllerFailover::IsEmpty() const
{
    return m_faults.empty();
}

const FaultSchedule&
ControllerFailover::GetOtherFaults() const
{
    return m_others;
}

Time
ControllerFailover::TakeoverOf(const Fault& fault, Time failover)
{
    // Compared without adding: down + failover could pass ns-3's clock.
    return failover < Time::Max() - fault.down ? std::min(fault.down + failover, fault.up)
                                               : fault.up;
}

std::vector<ControllerFailover::Outage>
ControllerFailover::Outages(const std::vector<Fault>& faults, Time failover)
{
    std::vector<Outage> spans;
    for (const Fault& fault : faults)
    {
        spans.emplace_back(fault.down, TakeoverOf(fault, failover));
    }
    std::stable_sort(spans.begin(), spans.end());
    std::vector<Outage> merged;
    for (const Outage& span : spans)
    {
        if (span.second <= span.first)
        {
            continue; // a zero failover: the standby takes over at once
        }
        if (!merged.empty() && span.first <= merged.back().second)
        {
            merged.back().second = std::max(merged.back().second, span.second);
            continue;
        }
        merged.push_back(span);
    }
    return merged;
}

void
ControllerFailover::Schedule(Ptr<OpusController> controller)
{
    if (m_faults.empty())
    {
        return;
    }
    NS_ABORT_MSG_UNLESS(controller, "ControllerFailover: controller faults without Opus");
    m_controller = controller;
    for (const Outage& outage : m_outages)
    {
        NS_LOG_INFO("controller down over [" << outage.first.As(Time::S) << ", "
                                             << outage.second.As(Time::S) << "]");
        Simulator::Schedule(outage.first, &OpusController::Fail, controller);
        if (outage.second != Time::Max())
        {
            Simulator::Schedule(outage.second, &OpusController::TakeOver, controller);
        }
    }
}

const std::vector<ControllerFailover::Outage>&
ControllerFailover::GetOutages() const
{
    return m_outages;
}

const std::vector<FaultInjector::Event>&
ControllerFailover::GetEvents() const
{
    return m_events;
}

Time
ControllerFailover::GetFailover() const
{
    return m_failover;
}

Time
ControllerFailover::GetStall() const
{
    return m_controller ? m_controller->GetStall() : Time(0);
}

uint64_t
ControllerFailover::GetHeldMessages() const
{
    return m_controller ? m_controller->GetHeldMessages() : 0;
}

void
ControllerFailover::WriteCsv(std::ostream& os,
                             const FaultInjector* injector,
                             const ControllerFailover& failover)
{
    std::vector<FaultInjector::Event> events =
        injector ? injector->GetEvents() : std::vector<FaultInjector::Event>();
    events.insert(events.end(), failover.GetEvents().begin(), failover.GetEvents().end());
    std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
        return a.at < b.at;
    });
    os << "time_s,part,event\n" << std::setprecision(12);
    for (const FaultInjector::Event& e : events)
    {
        os << e.at.GetSeconds() << ',' << e.part << ',' << e.event << '\n';
    }
}

} // namespace ns3

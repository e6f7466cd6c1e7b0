/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-network.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowNetwork");

NS_OBJECT_ENSURE_REGISTERED(FlowNetwork);

TypeId
FlowNetwork::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowNetwork")
                            .SetParent<Object>()
                            .SetGroupName("PhotonicRails")
                            .AddConstructor<FlowNetwork>();
    return tid;
}

void
FlowNetwork::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (Transfer& t : m_transfers)
    {
        t.drain.Cancel();
        t.drained = DrainedCallback();
    }
    m_solveEvent.Cancel();
    m_transfers.clear();
    m_connections.clear();
    Object::DoDispose();
}

FlowNetwork::LinkId
FlowNetwork::AddLink(double bytesPerSecond)
{
    NS_LOG_FUNCTION(this << bytesPerSecond);
    return m_solver.AddLink(bytesPerSecond);
}

double
FlowNetwork::GetLinkCapacity(LinkId link) const
{
    NS_LOG_FUNCTION(this << link);
    return m_solver.GetLinkCapacity(link);
}

FlowNetwork::TransferId
FlowNetwork::Start(const std::vector<LinkId>& path,
                   uint64_t bytes,
                   uint64_t connection,
                   const DrainedCallback& drained,
                   uint64_t tag)
{
    NS_LOG_FUNCTION(this << bytes << connection << tag);
    NS_ABORT_MSG_IF(bytes == 0, "FlowNetwork::Start: a transfer has at least one byte");
    TransferId id;
    if (m_free.empty())
    {
        id = m_transfers.size();
        m_transfers.emplace_back();
    }
    else
    {
        id = m_free.back();
        m_free.pop_back();
    }
    Transfer& t = m_transfers[id];
    t.active = true;
    t.paused = false;
    t.rate = 0;
    t.flow = NO_FLOW;
    t.remaining = static_cast<double>(bytes);
    t.since = Simulator::Now();
    t.path.assign(path.begin(), path.end()); // keeps the slot's capacity
    t.connection = connection;
    t.drained = drained;
    t.tag = tag;
    ++m_active;
    m_connections[connection].push_back(id);
    RunIfFirst(id);
    return id;
}

void
FlowNetwork::RunIfFirst(TransferId id)
{
    Transfer& t = Get(id);
    if (t.paused || t.flow != NO_FLOW || m_connections.at(t.connection).front() != id)
    {
        return;
    }
    t.since = Simulator::Now();
    t.flow = m_solver.AddFlow(t.path);
    if (m_transferOfFlow.size() <= t.flow)
    {
        m_transferOfFlow.resize(t.flow + 1, 0);
    }
    m_transferOfFlow[t.flow] = id;
    RequestSolve();
}

void
FlowNetwork::Pause(TransferId id)
{
    NS_LOG_FUNCTION(this << id);
    Transfer& t = Get(id);
    t.paused = true;
    if (t.flow == NO_FLOW)
    {
        return;
    }
    if (t.drain.IsRunning() &&
        t.drain.GetTs() == static_cast<uint64_t>(Simulator::Now().GetTimeStep()))
    {
        return; // its last byte is through at this very instant: it drains
    }
    SetRate(id, 0);
    m_solver.RemoveFlow(t.flow);
    t.flow = NO_FLOW;
    RequestSolve();
}

void
FlowNetwork::Resume(TransferId id, const std::vector<LinkId>& path)
{
    NS_LOG_FUNCTION(this << id);
    Transfer& t = Get(id);
    NS_ABORT_MSG_UNLESS(t.paused, "FlowNetwork::Resume: transfer " << id << " is not paused");
    t.paused = false;
    t.path = path;
    RunIfFirst(id);
}

bool
FlowNetwork::IsPaused(TransferId id) const
{
    NS_LOG_FUNCTION(this << id);
    return m_transfers.at(id).paused;
}

double
FlowNetwork::GetRate(TransferId id) const
{
    NS_LOG_FUNCTION(this << id);
    return m_transfers.at(id).rate;
}

uint64_t
FlowNetwork::GetBytesLeft(TransferId id) const
{
    NS_LOG_FUNCTION(this << id);
    const Transfer& t = m_transfers.at(id);
    double left = t.remaining - t.rate * (Simulator::Now() - t.since).GetSeconds();
    return static_cast<uint64_t>(std::ceil(std::max(0.0, left) - 1e-6));
}

std::size_t
FlowNetwork::GetTransferCount() const
{
    NS_LOG_FUNCTION(this);
    return m_active;
}

uint64_t
FlowNetwork::GetRatesSolved() const
{
    NS_LOG_FUNCTION(this);
    return m_solver.GetFlowsSolved();
}

void
FlowNetwork::RequestSolve()
{
    // Changes at one instant (a collective's step starts many transfers at once) share one
    // solve, scheduled after them.
    if (!m_solvePending)
    {
        m_solvePending = true;
        m_solveEvent = Simulator::ScheduleNow(&FlowNetwork::Solve, this);
    }
}

void
FlowNetwork::Solve()
{
    m_solvePending = false;
    for (FlowRateSolver::FlowId flow : m_solver.Solve())
    {
        SetRate(m_transferOfFlow[flow], m_solver.GetRate(flow));
    }
}

void
FlowNetwork::Advance(Transfer& t)
{
    Time now = Simulator::Now();
    t.remaining = std::max(0.0, t.remaining - t.rate * (now - t.since).GetSeconds());
    t.since = now;
}

void
FlowNetwork::SetRate(TransferId id, double rate)
{
    Transfer& t = Get(id);
    Advance(t);
    t.rate = rate;
    t.drain.Cancel();
    if (rate <= 0)
    {
        return;
    }
    // Whole nanoseconds, rounded up, except where the quotient is an integer up to
    // floating-point noise (a closed form's exact time stays exact): never early.
    double ns = t.remaining / rate * 1e9;
    double nearest = std::round(ns);
    int64_t delay = std::abs(ns - nearest) <= 1e-9 * std::max(1.0, ns)
                        ? static_cast<int64_t>(nearest)
                        : static_cast<int64_t>(std::ceil(ns));
    t.drain = Simulator::Schedule(NanoSeconds(delay), &FlowNetwork::Drain, this, id);
}

void
FlowNetwork::Drain(TransferId id)
{
    Transfer& t = Get(id);
    m_solver.RemoveFlow(t.flow);
    DrainedCallback drained = t.drained;
    uint64_t tag = t.tag;
    Release(id);
    RequestSolve();
    drained(tag);
}

uint64_t
FlowNetwork::Withdraw(TransferId id)
{
    NS_LOG_FUNCTION(this << id);
    Transfer& t = Get(id);
    NS_ABORT_MSG_UNLESS(t.paused, "FlowNetwork::Withdraw: transfer " << id << " is not paused");
    if (t.flow != NO_FLOW)
    {
        return 0; // its last byte is through at this very instant (Pause): it drains
    }
    uint64_t left = static_cast<uint64_t>(std::ceil(t.remaining - 1e-6));
    Release(id);
    return left;
}

void
FlowNetwork::Release(TransferId id)
{
    Transfer& t = Get(id);
    auto connection = m_connections.find(t.connection);
    auto& queue = connection->second;
    queue.erase(std::find(queue.begin(), queue.end(), id));
    if (queue.empty())
    {
        m_connections.erase(connection);
    }
    else
    {
        RunIfFirst(queue.front());
    }
    t.active = false;
    t.flow = NO_FLOW;
    t.drain = EventId();
    t.drained = DrainedCallback();
    m_free.push_back(id);
    --m_active;
}

FlowNetwork::Transfer&
FlowNetwork::Get(TransferId id)
{
    NS_ABORT_MSG_UNLESS(id < m_transfers.size() && m_transfers[id].active,
                        "FlowNetwork: no transfer " << id);
    return m_transfers[id];
}

} // namespace ns3

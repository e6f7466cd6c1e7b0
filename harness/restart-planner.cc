/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "restart-planner.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RestartPlanner");

namespace
{

/// \return where \p server is in \p placement, or placement.size() if it runs no rank
std::size_t
Slot(const std::vector<uint32_t>& placement, uint32_t server)
{
    return std::find(placement.begin(), placement.end(), server) - placement.begin();
}

/// \return \p seconds as a short text ("2.5 s")
std::string
SecondsText(double seconds)
{
    std::ostringstream text;
    text << seconds << " s";
    return text.str();
}

} // namespace

RestartPlanner::RestartPlanner(const RestartPolicy& policy,
                               uint32_t jobServers,
                               uint32_t fabricServers,
                               uint64_t iterations,
                               Time swapReconfiguration,
                               uint32_t rails,
                               uint32_t ranks)
    : m_policy(policy),
      m_jobServers(jobServers),
      m_fabricServers(fabricServers),
      m_iterations(iterations),
      m_swapS(swapReconfiguration.GetSeconds()),
      m_rails(rails),
      m_ranks(ranks)
{
}

uint32_t
RestartOutcome::Restarts() const
{
    return attempts > 0 ? attempts - 1 : 0;
}

bool
RestartPlanner::IsUp(uint32_t server, double when, const std::vector<Fault>& failures)
{
    return std::none_of(failures.begin(), failures.end(), [server, when](const Fault& f) {
        return f.server == server && f.down.GetSeconds() <= when &&
               (!f.IsRepaired() || when < f.up.GetSeconds());
    });
}

double
RestartPlanner::UpAgain(uint32_t server, double when, const std::vector<Fault>& failures)
{
    // Overlapping failures of one server: up once the last that covers the time is repaired.
    for (bool moved = true; moved;)
    {
        moved = false;
        for (const Fault& f : failures)
        {
            bool covers = f.server == server && f.down.GetSeconds() <= when &&
                          (!f.IsRepaired() || when < f.up.GetSeconds());
            if (covers && !f.IsRepaired())
            {
                return std::numeric_limits<double>::infinity();
            }
            if (covers)
            {
                when = f.up.GetSeconds();
                moved = true;
            }
        }
    }
    return when;
}

bool
RestartPlanner::StrikesJob(const Fault& fault, const Placement& placement) const
{
    std::size_t slot = Slot(placement.servers, fault.server);
    if (slot == placement.servers.size() || fault.down.GetSeconds() < placement.since[slot])
    {
        return false; // a server running none of its ranks then
    }
    // A GPU past the job's last rank runs nothing.
    return fault.kind != Fault::GPU || slot * m_rails + fault.gpu % m_rails < m_ranks;
}

void
RestartPlanner::Recover(const Fault& fault,
                        const std::vector<Fault>& failures,
                        Placement& placement,
                        double earliestOrder,
                        RestartRecord& record) const
{
    record.part = fault.part;
    record.server = fault.server;
    record.failedS = fault.down.GetSeconds();
    record.detectedS = record.failedS + m_policy.failureDetectionTime.GetSeconds();
    uint32_t spare = m_fabricServers;
    for (uint32_t s = 0; m_policy.action == RestartPolicy::SWAP && s < m_fabricServers; ++s)
    {
        if (s != fault.server && Slot(placement.servers, s) == placement.servers.size() &&
            IsUp(s, record.detectedS, failures))
        {
            spare = s;
            break;
        }
    }
    std::size_t slot = Slot(placement.servers, fault.server);
    if (spare < m_fabricServers)
    {
        record.replacement = spare;
        record.orderedS = std::max(earliestOrder, record.detectedS + m_swapS);
        record.reconfigurations = m_swapS > 0 ? m_rails : 0;
        placement.servers[slot] = spare;
        placement.since[slot] = record.detectedS; // it was up then: earlier failures are over
    }
    else
    {
        double up = UpAgain(fault.server, record.detectedS, failures);
        if (std::isinf(up))
        {
            throw std::runtime_error(
                "server " + std::to_string(fault.server) + " (" + fault.part + ") fails at " +
                SecondsText(record.failedS) + " and is never repaired" +
                (m_policy.action == RestartPolicy::SWAP ? ", and no spare server is up" : "") +
                ": give it a repair time (" + fault.part +
                "@DOWN-UP) or spares "
                "(--onServerFailure=swap --spareServers=N)");
        }
        record.replacement = fault.server;
        record.orderedS = std::max(earliestOrder, up);
    }
    record.resumedS = record.orderedS + m_policy.restoreTimeTime.GetSeconds();
    NS_LOG_INFO(fault.part << " at " << record.failedS << " s: ranks restart on server "
                           << record.replacement << " at " << record.resumedS << " s");
}

RestartOutcome
RestartPlanner::Run(const std::vector<Fault>& schedule, const Attempt& attempt) const
{
    std::vector<Fault> failures = schedule;
    for (Fault& fault : failures)
    {
        fault.server = fault.kind == Fault::GPU ? fault.gpu / m_rails : fault.server;
    }
    RestartOutcome out;
    Placement placement;
    placement.servers.resize(m_jobServers);
    std::iota(placement.servers.begin(), placement.servers.end(), 0);
    placement.since.assign(m_jobServers, 0.0);
    double start = 0;  // the attempt's, seconds
    uint64_t done = 0; // iterations kept by the last checkpoint
    std::size_t next = 0;
    while (true)
    {
        std::vector<double> ends = attempt(placement.servers, m_iterations - done);
        ++out.attempts;
        double finish = start + (ends.empty() ? 0.0 : ends.back());
        out.noFailureS = out.attempts == 1 ? finish : out.noFailureS;
        const Fault* strike = nullptr;
        for (; next < failures.size() && failures[next].down.GetSeconds() < finish; ++next)
        {
            if (StrikesJob(failures[next], placement))
            {
                strike = &failures[next++];
                break;
            }
            out.idle.push_back(failures[next].part);
        }
        if (strike == nullptr)
        {
            out.endS = finish;
            for (; next < failures.size(); ++next)
            {
                out.afterEnd.push_back(failures[next].part);
            }
            return out;
        }
        // The job ran from start to the failure: what its last checkpoint kept, it keeps.
        double ran = strike->down.GetSeconds() - start;
        uint64_t finished = std::upper_bound(ends.begin(), ends.end(), ran) - ends.begin();
        uint64_t interval = m_policy.checkpointInterval;
        uint64_t checkpoint =
            interval > 0 ? std::max(done, (done + finished) / interval * interval) : done;
        RestartRecord first;
        first.checkpoint = checkpoint;
        first.lostIterations = done + finished - checkpoint;
        first.lostWorkS = ran - (checkpoint > done ? ends[checkpoint - done - 1] : 0.0);
        Recover(*strike, failures, placement, 0, first);
        std::size_t episode = out.restarts.size();
        out.restarts.push_back(first);
        // Failures while the job is down delay its restart in turn.
        double order = first.orderedS;
        double resumed = first.resumedS;
        for (; next < failures.size() && failures[next].down.GetSeconds() < resumed; ++next)
        {
            if (!StrikesJob(failures[next], placement))
            {
                out.idle.push_back(failures[next].part);
                continue;
            }
            RestartRecord again;
            again.checkpoint = checkpoint;
            Recover(failures[next], failures, placement, order, again);
            order = again.orderedS;
            resumed = again.resumedS;
            out.restarts.push_back(again);
        }
        for (std::size_t i = episode; i < out.restarts.size(); ++i)
        {
            out.restarts[i].resumedS = resumed; // training starts again once, for all
        }
        out.lostWorkS += first.lostWorkS;
        out.downS += resumed - first.failedS;
        start = resumed;
        done = checkpoint;
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-reconfiguration-batcher.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusReconfigurationBatcher");

OpusReconfigurationBatcher::OpusReconfigurationBatcher(
    std::vector<OpusReconfigurationRecord>& records,
    const OpusPortAssigner& targets)
    : m_records(records),
      m_targets(targets)
{
}

void
OpusReconfigurationBatcher::SetTables(std::vector<Ptr<OcsCircuitTable>> tables)
{
    m_tables = std::move(tables);
}

void
OpusReconfigurationBatcher::SetControlLatency(Time latency)
{
    m_controlLatency = latency;
}

Time
OpusReconfigurationBatcher::GetControlLatency() const
{
    return m_controlLatency;
}

void
OpusReconfigurationBatcher::SetBatchWindow(Time window)
{
    m_batchWindow = window;
}

Time
OpusReconfigurationBatcher::GetBatchWindow() const
{
    return m_batchWindow;
}

void
OpusReconfigurationBatcher::SetBatching(bool batching)
{
    m_batching = batching;
}

bool
OpusReconfigurationBatcher::GetBatching() const
{
    return m_batching;
}

void
OpusReconfigurationBatcher::SetBlackoutListener(BlackoutListener listener)
{
    m_blackoutListener = std::move(listener);
}

bool
OpusReconfigurationBatcher::Batches(uint32_t rail) const
{
    return m_batching && rail < m_tables.size() && m_tables[rail]->IsWholeSwitch();
}

uint64_t
OpusReconfigurationBatcher::Joinable(uint32_t rail) const
{
    // The newest reconfiguration of the rail is the only one that can still be open.
    for (auto it = m_inFlight.rbegin(); it != m_inFlight.rend(); ++it)
    {
        if (it->second.rail == rail)
        {
            // Batching: open until it is handed to the OCS, however late the change comes.
            bool inWindow = Batches(rail) || Simulator::Now() - it->second.ordered <= m_batchWindow;
            bool open = !it->second.issued && inWindow;
            return open ? it->first : NONE;
        }
    }
    return NONE;
}

uint64_t
OpusReconfigurationBatcher::Order(uint32_t rail,
                                  const OcsConnections& connections,
                                  const std::string& group,
                                  bool speculative)
{
    uint64_t id = Joinable(rail);
    if (id == NONE)
    {
        id = m_records.size();
        OpusReconfigurationRecord record;
        record.rail = rail;
        record.requested = Simulator::Now();
        record.speculative = true; // until a request joins it
        m_records.push_back(record);
        InFlight& reconfiguration = m_inFlight[id];
        reconfiguration.rail = rail;
        reconfiguration.ordered = Simulator::Now();
        Simulator::Schedule(m_batchWindow + m_controlLatency,
                            &OpusReconfigurationBatcher::Issue,
                            this,
                            id);
    }
    OpusReconfigurationRecord& record = m_records[id];
    if (std::find(record.groups.begin(), record.groups.end(), group) == record.groups.end())
    {
        record.groups.push_back(group);
    }
    record.speculative = record.speculative && speculative;
    record.used =
        !record.speculative; // a speculative setup is used once its communication runs on it
    // Applied in order, so a later change of the same instant overrides an earlier one:
    // planning saw the earlier one's configuration.
    InFlight& reconfiguration = m_inFlight[id];
    for (const auto& [input, output] : connections)
    {
        reconfiguration.connections[input] = output;
        reconfiguration.ports.insert(input);
    }
    return id;
}

void
OpusReconfigurationBatcher::AddWaiter(uint64_t id, std::function<void()> waiter)
{
    m_inFlight.at(id).waiters.push_back(std::move(waiter));
}

std::vector<uint64_t>
OpusReconfigurationBatcher::InFlightOn(uint32_t rail, const std::set<uint32_t>& ports) const
{
    std::vector<uint64_t> ids;
    for (const auto& [id, reconfiguration] : m_inFlight)
    {
        bool overlaps = reconfiguration.rail == rail &&
                        std::any_of(ports.begin(), ports.end(), [&](uint32_t p) {
                            return reconfiguration.ports.count(p) > 0;
                        });
        if (overlaps)
        {
            ids.push_back(id);
        }
    }
    return ids;
}

void
OpusReconfigurationBatcher::MarkSpeculativeInTheWay(uint32_t rail,
                                                    const OcsConnections& connections,
                                                    uint64_t joined)
{
    for (const auto& [id, reconfiguration] : m_inFlight)
    {
        bool inTheWay = id != joined && reconfiguration.rail == rail && m_records[id].speculative &&
                        std::any_of(connections.begin(), connections.end(), [&](const auto& c) {
                            return reconfiguration.ports.count(c.first) > 0;
                        });
        m_records[id].delayedRequest = m_records[id].delayedRequest || inTheWay;
    }
}

bool
OpusReconfigurationBatcher::Switching(uint32_t rail, uint64_t id) const
{
    return std::any_of(m_inFlight.begin(), m_inFlight.end(), [&](const auto& entry) {
        return entry.first != id && entry.second.rail == rail && entry.second.issued &&
               entry.second.attempts < 2;
    });
}

void
OpusReconfigurationBatcher::IssueHeld(uint32_t rail)
{
    for (auto& [id, reconfiguration] : m_inFlight)
    {
        if (reconfiguration.rail == rail && reconfiguration.held)
        {
            reconfiguration.held = false;
            Issue(id);
            return;
        }
    }
}

OcsRequestResult
OpusReconfigurationBatcher::Send(uint64_t id, uint32_t rail, const OcsConnections& connections)
{
    Ptr<OcsCircuitTable> table = m_tables[rail];
    OcsCircuitTable::DoneCallback started;
    if (table->IsWholeSwitch())
    {
        started = MakeCallback(&OpusReconfigurationBatcher::Darkened, this).Bind(rail);
    }
    return table->Reconfigure(connections,
                              MakeCallback(&OpusReconfigurationBatcher::Switched, this).Bind(id),
                              started);
}

void
OpusReconfigurationBatcher::Darkened(uint32_t rail, const OcsReconfiguration& info)
{
    if (m_blackoutListener)
    {
        m_blackoutListener(rail,
                           info.startedAt,
                           info.startedAt + m_tables[rail]->GetReconfigurationDelay());
    }
}

void
OpusReconfigurationBatcher::Issue(uint64_t id)
{
    InFlight& reconfiguration = m_inFlight.at(id);
    if (Batches(reconfiguration.rail) && Switching(reconfiguration.rail, id))
    {
        // The OCS would queue it behind the one switching: hold it here instead, where
        // the changes ordered meanwhile can still join it (one blackout for all of them).
        reconfiguration.held = true;
        return;
    }
    reconfiguration.issued = true;
    OcsRequestResult result = Send(id, reconfiguration.rail, reconfiguration.connections);
    NS_ABORT_MSG_UNLESS(result.accepted,
                        "OpusController: rail " << reconfiguration.rail
                                                << " refused a reconfiguration: " << result.error);
}

void
OpusReconfigurationBatcher::Switched(uint64_t id, const OcsReconfiguration& done)
{
    OpusReconfigurationRecord& record = m_records[id];
    InFlight& reconfiguration = m_inFlight.at(id);
    if (done.failed)
    {
        // Its waiters keep waiting: the circuits are dark. One retry, once the failure
        // report has reached the controller (not from inside the OCS's call).
        if (record.failedAttempts++ == 0)
        {
            record.failedAt = done.endedAt;
            record.started = done.startedAt; // its ports went dark then, and stay dark
        }
        if (++reconfiguration.attempts < 2)
        {
            NS_LOG_INFO("rail " << reconfiguration.rail << ": reconfiguration " << id
                                << " failed; retrying");
            Simulator::Schedule(m_controlLatency, &OpusReconfigurationBatcher::Retry, this, id);
            return;
        }
        std::string ports;
        for (uint32_t port : done.darkPorts)
        {
            ports += (ports.empty() ? "" : " ") + std::to_string(port);
        }
        std::string groups;
        for (const std::string& group : record.groups)
        {
            groups += (groups.empty() ? "" : " ") + group;
        }
        m_stuck.insert("Opus: rail " + std::to_string(reconfiguration.rail) + " ports " + ports +
                       " for " + groups +
                       ": the reconfiguration failed twice; its circuits "
                       "stay dark");
        IssueHeld(reconfiguration.rail);
        return;
    }
    record.darkPorts = done.darkPorts;
    if (record.failedAttempts == 0) // else dark since its first attempt
    {
        record.started = done.startedAt;
    }
    record.ended = done.endedAt;
    auto waiters = std::move(reconfiguration.waiters);
    uint32_t rail = reconfiguration.rail;
    m_inFlight.erase(id);
    // The acknowledgement travels back to the shims.
    for (auto& waiter : waiters)
    {
        Simulator::Schedule(m_controlLatency, waiter);
    }
    IssueHeld(rail);
}

void
OpusReconfigurationBatcher::Retry(uint64_t id)
{
    InFlight& reconfiguration = m_inFlight.at(id);
    // Only what the target still wants: a later change of these ports, queued behind this
    // one at the OCS, must not be undone by the retry.
    const std::map<uint32_t, uint32_t>& target = m_targets.GetConfig(reconfiguration.rail);
    OcsConnections again;
    for (const auto& [input, output] : reconfiguration.connections)
    {
        auto wanted = target.find(input);
        uint32_t now = wanted == target.end() ? OcsCircuitTable::NO_PORT : wanted->second;
        if (now == output)
        {
            again[input] = output;
        }
    }
    OcsRequestResult result = Send(id, reconfiguration.rail, again);
    NS_ABORT_MSG_UNLESS(result.accepted,
                        "OpusController: rail " << reconfiguration.rail
                                                << " refused a retry: " << result.error);
}

const std::set<std::string>&
OpusReconfigurationBatcher::GetStuck() const
{
    return m_stuck;
}

void
OpusReconfigurationBatcher::Clear()
{
    m_tables.clear();
    m_inFlight.clear();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ocs-circuit-table.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OcsCircuitTable");

OcsCircuitTable::OcsCircuitTable()
{
    NS_LOG_FUNCTION(this);
}

void
OcsCircuitTable::SetListener(Listener listener)
{
    m_listener = std::move(listener);
}

void
OcsCircuitTable::SetRadix(uint32_t radix)
{
    NS_LOG_FUNCTION(this << radix);
    m_radix = radix;
}

uint32_t
OcsCircuitTable::GetRadix() const
{
    return m_radix;
}

void
OcsCircuitTable::SetReconfigurationDelay(Time delay)
{
    NS_LOG_FUNCTION(this << delay);
    m_reconfigurationDelay = delay;
}

Time
OcsCircuitTable::GetReconfigurationDelay() const
{
    return m_reconfigurationDelay;
}

void
OcsCircuitTable::SetWholeSwitch(bool wholeSwitch)
{
    NS_LOG_FUNCTION(this << wholeSwitch);
    m_wholeSwitch = wholeSwitch;
}

bool
OcsCircuitTable::IsWholeSwitch() const
{
    return m_wholeSwitch;
}

uint32_t
OcsCircuitTable::AddPort()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_portsInUse >= m_radix,
                    "OCS radix " << m_radix << " exceeded: cannot use port " << m_portsInUse + 1);
    // Port state is sized when the first port is used, so Radix may be set until then.
    m_output.resize(m_radix, NO_PORT);
    m_up.resize(m_radix, false);
    m_target.resize(m_radix, NO_PORT);
    m_cuts.resize(m_radix);
    m_darkHolds.resize(m_radix, 0);
    m_darkSince.resize(m_radix, Time(0));
    m_darkTotal.resize(m_radix, Time(0));
    m_failed.resize(m_radix, false);
    m_lines.resize(m_radix);
    return m_portsInUse++;
}

uint32_t
OcsCircuitTable::GetPortsInUse() const
{
    return m_portsInUse;
}

void
OcsCircuitTable::CheckPort(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_output.size(),
                    "OCS port " << port << " out of range (radix " << m_radix << ")");
}

std::string
OcsCircuitTable::Validate(const OcsConnections& changes) const
{
    std::ostringstream error;
    std::vector<uint32_t> next = m_target;
    for (const auto& [input, output] : changes)
    {
        if (input >= m_radix || (output != NO_PORT && output >= m_radix))
        {
            error << "circuit " << input << " -> " << output << ": port out of range [0, "
                  << m_radix << ")";
            return error.str();
        }
        next[input] = output;
    }
    std::map<uint32_t, uint32_t> inputOf;
    for (uint32_t input = 0; input < next.size(); ++input)
    {
        if (next[input] == NO_PORT)
        {
            continue;
        }
        auto [it, fresh] = inputOf.emplace(next[input], input);
        if (!fresh)
        {
            error << "output port " << next[input] << " used twice (inputs " << it->second
                  << " and " << input << ")";
            return error.str();
        }
    }
    return "";
}

std::vector<uint32_t>
OcsCircuitTable::PortsTouchedBy(const OcsConnections& changes) const
{
    if (m_wholeSwitch)
    {
        // Every request holds every port: requests are served one at a time.
        std::vector<uint32_t> all(m_output.size());
        for (uint32_t port = 0; port < all.size(); ++port)
        {
            all[port] = port;
        }
        return all;
    }
    std::set<uint32_t> ports;
    for (const auto& [input, output] : changes)
    {
        ports.insert(input);
        if (m_target[input] != NO_PORT)
        {
            ports.insert(m_target[input]);
        }
        if (output != NO_PORT)
        {
            ports.insert(output);
        }
    }
    return {ports.begin(), ports.end()};
}

OcsRequestResult
OcsCircuitTable::Preset(const OcsConnections& configuration)
{
    NS_LOG_FUNCTION(this);
    OcsRequestResult result;
    if (m_output.empty())
    {
        result.error = "no device is attached to this OCS yet";
        return result;
    }
    if (!m_requests.empty())
    {
        result.error = "cannot preset circuits while reconfigurations are pending";
        return result;
    }
    OcsConnections full;
    for (uint32_t input = 0; input < m_radix; ++input)
    {
        full[input] = NO_PORT;
    }
    for (const auto& [input, output] : configuration)
    {
        full[input] = output;
    }
    result.error = Validate(full);
    if (!result.error.empty())
    {
        NS_LOG_WARN("OCS preset rejected: " << result.error);
        return result;
    }
    for (const auto& [input, output] : full)
    {
        if (m_output[input] == output && m_up[input])
        {
            continue;
        }
        if (m_up[input])
        {
            TearDown(input);
        }
        m_output[input] = output;
        m_target[input] = output;
        m_up[input] = output != NO_PORT;
        if (m_up[input] && m_listener.circuitUp)
        {
            m_listener.circuitUp(input, output);
        }
        NotifyPort(input);
    }
    result.accepted = true;
    return result;
}

OcsRequestResult
OcsCircuitTable::Reconfigure(const OcsConnections& changes, DoneCallback done, DoneCallback started)
{
    NS_LOG_FUNCTION(this);
    OcsRequestResult result;
    if (m_output.empty())
    {
        result.error = "no device is attached to this OCS yet";
        return result;
    }
    result.error = Validate(changes);
    if (!result.error.empty())
    {
        NS_LOG_WARN("OCS reconfiguration rejected: " << result.error);
        return result;
    }
    Request request;
    request.info.id = m_nextId++;
    request.info.requested = changes;
    request.info.requestedAt = Simulator::Now();
    request.ports = PortsTouchedBy(changes);
    request.done = done;
    request.onStart = started;
    for (const auto& [input, output] : changes)
    {
        m_target[input] = output;
    }
    for (uint32_t port : request.ports)
    {
        m_lines[port].push_back(request.info.id);
    }
    NS_LOG_INFO("OCS request " << request.info.id << " accepted, " << changes.size()
                               << " circuits, " << request.ports.size() << " ports");
    result.accepted = true;
    result.id = request.info.id;
    m_requests.emplace(request.info.id, std::move(request));
    StartReadyRequests();
    return result;
}

OcsRequestResult
OcsCircuitTable::SetConfiguration(const OcsConnections& configuration, DoneCallback done)
{
    NS_LOG_FUNCTION(this);
    OcsConnections changes = configuration;
    for (uint32_t input = 0; input < m_target.size(); ++input)
    {
        if (m_target[input] != NO_PORT && configuration.count(input) == 0)
        {
            changes[input] = NO_PORT;
        }
    }
    return Reconfigure(changes, done);
}

bool
OcsCircuitTable::IsFirstInLine(const Request& request) const
{
    return std::all_of(request.ports.begin(), request.ports.end(), [&](uint32_t port) {
        return m_lines[port].front() == request.info.id;
    });
}

void
OcsCircuitTable::StartReadyRequests()
{
    // In id (arrival) order: a request waits while an earlier one holds any of its ports.
    std::vector<uint64_t> ready;
    for (const auto& [id, request] : m_requests)
    {
        if (!request.started && IsFirstInLine(request))
        {
            ready.push_back(id);
        }
    }
    for (uint64_t id : ready)
    {
        Start(m_requests.at(id));
    }
}

void
OcsCircuitTable::Start(Request& request)
{
    OcsReconfiguration& info = request.info;
    request.started = true;
    info.startedAt = Simulator::Now();
    std::set<uint32_t> dark;
    for (const auto& [input, output] : info.requested)
    {
        // Unchanged circuits keep carrying traffic; a circuit a failed reconfiguration left
        // dark is set again.
        if (m_output[input] == output && (m_up[input] || output == NO_PORT))
        {
            continue;
        }
        info.changed[input] = output;
        dark.insert(input);
        if (m_output[input] != NO_PORT)
        {
            dark.insert(m_output[input]);
        }
        if (output != NO_PORT)
        {
            dark.insert(output);
        }
    }
    info.darkPorts.assign(dark.begin(), dark.end());
    if (info.changed.empty())
    {
        NS_LOG_INFO("OCS request " << info.id << " changes nothing: done at once");
        Simulator::ScheduleNow(&OcsCircuitTable::Finish, this, info.id);
        return;
    }
    std::vector<bool> wasLit;
    if (m_wholeSwitch)
    {
        // Every port in use goes dark (the others lead to no device); the circuits that stay
        // keep their mirrors but lose their light (and their frames in flight) until the end.
        for (uint32_t port = 0; port < m_portsInUse; ++port)
        {
            dark.insert(port);
        }
        info.darkPorts.assign(dark.begin(), dark.end());
        for (uint32_t port : info.darkPorts)
        {
            if (m_up[port] && info.changed.count(port) == 0)
            {
                request.dimmed.push_back(port);
                wasLit.push_back(IsLit(port));
            }
        }
    }
    for (const auto& [input, output] : info.changed)
    {
        if (m_up[input])
        {
            TearDown(input);
        }
        m_output[input] = output;
        m_up[input] = false;
    }
    for (uint32_t port : info.darkPorts)
    {
        if (m_darkHolds[port]++ == 0)
        {
            m_darkSince[port] = Simulator::Now();
        }
    }
    for (std::size_t i = 0; i < request.dimmed.size(); ++i)
    {
        uint32_t input = request.dimmed[i];
        if (wasLit[i])
        {
            m_cuts[input].push_back(Simulator::Now());
            if (m_listener.circuitDown)
            {
                m_listener.circuitDown(input, m_output[input]);
            }
        }
    }
    NS_LOG_INFO("OCS request " << info.id << " darkens " << info.darkPorts.size() << " ports for "
                               << m_reconfigurationDelay.As(Time::MS));
    if (m_listener.reconfigurationStart)
    {
        m_listener.reconfigurationStart(info);
    }
    for (const auto& [input, output] : info.changed)
    {
        NotifyPort(input);
    }
    for (uint32_t input : request.dimmed)
    {
        NotifyPort(input);
    }
    if (!request.onStart.IsNull())
    {
        request.onStart(info);
    }
    Simulator::Schedule(m_reconfigurationDelay, &OcsCircuitTable::Finish, this, info.id);
}

void
OcsCircuitTable::Finish(uint64_t id)
{
    auto it = m_requests.find(id);
    NS_ABORT_MSG_IF(it == m_requests.end(), "unknown OCS request " << id);
    Request request = std::move(it->second);
    m_requests.erase(it);
    OcsReconfiguration& info = request.info;
    info.endedAt = Simulator::Now();
    for (uint32_t port : info.darkPorts)
    {
        if (--m_darkHolds[port] == 0)
        {
            m_darkTotal[port] += Simulator::Now() - m_darkSince[port];
        }
    }
    info.failed = m_failNext > 0 && !info.changed.empty();
    if (info.failed)
    {
        --m_failNext;
        NS_LOG_INFO("OCS request " << id << " failed: its circuits stay dark");
    }
    for (const auto& [input, output] : info.changed)
    {
        if (output != NO_PORT && !info.failed)
        {
            m_up[input] = true;
            if (IsLit(input) && m_listener.circuitUp) // a failed port keeps it dark until repair
            {
                m_listener.circuitUp(input, output);
            }
        }
    }
    for (uint32_t input : request.dimmed)
    {
        if (IsLit(input) && m_listener.circuitUp)
        {
            m_listener.circuitUp(input, m_output[input]);
        }
    }
    for (uint32_t port : request.ports)
    {
        NS_ABORT_MSG_IF(m_lines[port].front() != id, "OCS request order broken on " << port);
        m_lines[port].pop_front();
    }
    if (!info.changed.empty())
    {
        ++m_reconfigurations;
        NS_LOG_INFO("OCS request " << id << " done: " << info.changed.size()
                                   << " circuits changed");
        if (m_listener.reconfigurationEnd)
        {
            m_listener.reconfigurationEnd(info);
        }
    }
    for (const auto& [input, output] : info.changed)
    {
        NotifyPort(input);
    }
    for (uint32_t input : request.dimmed)
    {
        NotifyPort(input);
    }
    if (!request.done.IsNull())
    {
        request.done(info);
    }
    StartReadyRequests();
}

void
OcsCircuitTable::TearDown(uint32_t input)
{
    NS_LOG_FUNCTION(this << input);
    m_up[input] = false;
    m_cuts[input].push_back(Simulator::Now());
    if (m_listener.circuitDown)
    {
        m_listener.circuitDown(input, m_output[input]);
    }
}

void
OcsCircuitTable::NotifyPort(uint32_t port) const
{
    if (m_listener.portChanged)
    {
        m_listener.portChanged(port);
    }
}

uint32_t
OcsCircuitTable::GetConnection(uint32_t input) const
{
    CheckPort(input);
    return m_output[input];
}

bool
OcsCircuitTable::IsCircuitUp(uint32_t input) const
{
    return input < m_up.size() && IsLit(input);
}

bool
OcsCircuitTable::IsCircuitInPlace(uint32_t input) const
{
    // A whole-switch blackout moves every mirror (a rotor steps to its next matching): no
    // circuit is in place until it ends, as for a changed port.
    return input < m_up.size() && m_up[input] && !(m_wholeSwitch && m_darkHolds[input] > 0);
}

bool
OcsCircuitTable::IsLit(uint32_t input) const
{
    // On a whole-switch OCS a reconfiguration darkens the circuits it does not change too.
    return m_up[input] && !m_failed[input] && !m_failed[m_output[input]] &&
           !(m_wholeSwitch && m_darkHolds[input] > 0);
}

void
OcsCircuitTable::SetPortFailed(uint32_t port, bool failed)
{
    NS_LOG_FUNCTION(this << port << failed);
    CheckPort(port);
    if (m_failed[port] == failed)
    {
        return;
    }
    // The circuits through the port: from it, and into it.
    std::vector<uint32_t> inputs;
    for (uint32_t input = 0; input < m_output.size(); ++input)
    {
        if (m_up[input] && (input == port || m_output[input] == port))
        {
            inputs.push_back(input);
        }
    }
    std::vector<bool> wasLit;
    for (uint32_t input : inputs)
    {
        wasLit.push_back(IsLit(input));
        if (failed && wasLit.back())
        {
            m_cuts[input].push_back(Simulator::Now()); // its frames in flight are lost
        }
    }
    m_failed[port] = failed;
    // Recorders of circuit uptime see a dark circuit go down and come back.
    for (std::size_t i = 0; i < inputs.size(); ++i)
    {
        auto& changed = failed ? m_listener.circuitDown : m_listener.circuitUp;
        if (wasLit[i] != IsLit(inputs[i]) && changed)
        {
            changed(inputs[i], m_output[inputs[i]]);
        }
    }
    if (m_listener.portFailure)
    {
        m_listener.portFailure(port, failed);
    }
    NotifyPort(port);
    for (uint32_t input : inputs)
    {
        NotifyPort(input);
        NotifyPort(m_output[input]);
    }
}

bool
OcsCircuitTable::IsPortFailed(uint32_t port) const
{
    CheckPort(port);
    return m_failed[port];
}

void
OcsCircuitTable::FailNextReconfiguration()
{
    NS_LOG_FUNCTION(this);
    ++m_failNext;
}

bool
OcsCircuitTable::IsPortDark(uint32_t port) const
{
    return port < m_darkHolds.size() && m_darkHolds[port] > 0;
}

OcsConnections
OcsCircuitTable::GetCircuits() const
{
    OcsConnections circuits;
    for (uint32_t input = 0; input < m_output.size(); ++input)
    {
        if (m_up[input])
        {
            circuits[input] = m_output[input];
        }
    }
    return circuits;
}

OcsConnections
OcsCircuitTable::GetTargetConfiguration() const
{
    OcsConnections target;
    for (uint32_t input = 0; input < m_target.size(); ++input)
    {
        if (m_target[input] != NO_PORT)
        {
            target[input] = m_target[input];
        }
    }
    return target;
}

uint64_t
OcsCircuitTable::GetReconfigurationCount() const
{
    return m_reconfigurations;
}

std::size_t
OcsCircuitTable::GetPendingRequestCount() const
{
    return m_requests.size();
}

Time
OcsCircuitTable::GetPortDarkTime(uint32_t port) const
{
    CheckPort(port);
    Time total = m_darkTotal[port];
    if (m_darkHolds[port] > 0)
    {
        total += Simulator::Now() - m_darkSince[port];
    }
    return total;
}

uint32_t
OcsCircuitTable::GetCutCount(uint32_t input) const
{
    return m_cuts[input].size();
}

bool
OcsCircuitTable::WasCutBefore(uint32_t input, uint32_t cuts, Time lastBitThrough) const
{
    // The circuit is cut at most once per count; the first cut after the frame left
    // decides whether all of its bits made it through the switch.
    const std::vector<Time>& times = m_cuts[input];
    return cuts < times.size() && times[cuts] < lastBitThrough;
}

void
OcsCircuitTable::Clear()
{
    NS_LOG_FUNCTION(this);
    m_requests.clear();
    m_listener = Listener();
}

} // namespace ns3

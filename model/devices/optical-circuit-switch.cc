/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "optical-circuit-switch.h"

#include "ocs-net-device.h"
#include "ocs-technology.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpticalCircuitSwitch");

NS_OBJECT_ENSURE_REGISTERED(OpticalCircuitSwitch);

TypeId
OpticalCircuitSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OpticalCircuitSwitch")
            .SetParent<Channel>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<OpticalCircuitSwitch>()
            .AddAttribute("Radix",
                          "Number of duplex ports.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&OpticalCircuitSwitch::m_radix),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReconfigurationDelay",
                          "Time a port whose circuit changes stays dark (at most 10^6 s, the "
                          "bound of every delay a run schedules: see HORIZON_NS).",
                          TimeValue(MilliSeconds(25)),
                          MakeTimeAccessor(&OpticalCircuitSwitch::m_reconfigurationDelay),
                          MakeTimeChecker(Time(0), Seconds(1e6)))
            .AddTraceSource("CircuitUp",
                            "A circuit input -> output came up.",
                            MakeTraceSourceAccessor(&OpticalCircuitSwitch::m_circuitUpTrace),
                            "ns3::OpticalCircuitSwitch::CircuitTracedCallback")
            .AddTraceSource("CircuitDown",
                            "A circuit input -> output was torn down.",
                            MakeTraceSourceAccessor(&OpticalCircuitSwitch::m_circuitDownTrace),
                            "ns3::OpticalCircuitSwitch::CircuitTracedCallback")
            .AddTraceSource("ReconfigurationStart",
                            "A reconfiguration darkened its ports.",
                            MakeTraceSourceAccessor(&OpticalCircuitSwitch::m_reconfigStartTrace),
                            "ns3::OpticalCircuitSwitch::ReconfigurationTracedCallback")
            .AddTraceSource("ReconfigurationEnd",
                            "A reconfiguration brought its circuits up (or failed to: "
                            "OcsReconfiguration::failed).",
                            MakeTraceSourceAccessor(&OpticalCircuitSwitch::m_reconfigEndTrace),
                            "ns3::OpticalCircuitSwitch::ReconfigurationTracedCallback")
            .AddTraceSource("FrameLost",
                            "A frame was lost because its circuit was torn down under it.",
                            MakeTraceSourceAccessor(&OpticalCircuitSwitch::m_frameLostTrace),
                            "ns3::OpticalCircuitSwitch::FrameLostTracedCallback")
            .AddTraceSource("PortFailure",
                            "A port failed (true) or was repaired (false).",
                            MakeTraceSourceAccessor(&OpticalCircuitSwitch::m_portFailureTrace),
                            "ns3::OpticalCircuitSwitch::PortFailureTracedCallback");
    return tid;
}

OpticalCircuitSwitch::OpticalCircuitSwitch()
    : m_radix(64),
      m_nextId(1),
      m_reconfigurations(0),
      m_framesLost(0)
{
    NS_LOG_FUNCTION(this);
}

OpticalCircuitSwitch::~OpticalCircuitSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
OpticalCircuitSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_devices.clear();
    m_requests.clear();
    Channel::DoDispose();
}

void
OpticalCircuitSwitch::ApplyTechnology(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    OcsTechnology technology = OcsTechnologyCatalog::Get(name);
    NS_ABORT_MSG_IF(m_portsInUse > technology.radix,
                    "OCS technology '" << name << "' has radix " << technology.radix << " but "
                                       << m_portsInUse << " ports are in use");
    m_technology = technology.name;
    m_radix = technology.radix;
    m_reconfigurationDelay = technology.reconfigurationDelay;
}

uint32_t
OpticalCircuitSwitch::GetRadix() const
{
    NS_LOG_FUNCTION(this);
    return m_radix;
}

Time
OpticalCircuitSwitch::GetReconfigurationDelay() const
{
    NS_LOG_FUNCTION(this);
    return m_reconfigurationDelay;
}

uint32_t
OpticalCircuitSwitch::AddPort()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_portsInUse >= m_radix,
                    "OCS radix " << m_radix << " exceeded: cannot use port " << m_portsInUse + 1);
    // Port state is sized when the first port is used, so Radix may be set until then.
    m_devices.resize(m_radix);
    m_output.resize(m_radix, NO_PORT);
    m_up.resize(m_radix, false);
    m_target.resize(m_radix, NO_PORT);
    m_teardowns.resize(m_radix);
    m_darkHolds.resize(m_radix, 0);
    m_darkSince.resize(m_radix, Time(0));
    m_darkTotal.resize(m_radix, Time(0));
    m_failed.resize(m_radix, false);
    m_lines.resize(m_radix);
    return m_portsInUse++;
}

uint32_t
OpticalCircuitSwitch::Attach(Ptr<OcsNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    uint32_t port = AddPort();
    m_devices[port] = device;
    m_attachedPorts.push_back(port);
    return port;
}

Ptr<OcsNetDevice>
OpticalCircuitSwitch::GetPortDevice(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    return port < m_devices.size() ? m_devices[port] : nullptr;
}

std::size_t
OpticalCircuitSwitch::GetNDevices() const
{
    NS_LOG_FUNCTION(this);
    return m_attachedPorts.size();
}

Ptr<NetDevice>
OpticalCircuitSwitch::GetDevice(std::size_t i) const
{
    NS_LOG_FUNCTION(this << i);
    NS_ABORT_MSG_IF(i >= m_attachedPorts.size(), "no device " << i << " on this OCS");
    return m_devices[m_attachedPorts[i]];
}

void
OpticalCircuitSwitch::CheckPort(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_output.size(),
                    "OCS port " << port << " out of range (radix " << m_radix << ")");
}

std::string
OpticalCircuitSwitch::Validate(const OcsConnections& changes) const
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
OpticalCircuitSwitch::PortsTouchedBy(const OcsConnections& changes) const
{
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
OpticalCircuitSwitch::Preset(const OcsConnections& configuration)
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
        if (m_up[input])
        {
            m_circuitUpTrace(input, output);
        }
        NotifyDevice(input);
    }
    result.accepted = true;
    return result;
}

OcsRequestResult
OpticalCircuitSwitch::Reconfigure(const OcsConnections& changes, DoneCallback done)
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
OpticalCircuitSwitch::SetConfiguration(const OcsConnections& configuration, DoneCallback done)
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

OcsConnections
OpticalCircuitSwitch::Duplex(const std::vector<std::pair<uint32_t, uint32_t>>& pairs)
{
    NS_LOG_FUNCTION_NOARGS();
    OcsConnections connections;
    for (const auto& [a, b] : pairs)
    {
        connections[a] = b;
        connections[b] = a;
    }
    return connections;
}

bool
OpticalCircuitSwitch::IsFirstInLine(const Request& request) const
{
    return std::all_of(request.ports.begin(), request.ports.end(), [&](uint32_t port) {
        return m_lines[port].front() == request.info.id;
    });
}

void
OpticalCircuitSwitch::StartReadyRequests()
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
OpticalCircuitSwitch::Start(Request& request)
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
        Simulator::ScheduleNow(&OpticalCircuitSwitch::Finish, this, info.id);
        return;
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
    NS_LOG_INFO("OCS request " << info.id << " darkens " << info.darkPorts.size() << " ports for "
                               << m_reconfigurationDelay.As(Time::MS));
    m_reconfigStartTrace(info);
    for (const auto& [input, output] : info.changed)
    {
        NotifyDevice(input);
    }
    Simulator::Schedule(m_reconfigurationDelay, &OpticalCircuitSwitch::Finish, this, info.id);
}

void
OpticalCircuitSwitch::Finish(uint64_t id)
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
            if (IsLit(input)) // a failed port keeps it dark until its repair
            {
                m_circuitUpTrace(input, output);
            }
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
        m_reconfigEndTrace(info);
    }
    for (const auto& [input, output] : info.changed)
    {
        NotifyDevice(input);
    }
    if (!request.done.IsNull())
    {
        request.done(info);
    }
    StartReadyRequests();
}

void
OpticalCircuitSwitch::TearDown(uint32_t input)
{
    NS_LOG_FUNCTION(this << input);
    m_up[input] = false;
    m_teardowns[input].push_back(Simulator::Now());
    m_circuitDownTrace(input, m_output[input]);
}

void
OpticalCircuitSwitch::NotifyDevice(uint32_t port) const
{
    if (m_devices[port])
    {
        m_devices[port]->NotifyCircuitChanged();
    }
}

uint32_t
OpticalCircuitSwitch::GetConnection(uint32_t input) const
{
    NS_LOG_FUNCTION(this << input);
    CheckPort(input);
    return m_output[input];
}

bool
OpticalCircuitSwitch::IsCircuitUp(uint32_t input) const
{
    NS_LOG_FUNCTION(this << input);
    return input < m_up.size() && IsLit(input);
}

bool
OpticalCircuitSwitch::IsLit(uint32_t input) const
{
    return m_up[input] && !m_failed[input] && !m_failed[m_output[input]];
}

void
OpticalCircuitSwitch::SetPortFailed(uint32_t port, bool failed)
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
            m_teardowns[input].push_back(Simulator::Now()); // its frames in flight are lost
        }
    }
    m_failed[port] = failed;
    // Recorders of circuit uptime see a dark circuit go down and come back.
    for (std::size_t i = 0; i < inputs.size(); ++i)
    {
        if (wasLit[i] != IsLit(inputs[i]))
        {
            (failed ? m_circuitDownTrace : m_circuitUpTrace)(inputs[i], m_output[inputs[i]]);
        }
    }
    m_portFailureTrace(port, failed);
    NotifyDevice(port);
    for (uint32_t input : inputs)
    {
        NotifyDevice(input);
        NotifyDevice(m_output[input]);
    }
}

bool
OpticalCircuitSwitch::IsPortFailed(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    CheckPort(port);
    return m_failed[port];
}

void
OpticalCircuitSwitch::FailNextReconfiguration()
{
    NS_LOG_FUNCTION(this);
    ++m_failNext;
}

bool
OpticalCircuitSwitch::IsPortDark(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    return port < m_darkHolds.size() && m_darkHolds[port] > 0;
}

OcsConnections
OpticalCircuitSwitch::GetCircuits() const
{
    NS_LOG_FUNCTION(this);
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
OpticalCircuitSwitch::GetTargetConfiguration() const
{
    NS_LOG_FUNCTION(this);
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
OpticalCircuitSwitch::GetReconfigurationCount() const
{
    NS_LOG_FUNCTION(this);
    return m_reconfigurations;
}

std::size_t
OpticalCircuitSwitch::GetPendingRequestCount() const
{
    NS_LOG_FUNCTION(this);
    return m_requests.size();
}

uint64_t
OpticalCircuitSwitch::GetFramesLost() const
{
    NS_LOG_FUNCTION(this);
    return m_framesLost;
}

Time
OpticalCircuitSwitch::GetPortDarkTime(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    CheckPort(port);
    Time total = m_darkTotal[port];
    if (m_darkHolds[port] > 0)
    {
        total += Simulator::Now() - m_darkSince[port];
    }
    return total;
}

Ptr<OcsNetDevice>
OpticalCircuitSwitch::GetCircuitPeer(uint32_t input) const
{
    NS_LOG_FUNCTION(this << input);
    if (input >= m_up.size() || !IsLit(input))
    {
        return nullptr;
    }
    return m_devices[m_output[input]];
}

Ptr<OcsNetDevice>
OpticalCircuitSwitch::GetCircuitEnd(uint32_t input) const
{
    NS_LOG_FUNCTION(this << input);
    return input < m_up.size() && m_up[input] ? m_devices[m_output[input]] : nullptr;
}

void
OpticalCircuitSwitch::Transmit(Ptr<Packet> frame, uint32_t input, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << input << txTime);
    uint32_t output = m_output[input];
    Ptr<OcsNetDevice> receiver = m_devices[output];
    // Devices transmit only over circuits that lead to another device (GetCircuitPeer).
    NS_ASSERT_MSG(IsLit(input) && receiver, "transmit on a circuit that is not up");
    Time inFiber = m_devices[input]->GetFiberDelay();
    Time lastBitThrough = Simulator::Now() + inFiber + txTime;
    uint32_t generation = m_teardowns[input].size();
    Simulator::ScheduleWithContext(receiver->GetNode()->GetId(),
                                   inFiber + txTime + receiver->GetFiberDelay(),
                                   &OpticalCircuitSwitch::Deliver,
                                   this,
                                   frame,
                                   input,
                                   output,
                                   generation,
                                   lastBitThrough);
}

void
OpticalCircuitSwitch::Deliver(Ptr<Packet> frame,
                              uint32_t input,
                              uint32_t output,
                              uint32_t generation,
                              Time lastBitThrough)
{
    const std::vector<Time>& teardowns = m_teardowns[input];
    // The circuit is torn down at most once per generation; the first teardown after the
    // frame left decides whether all of its bits made it through the switch.
    if (generation < teardowns.size() && teardowns[generation] < lastBitThrough)
    {
        ++m_framesLost;
        NS_LOG_INFO("frame lost on circuit " << input << " -> " << output << " (torn down)");
        m_frameLostTrace(frame, input, output);
        m_devices[input]->NotifyFrameLost(frame);
        return;
    }
    m_devices[output]->Receive(frame);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "optical-circuit-switch.h"

#include "ocs-net-device.h"
#include "ocs-technology.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

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
                          MakeUintegerAccessor(&OpticalCircuitSwitch::SetRadix,
                                               &OpticalCircuitSwitch::GetRadix),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReconfigurationDelay",
                          "Time a port whose circuit changes stays dark (at most 10^6 s, the "
                          "bound of every delay a run schedules: see HORIZON_NS).",
                          TimeValue(MilliSeconds(25)),
                          MakeTimeAccessor(&OpticalCircuitSwitch::SetReconfigurationDelay,
                                           &OpticalCircuitSwitch::GetReconfigurationDelay),
                          MakeTimeChecker(Time(0), Seconds(1e6)))
            .AddAttribute("Switching",
                          "What a reconfiguration does to the other ports: PerPort (only the "
                          "changed ports go dark), WholeSwitch (every port goes dark, unchanged "
                          "circuits included, and requests are served one at a time: a rotor "
                          "switch), or Technology (as the technology ApplyTechnology set; "
                          "PerPort without one).",
                          EnumValue(static_cast<int>(OcsSwitching::TECHNOLOGY)),
                          MakeEnumAccessor(&OpticalCircuitSwitch::SetSwitching,
                                           &OpticalCircuitSwitch::GetSwitching),
                          MakeEnumChecker(static_cast<int>(OcsSwitching::TECHNOLOGY),
                                          "Technology",
                                          static_cast<int>(OcsSwitching::PER_PORT),
                                          "PerPort",
                                          static_cast<int>(OcsSwitching::WHOLE_SWITCH),
                                          "WholeSwitch"))
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
    : m_table(Create<OcsCircuitTable>()),
      m_framesLost(0)
{
    NS_LOG_FUNCTION(this);
    // The table's changes reach the trace sinks and the devices as they happen.
    OcsCircuitTable::Listener listener;
    listener.circuitUp = [this](uint32_t input, uint32_t output) {
        m_circuitUpTrace(input, output);
    };
    listener.circuitDown = [this](uint32_t input, uint32_t output) {
        m_circuitDownTrace(input, output);
    };
    listener.reconfigurationStart = [this](const OcsReconfiguration& reconfiguration) {
        m_reconfigStartTrace(reconfiguration);
    };
    listener.reconfigurationEnd = [this](const OcsReconfiguration& reconfiguration) {
        m_reconfigEndTrace(reconfiguration);
    };
    listener.portFailure = [this](uint32_t port, bool failed) { m_portFailureTrace(port, failed); };
    listener.portChanged = [this](uint32_t port) { NotifyDevice(port); };
    m_table->SetListener(std::move(listener));
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
    m_table->Clear();
    Channel::DoDispose();
}

Ptr<OcsCircuitTable>
OpticalCircuitSwitch::GetCircuitTable() const
{
    return m_table;
}

void
OpticalCircuitSwitch::ApplyTechnology(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    OcsTechnology technology = OcsTechnologyCatalog::Get(name);
    NS_ABORT_MSG_IF(m_table->GetPortsInUse() > technology.radix,
                    "OCS technology '" << name << "' has radix " << technology.radix << " but "
                                       << m_table->GetPortsInUse() << " ports are in use");
    m_technology = technology.name;
    m_table->SetRadix(technology.radix);
    m_table->SetReconfigurationDelay(technology.reconfigurationDelay);
    m_technologySwitching = technology.switching;
    UpdateSwitching();
}

void
OpticalCircuitSwitch::SetRadix(uint32_t radix)
{
    m_table->SetRadix(radix);
}

uint32_t
OpticalCircuitSwitch::GetRadix() const
{
    NS_LOG_FUNCTION(this);
    return m_table->GetRadix();
}

void
OpticalCircuitSwitch::SetReconfigurationDelay(Time delay)
{
    m_table->SetReconfigurationDelay(delay);
}

Time
OpticalCircuitSwitch::GetReconfigurationDelay() const
{
    NS_LOG_FUNCTION(this);
    return m_table->GetReconfigurationDelay();
}

void
OpticalCircuitSwitch::SetSwitching(int switching)
{
    m_switching = static_cast<OcsSwitching>(switching);
    UpdateSwitching();
}

int
OpticalCircuitSwitch::GetSwitching() const
{
    return static_cast<int>(m_switching);
}

void
OpticalCircuitSwitch::UpdateSwitching()
{
    OcsSwitching effective =
        m_switching == OcsSwitching::TECHNOLOGY ? m_technologySwitching : m_switching;
    m_table->SetWholeSwitch(effective == OcsSwitching::WHOLE_SWITCH);
}

bool
OpticalCircuitSwitch::IsWholeSwitch() const
{
    NS_LOG_FUNCTION(this);
    return m_table->IsWholeSwitch();
}

uint32_t
OpticalCircuitSwitch::AddPort()
{
    NS_LOG_FUNCTION(this);
    uint32_t port = m_table->AddPort();
    m_devices.resize(m_table->GetRadix());
    return port;
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

OcsRequestResult
OpticalCircuitSwitch::Preset(const OcsConnections& configuration)
{
    NS_LOG_FUNCTION(this);
    return m_table->Preset(configuration);
}

OcsRequestResult
OpticalCircuitSwitch::Reconfigure(const OcsConnections& changes, DoneCallback done)
{
    NS_LOG_FUNCTION(this);
    return m_table->Reconfigure(changes, done);
}

OcsRequestResult
OpticalCircuitSwitch::SetConfiguration(const OcsConnections& configuration, DoneCallback done)
{
    NS_LOG_FUNCTION(this);
    return m_table->SetConfiguration(configuration, done);
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
    return m_table->GetConnection(input);
}

bool
OpticalCircuitSwitch::IsCircuitUp(uint32_t input) const
{
    NS_LOG_FUNCTION(this << input);
    return m_table->IsCircuitUp(input);
}

void
OpticalCircuitSwitch::SetPortFailed(uint32_t port, bool failed)
{
    NS_LOG_FUNCTION(this << port << failed);
    m_table->SetPortFailed(port, failed);
}

bool
OpticalCircuitSwitch::IsPortFailed(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    return m_table->IsPortFailed(port);
}

void
OpticalCircuitSwitch::FailNextReconfiguration()
{
    NS_LOG_FUNCTION(this);
    m_table->FailNextReconfiguration();
}

bool
OpticalCircuitSwitch::IsPortDark(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    return m_table->IsPortDark(port);
}

OcsConnections
OpticalCircuitSwitch::GetCircuits() const
{
    NS_LOG_FUNCTION(this);
    return m_table->GetCircuits();
}

OcsConnections
OpticalCircuitSwitch::GetTargetConfiguration() const
{
    NS_LOG_FUNCTION(this);
    return m_table->GetTargetConfiguration();
}

uint64_t
OpticalCircuitSwitch::GetReconfigurationCount() const
{
    NS_LOG_FUNCTION(this);
    return m_table->GetReconfigurationCount();
}

std::size_t
OpticalCircuitSwitch::GetPendingRequestCount() const
{
    NS_LOG_FUNCTION(this);
    return m_table->GetPendingRequestCount();
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
    return m_table->GetPortDarkTime(port);
}

Ptr<OcsNetDevice>
OpticalCircuitSwitch::GetCircuitPeer(uint32_t input) const
{
    NS_LOG_FUNCTION(this << input);
    if (!m_table->IsCircuitUp(input))
    {
        return nullptr;
    }
    return m_devices[m_table->GetConnection(input)];
}

Ptr<OcsNetDevice>
OpticalCircuitSwitch::GetCircuitEnd(uint32_t input) const
{
    NS_LOG_FUNCTION(this << input);
    return m_table->IsCircuitInPlace(input) ? m_devices[m_table->GetConnection(input)] : nullptr;
}

void
OpticalCircuitSwitch::Transmit(Ptr<Packet> frame, uint32_t input, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << input << txTime);
    uint32_t output = m_table->GetConnection(input);
    Ptr<OcsNetDevice> receiver = m_devices[output];
    // Devices transmit only over circuits that lead to another device (GetCircuitPeer).
    NS_ASSERT_MSG(m_table->IsCircuitUp(input) && receiver, "transmit on a circuit that is not up");
    Time inFiber = m_devices[input]->GetFiberDelay();
    Time lastBitThrough = Simulator::Now() + inFiber + txTime;
    uint32_t generation = m_table->GetCutCount(input);
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
    // The first cut of the circuit after the frame left decides whether all of its bits
    // made it through the switch.
    if (m_table->WasCutBefore(input, generation, lastBitThrough))
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

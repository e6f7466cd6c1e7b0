/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/attribute-default.h"
#include "ns3/enum.h"
#include "ns3/eps-channel.h"
#include "ns3/eps-switch.h"
#include "ns3/flow-transport.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/ocs-net-device.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowFabricHelper");

void
FlowFabricHelper::SetSpec(const RailFabricSpec& spec)
{
    m_spec = spec;
}

void
FlowFabricHelper::SetHopDelays(const FlowHopDelays& delays)
{
    m_delays = delays;
}

void
FlowFabricHelper::SetOcsAttribute(std::string name, const AttributeValue& value)
{
    m_ocsHelper.SetSwitchAttribute(name, value);
}

FlowHopDelays
FlowFabricHelper::PacketDelays()
{
    FlowHopDelays delays;
    delays.link = AttributeDefault<TimeValue>(EpsChannel::GetTypeId(), "Delay");
    delays.fiber = AttributeDefault<TimeValue>(OcsNetDevice::GetTypeId(), "FiberDelay");
    delays.switching = AttributeDefault<TimeValue>(EpsSwitch::GetTypeId(), "ProcessingDelay");
    return delays;
}

Ptr<FlowFabric>
FlowFabricHelper::Build()
{
    std::string error = m_spec.Validate();
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    Ptr<FlowFabric> fabric = CreateObject<FlowFabric>();
    fabric->m_spec = m_spec;
    fabric->m_kind = m_spec.EffectiveKind();
    fabric->m_gpus.Create(m_spec.Gpus());
    fabric->m_topology = RailTopology(m_spec.gpusPerServer);
    fabric->m_delays = m_delays ? *m_delays : PacketDelays();
    fabric->m_network = CreateObject<FlowNetwork>();
    fabric->AddLinks();
    if (fabric->m_kind == RailKind::OCS)
    {
        m_ocsHelper.SetTechnology(m_spec.ocsTechnology);
        for (uint32_t rail = 0; rail < m_spec.gpusPerServer; ++rail)
        {
            Ptr<OpticalCircuitSwitch> ocs = m_ocsHelper.CreateSwitch();
            if (m_spec.ocsSwitching != OcsSwitching::TECHNOLOGY) // else the technology's
            {
                ocs->SetAttribute("Switching", EnumValue(static_cast<int>(m_spec.ocsSwitching)));
            }
            for (uint32_t port = 0; port < m_spec.PortsPerRail(); ++port)
            {
                ocs->AddPort();
            }
            ocs->TraceConnectWithoutContext(
                "CircuitUp",
                MakeCallback(&FlowFabric::OnCircuitChange, PeekPointer(fabric)).Bind(rail));
            ocs->TraceConnectWithoutContext(
                "CircuitDown",
                MakeCallback(&FlowFabric::OnCircuitChange, PeekPointer(fabric)).Bind(rail));
            fabric->m_ocs.push_back(ocs);
        }
    }
    for (uint32_t gpu = 0; gpu < m_spec.Gpus(); ++gpu)
    {
        Ptr<FlowTransport> transport = CreateObject<FlowTransport>();
        fabric->m_gpus.Get(gpu)->AggregateObject(transport);
        transport->Setup(gpu, fabric);
        fabric->m_transports.push_back(transport);
    }
    NS_LOG_INFO("built the flow model of " << m_spec.Gpus() << " GPUs, " << m_spec.gpusPerServer
                                           << " " << RailFabricSpec::KindName(fabric->m_kind)
                                           << " rails");
    return fabric;
}

} // namespace ns3

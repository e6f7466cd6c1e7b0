/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/eps-net-device.h"
#include "ns3/eps-routing.h"
#include "ns3/log.h"
#include "ns3/ocs-net-device.h"
#include "ns3/rail-topology.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailFabricHelper");

RailFabricHelper::RailFabricHelper()
{
    m_transportFactory.SetTypeId("ns3::RailTransport");
    // NVLink is credit-based and lossless with no ECN: the scale-up switch keeps PFC (its
    // lossless stand-in) and never marks.
    m_scaleUpLinks.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
}

void
RailFabricHelper::SetSpec(const RailFabricSpec& spec)
{
    m_spec = spec;
}

void
RailFabricHelper::SetOcsDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_ocsHelper.SetDeviceAttribute(name, value);
}

void
RailFabricHelper::SetOcsAttribute(std::string name, const AttributeValue& value)
{
    m_ocsHelper.SetSwitchAttribute(name, value);
}

void
RailFabricHelper::SetEpsSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_railLinks.SetSwitchAttribute(name, value);
    if (name != "EcnEnabled")
    {
        m_scaleUpLinks.SetSwitchAttribute(name, value);
    }
}

void
RailFabricHelper::SetEpsChannelAttribute(std::string name, const AttributeValue& value)
{
    m_railLinks.SetChannelAttribute(name, value);
    m_scaleUpLinks.SetChannelAttribute(name, value);
}

void
RailFabricHelper::SetTransportAttribute(std::string name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(name == "Mtu" || name == "ScaleUpMtu",
                    "set the frame sizes with RailFabricSpec's railFrameBytes and "
                    "scaleUpFrameBytes (the devices' MTUs follow them)");
    m_transportFactory.Set(name, value);
    m_dcqcnChosen = m_dcqcnChosen || name == "Dcqcn";
    m_relayChunkChosen = m_relayChunkChosen || name == "RelayChunk";
}

std::vector<std::pair<std::string, std::string>>
RailFabricHelper::SpecAttributes()
{
    return {{"ns3::RailNetDevice::DataRate", "the NIC and scale-up rates"},
            {"ns3::RailNetDevice::Mtu", "the frame sizes"},
            {"ns3::RailTransport::Mtu", "the rail frame size"},
            {"ns3::RailTransport::ScaleUpMtu", "the scale-up frame size"},
            {"ns3::RailTransport::RelayChunk", "the rail frame size"},
            {"ns3::RailTransport::Dcqcn", "the rails (on for electrical ones)"},
            {"ns3::OpticalCircuitSwitch::Radix", "the OCS technology"},
            {"ns3::OpticalCircuitSwitch::ReconfigurationDelay", "the OCS technology"}};
}

Ptr<RailFabric>
RailFabricHelper::Build()
{
    std::string error = m_spec.Validate();
    error = error.empty() ? RailFabric::ValidateRetransmitTimeout(m_spec) : error;
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    Ptr<RailFabric> fabric = CreateObject<RailFabric>();
    fabric->m_spec = m_spec;
    fabric->m_kind = m_spec.EffectiveKind();
    fabric->m_gpus.Create(m_spec.Gpus());
    fabric->m_endpoints = CreateObject<RailEndpoints>();
    fabric->m_nics.resize(m_spec.Gpus());
    m_railLinks.SetDeviceAttribute("DataRate", DataRateValue(DataRate(m_spec.nicPortBps)));
    m_scaleUpLinks.SetDeviceAttribute("DataRate", DataRateValue(DataRate(m_spec.scaleUpBps)));
    m_ocsHelper.SetDeviceAttribute("DataRate", DataRateValue(DataRate(m_spec.nicPortBps)));
    // Frame sizes are a modelling granularity (RailFabricSpec): the devices must carry them.
    auto deviceMtu = [](uint32_t payload) {
        return UintegerValue(RailFabricSpec::DeviceMtu(payload));
    };
    m_railLinks.SetDeviceAttribute("Mtu", deviceMtu(m_spec.railFrameBytes));
    m_ocsHelper.SetDeviceAttribute("Mtu", deviceMtu(m_spec.railFrameBytes));
    m_scaleUpLinks.SetDeviceAttribute("Mtu", deviceMtu(m_spec.scaleUpFrameBytes));
    m_transportFactory.Set("Mtu", UintegerValue(m_spec.railFrameBytes));
    m_transportFactory.Set("ScaleUpMtu", UintegerValue(m_spec.scaleUpFrameBytes));
    if (!m_relayChunkChosen)
    {
        m_transportFactory.Set("RelayChunk", UintegerValue(m_spec.railFrameBytes));
    }
    BuildScaleUp(fabric);
    for (uint32_t rail = 0; rail < m_spec.gpusPerServer; ++rail)
    {
        switch (fabric->m_kind)
        {
        case RailKind::OCS:
            BuildOpticalRail(fabric, rail);
            break;
        case RailKind::EPS:
            BuildSwitchedRail(fabric, rail);
            break;
        case RailKind::EPS_CLOS:
            BuildClosRail(fabric, rail);
            break;
        }
    }
    InstallTransports(fabric);
    NS_LOG_INFO("built " << m_spec.Gpus() << " GPUs, " << m_spec.gpusPerServer << " "
                         << RailFabricSpec::KindName(fabric->m_kind) << " rails");
    return fabric;
}

std::vector<std::pair<uint32_t, uint32_t>>
RailFabricHelper::RailPorts(uint32_t rail) const
{
    std::vector<std::pair<uint32_t, uint32_t>> ports; // (gpu, port index)
    for (uint32_t s = 0; s < m_spec.servers; ++s)
    {
        for (uint32_t k = 0; k < m_spec.nicPorts; ++k)
        {
            ports.emplace_back(s * m_spec.gpusPerServer + rail, k);
        }
    }
    return ports;
}

void
RailFabricHelper::BuildScaleUp(Ptr<RailFabric> fabric)
{
    if (m_spec.gpusPerServer < 2)
    {
        return; // a one-GPU server has no scale-up traffic
    }
    uint32_t g = m_spec.gpusPerServer;
    for (uint32_t s = 0; s < m_spec.servers; ++s)
    {
        Ptr<Node> node = CreateObject<Node>();
        fabric->m_switchNodes.Add(node);
        fabric->m_endpoints->MarkScaleUpPlane(g + s);
        std::vector<Ptr<NetDevice>> gpuSide;
        for (uint32_t local = 0; local < g; ++local)
        {
            uint32_t gpu = s * g + local;
            NetDeviceContainer link = m_scaleUpLinks.Install(fabric->m_gpus.Get(gpu), node);
            fabric->m_endpoints->AddPort(gpu, link.Get(0), g + s);
            gpuSide.push_back(link.Get(0));
        }
        Ptr<EpsSwitch> sw = m_scaleUpLinks.InstallSwitch(node);
        for (uint32_t local = 0; local < g; ++local)
        {
            sw->AddRoute(Mac48Address::ConvertFrom(gpuSide[local]->GetAddress()), local);
        }
        fabric->m_scaleUp.push_back(sw);
    }
}

Ptr<NetDevice>
RailFabricHelper::LinkNic(Ptr<RailFabric> fabric, uint32_t gpu, Ptr<Node> switchNode)
{
    NetDeviceContainer link = m_railLinks.Install(fabric->m_gpus.Get(gpu), switchNode);
    uint32_t rail = RailTopology(m_spec.gpusPerServer).RailOf(gpu);
    fabric->m_endpoints->AddPort(gpu, link.Get(0), rail);
    fabric->m_nics[gpu].push_back(link.Get(0));
    return link.Get(0);
}

void
RailFabricHelper::BuildOpticalRail(Ptr<RailFabric> fabric, uint32_t rail)
{
    m_ocsHelper.SetTechnology(m_spec.ocsTechnology);
    Ptr<OpticalCircuitSwitch> ocs = m_ocsHelper.CreateSwitch();
    if (m_spec.ocsSwitching != OcsSwitching::TECHNOLOGY) // else the technology's
    {
        ocs->SetAttribute("Switching", EnumValue(static_cast<int>(m_spec.ocsSwitching)));
    }
    for (const auto& [gpu, port] : RailPorts(rail))
    {
        Ptr<NetDevice> nic = m_ocsHelper.InstallPort(fabric->m_gpus.Get(gpu), ocs);
        fabric->m_endpoints->AddPort(gpu, nic, rail);
        fabric->m_nics[gpu].push_back(nic);
    }
    fabric->m_ocs.push_back(ocs);
}

void
RailFabricHelper::BuildSwitchedRail(Ptr<RailFabric> fabric, uint32_t rail)
{
    Ptr<Node> node = CreateObject<Node>();
    fabric->m_switchNodes.Add(node);
    std::vector<Ptr<NetDevice>> nics;
    for (const auto& [gpu, port] : RailPorts(rail))
    {
        nics.push_back(LinkNic(fabric, gpu, node));
    }
    Ptr<EpsSwitch> sw = m_railLinks.InstallSwitch(node);
    for (uint32_t p = 0; p < nics.size(); ++p)
    {
        sw->AddRoute(Mac48Address::ConvertFrom(nics[p]->GetAddress()), p);
    }
    AddRailSwitches(fabric, rail, {sw});
}

void
RailFabricHelper::BuildClosRail(Ptr<RailFabric> fabric, uint32_t rail)
{
    auto ports = RailPorts(rail);
    ClosPlan& plan = fabric->m_clos;
    std::string error =
        ClosPlan::Make(ports.size(), m_spec.switchRadix, m_spec.oversubscription, plan);
    NS_ABORT_MSG_UNLESS(error.empty(), error);
    NodeContainer leaves;
    NodeContainer spines;
    leaves.Create(plan.leaves);
    spines.Create(plan.spines);
    fabric->m_switchNodes.Add(leaves);
    fabric->m_switchNodes.Add(spines);
    // Device order on each node is its switch port order: leaves get their NICs first
    // (down ports 0..), then their uplinks; spines get the links of leaf 0, leaf 1, ...
    std::vector<std::vector<Ptr<NetDevice>>> nicsOfLeaf(plan.leaves);
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        uint32_t leaf = i / plan.downPerLeaf;
        nicsOfLeaf[leaf].push_back(LinkNic(fabric, ports[i].first, leaves.Get(leaf)));
    }
    for (uint32_t leaf = 0; leaf < plan.leaves; ++leaf)
    {
        for (uint32_t spine = 0; spine < plan.spines; ++spine)
        {
            for (uint32_t k = 0; k < plan.linksPerPair; ++k)
            {
                m_railLinks.Install(leaves.Get(leaf), spines.Get(spine));
            }
        }
    }
    std::vector<Ptr<EpsSwitch>> switches;
    for (uint32_t leaf = 0; leaf < plan.leaves; ++leaf)
    {
        switches.push_back(m_railLinks.InstallSwitch(leaves.Get(leaf)));
    }
    for (uint32_t spine = 0; spine < plan.spines; ++spine)
    {
        switches.push_back(m_railLinks.InstallSwitch(spines.Get(spine)));
    }
    // Leaf routes: own NICs down; everything else up over every uplink (ECMP).
    uint32_t uplinks = plan.spines * plan.linksPerPair;
    for (uint32_t leaf = 0; leaf < plan.leaves; ++leaf)
    {
        uint32_t down = nicsOfLeaf[leaf].size();
        std::vector<uint32_t> up(uplinks);
        std::iota(up.begin(), up.end(), down);
        for (uint32_t other = 0; other < plan.leaves; ++other)
        {
            for (uint32_t p = 0; p < nicsOfLeaf[other].size(); ++p)
            {
                Mac48Address mac = Mac48Address::ConvertFrom(nicsOfLeaf[other][p]->GetAddress());
                if (other == leaf)
                {
                    switches[leaf]->AddRoute(mac, p);
                }
                else
                {
                    switches[leaf]->AddRoute(mac, up);
                }
            }
        }
    }
    // Spine routes: a NIC's leaf, over the parallel links to it (ECMP).
    for (uint32_t spine = 0; spine < plan.spines; ++spine)
    {
        for (uint32_t leaf = 0; leaf < plan.leaves; ++leaf)
        {
            std::vector<uint32_t> toLeaf(plan.linksPerPair);
            std::iota(toLeaf.begin(), toLeaf.end(), leaf * plan.linksPerPair);
            for (const auto& nic : nicsOfLeaf[leaf])
            {
                switches[plan.leaves + spine]->AddRoute(
                    Mac48Address::ConvertFrom(nic->GetAddress()),
                    toLeaf);
            }
        }
    }
    AddRailSwitches(fabric, rail, switches);
}

void
RailFabricHelper::AddRailSwitches(Ptr<RailFabric> fabric,
                                  uint32_t rail,
                                  const std::vector<Ptr<EpsSwitch>>& switches)
{
    fabric->m_railSwitches.resize(rail + 1);
    fabric->m_railSwitches[rail] = switches;
    fabric->m_railRouting.resize(rail + 1);
    fabric->m_railRouting[rail] = CreateObject<EpsRouting>();
    fabric->m_railRouting[rail]->SetSwitches(switches);
}

void
RailFabricHelper::InstallTransports(Ptr<RailFabric> fabric)
{
    if (!m_dcqcnChosen)
    {
        // DCQCN runs where switches mark ECN: on electrical rails.
        m_transportFactory.Set("Dcqcn", BooleanValue(fabric->m_kind != RailKind::OCS));
    }
    for (uint32_t gpu = 0; gpu < m_spec.Gpus(); ++gpu)
    {
        Ptr<RailTransport> transport = m_transportFactory.Create<RailTransport>();
        fabric->m_gpus.Get(gpu)->AggregateObject(transport);
        transport->Setup(gpu, fabric->m_endpoints);
        fabric->m_transports.push_back(transport);
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ocs-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/ocs-net-device.h"
#include "ns3/ocs-technology.h"
#include "ns3/rail-trace-helper.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OcsHelper");

OcsHelper::OcsHelper()
{
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_deviceFactory.SetTypeId("ns3::OcsNetDevice");
    m_switchFactory.SetTypeId("ns3::OpticalCircuitSwitch");
}

void
OcsHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
OcsHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
    m_switchAttributes.emplace_back(name, value.Copy());
}

void
OcsHelper::SetTechnology(std::string name)
{
    OcsTechnologyCatalog::Get(name); // aborts with the valid names if unknown
    m_technology = name;
}

Ptr<OpticalCircuitSwitch>
OcsHelper::CreateSwitch() const
{
    Ptr<OpticalCircuitSwitch> ocs = m_switchFactory.Create<OpticalCircuitSwitch>();
    if (!m_technology.empty())
    {
        ocs->ApplyTechnology(m_technology);
        // The technology sets the delay and radix: what the user set explicitly wins.
        for (const auto& [name, value] : m_switchAttributes)
        {
            ocs->SetAttribute(name, *value);
        }
    }
    return ocs;
}

NetDeviceContainer
OcsHelper::Install(const NodeContainer& nodes)
{
    Ptr<OpticalCircuitSwitch> ocs = CreateSwitch();
    NS_ABORT_MSG_IF(nodes.GetN() > ocs->GetRadix(),
                    nodes.GetN() << " ports needed but the OCS radix is " << ocs->GetRadix());
    return Install(nodes, ocs);
}

NetDeviceContainer
OcsHelper::Install(const NodeContainer& nodes, Ptr<OpticalCircuitSwitch> ocs)
{
    NetDeviceContainer devices;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        devices.Add(InstallPort(*node, ocs));
    }
    return devices;
}

Ptr<NetDevice>
OcsHelper::InstallPort(Ptr<Node> node, Ptr<OpticalCircuitSwitch> ocs)
{
    Ptr<OcsNetDevice> device = m_deviceFactory.Create<OcsNetDevice>();
    device->SetAddress(Mac48Address::Allocate());
    device->SetQueue(m_queueFactory.Create<Queue<Packet>>());
    node->AddDevice(device);
    device->Attach(ocs);
    NS_LOG_INFO("node " << node->GetId() << " on OCS port " << device->GetPort());
    return device;
}

void
OcsHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    RailTraceHelper::EnablePcap<OcsNetDevice>(prefix, nd, promiscuous, explicitFilename);
}

void
OcsHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                               std::string prefix,
                               Ptr<NetDevice> nd,
                               bool explicitFilename)
{
    RailTraceHelper::EnableAscii<OcsNetDevice>(stream,
                                               prefix,
                                               nd,
                                               explicitFilename,
                                               {"MacTxDrop", "PhyTxDrop", "PhyRxDrop"});
}

} // namespace ns3

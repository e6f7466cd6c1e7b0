/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "eps-helper.h"

#include "ns3/abort.h"
#include "ns3/eps-channel.h"
#include "ns3/eps-net-device.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/rail-trace-helper.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EpsHelper");

EpsHelper::EpsHelper()
{
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_deviceFactory.SetTypeId("ns3::EpsNetDevice");
    m_channelFactory.SetTypeId("ns3::EpsChannel");
    m_switchFactory.SetTypeId("ns3::EpsSwitch");
}

void
EpsHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
EpsHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
EpsHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

NetDeviceContainer
EpsHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NS_ABORT_MSG_IF(!a || !b, "EpsHelper::Install: null node");
    Ptr<EpsChannel> channel = m_channelFactory.Create<EpsChannel>();
    NetDeviceContainer devices;
    for (const Ptr<Node>& node : {a, b})
    {
        Ptr<EpsNetDevice> device = m_deviceFactory.Create<EpsNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        device->SetQueue(m_queueFactory.Create<Queue<Packet>>());
        node->AddDevice(device);
        device->Attach(channel);
        devices.Add(device);
    }
    NS_LOG_INFO("link node " << a->GetId() << " <-> node " << b->GetId());
    return devices;
}

NetDeviceContainer
EpsHelper::Install(const NodeContainer& nodes)
{
    NS_ABORT_MSG_IF(nodes.GetN() != 2,
                    "EpsHelper::Install: a link joins 2 nodes, not " << nodes.GetN());
    return Install(nodes.Get(0), nodes.Get(1));
}

Ptr<EpsSwitch>
EpsHelper::InstallSwitch(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(!node, "EpsHelper::InstallSwitch: null node");
    NS_ABORT_MSG_IF(node->GetObject<EpsSwitch>(),
                    "EpsHelper::InstallSwitch: node " << node->GetId() << " has a switch");
    Ptr<EpsSwitch> sw = m_switchFactory.Create<EpsSwitch>();
    node->AggregateObject(sw);
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        if (Ptr<EpsNetDevice> device = DynamicCast<EpsNetDevice>(node->GetDevice(i)))
        {
            sw->AddPort(device);
        }
    }
    NS_LOG_INFO("switch on node " << node->GetId() << " with " << sw->GetNPorts() << " ports");
    return sw;
}

void
EpsHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    RailTraceHelper::EnablePcap<EpsNetDevice>(prefix, nd, promiscuous, explicitFilename);
}

void
EpsHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                               std::string prefix,
                               Ptr<NetDevice> nd,
                               bool explicitFilename)
{
    RailTraceHelper::EnableAscii<EpsNetDevice>(stream,
                                               prefix,
                                               nd,
                                               explicitFilename,
                                               {"MacTxDrop", "PhyRxDrop"});
}

} // namespace ns3

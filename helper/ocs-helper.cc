/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ocs-helper.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/ocs-net-device.h"
#include "ns3/ocs-technology.h"

#include <sstream>

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
    Ptr<OcsNetDevice> device = nd->GetObject<OcsNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("not an OcsNetDevice: no PCAP trace for " << nd);
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<OcsNetDevice>(device,
                                             promiscuous ? "PromiscSniffer" : "Sniffer",
                                             file);
}

void
OcsHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                               std::string prefix,
                               Ptr<NetDevice> nd,
                               bool explicitFilename)
{
    Ptr<OcsNetDevice> device = nd->GetObject<OcsNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("not an OcsNetDevice: no ASCII trace for " << nd);
        return;
    }
    Packet::EnablePrinting();
    if (!stream)
    {
        AsciiTraceHelper ascii;
        std::string filename =
            explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> file = ascii.CreateFileStream(filename);
        ascii.HookDefaultReceiveSinkWithoutContext<OcsNetDevice>(device, "MacRx", file);
        ascii.HookDefaultDropSinkWithoutContext<OcsNetDevice>(device, "MacTxDrop", file);
        ascii.HookDefaultDropSinkWithoutContext<OcsNetDevice>(device, "PhyTxDrop", file);
        ascii.HookDefaultDropSinkWithoutContext<OcsNetDevice>(device, "PhyRxDrop", file);
        Ptr<Queue<Packet>> queue = device->GetQueue();
        ascii.HookDefaultEnqueueSinkWithoutContext<Queue<Packet>>(queue, "Enqueue", file);
        ascii.HookDefaultDequeueSinkWithoutContext<Queue<Packet>>(queue, "Dequeue", file);
        ascii.HookDefaultDropSinkWithoutContext<Queue<Packet>>(queue, "Drop", file);
        return;
    }
    // A shared stream: hook with context so lines say which device they come from.
    std::ostringstream base;
    base << "/NodeList/" << nd->GetNode()->GetId() << "/DeviceList/" << nd->GetIfIndex()
         << "/$ns3::OcsNetDevice/";
    auto connect = [&](const std::string& path, auto sink) {
        Config::Connect(base.str() + path, MakeBoundCallback(sink, stream));
    };
    connect("MacRx", &AsciiTraceHelper::DefaultReceiveSinkWithContext);
    connect("MacTxDrop", &AsciiTraceHelper::DefaultDropSinkWithContext);
    connect("PhyTxDrop", &AsciiTraceHelper::DefaultDropSinkWithContext);
    connect("PhyRxDrop", &AsciiTraceHelper::DefaultDropSinkWithContext);
    connect("TxQueue/Enqueue", &AsciiTraceHelper::DefaultEnqueueSinkWithContext);
    connect("TxQueue/Dequeue", &AsciiTraceHelper::DefaultDequeueSinkWithContext);
    connect("TxQueue/Drop", &AsciiTraceHelper::DefaultDropSinkWithContext);
}

} // namespace ns3

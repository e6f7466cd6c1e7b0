/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-endpoints.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/ocs-net-device.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailEndpoints");

NS_OBJECT_ENSURE_REGISTERED(RailEndpoints);

TypeId
RailEndpoints::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RailEndpoints")
                            .SetParent<Object>()
                            .SetGroupName("PhotonicRails")
                            .AddConstructor<RailEndpoints>();
    return tid;
}

void
RailEndpoints::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_planes.clear();
    m_owners.clear();
    m_members.clear();
    m_changeCallbacks.clear();
    m_ocsPorts.clear();
    Object::DoDispose();
}

uint32_t
RailEndpoints::AddPort(uint32_t gpu, Ptr<NetDevice> port, uint32_t plane)
{
    NS_LOG_FUNCTION(this << gpu << port << plane);
    if (gpu >= m_ports.size())
    {
        m_ports.resize(gpu + 1);
        m_planes.resize(gpu + 1);
    }
    Mac48Address address = Mac48Address::ConvertFrom(port->GetAddress());
    uint32_t index = m_ports[gpu].size();
    NS_ABORT_MSG_UNLESS(m_owners.emplace(address, std::make_pair(gpu, index)).second,
                        "port address " << address << " registered twice");
    m_ports[gpu].push_back(port);
    m_planes[gpu].push_back(plane);
    m_members[plane].emplace_back(gpu, index);
    port->AddLinkChangeCallback(MakeCallback(&RailEndpoints::OnLinkChange, this).Bind(gpu, index));
    Ptr<OcsNetDevice> optical = DynamicCast<OcsNetDevice>(port);
    if (optical && optical->GetSwitch())
    {
        const OpticalCircuitSwitch* ocs = PeekPointer(optical->GetSwitch());
        bool first = std::none_of(m_ocsPorts.begin(), m_ocsPorts.end(), [ocs](const auto& entry) {
            return entry.first.first == ocs;
        });
        m_ocsPorts[{ocs, optical->GetPort()}] = {gpu, index};
        if (first)
        {
            optical->GetSwitch()->TraceConnectWithoutContext(
                "PortFailure",
                MakeCallback(&RailEndpoints::OnOcsPortFailure, this).Bind(ocs));
        }
    }
    return index;
}

void
RailEndpoints::OnLinkChange(uint32_t gpu, uint32_t index)
{
    if (IsPortDown(gpu, index))
    {
        m_downSince.emplace(std::make_pair(gpu, index), Simulator::Now());
    }
    else
    {
        m_downSince.erase({gpu, index});
    }
    for (const Callback<void>& callback : m_changeCallbacks)
    {
        callback();
    }
}

void
RailEndpoints::OnOcsPortFailure(const OpticalCircuitSwitch* ocs, uint32_t port, bool failed)
{
    auto nic = m_ocsPorts.find({ocs, port});
    if (nic == m_ocsPorts.end())
    {
        return; // no GPU's port is plugged into it
    }
    if (failed)
    {
        m_downSince.emplace(nic->second, Simulator::Now());
    }
    else
    {
        m_downSince.erase(nic->second);
    }
}

void
RailEndpoints::AddChangeCallback(Callback<void> callback)
{
    NS_LOG_FUNCTION(this);
    m_changeCallbacks.push_back(callback);
}

Time
RailEndpoints::GetDownSince(uint32_t gpu, uint32_t index) const
{
    NS_LOG_FUNCTION(this << gpu << index);
    auto down = m_downSince.find({gpu, index});
    return down == m_downSince.end() ? Time::Max() : down->second;
}

void
RailEndpoints::MarkScaleUpPlane(uint32_t plane)
{
    NS_LOG_FUNCTION(this << plane);
    m_scaleUpPlanes.insert(plane);
}

bool
RailEndpoints::IsScaleUpPlane(uint32_t plane) const
{
    NS_LOG_FUNCTION(this << plane);
    return m_scaleUpPlanes.count(plane) > 0;
}

uint32_t
RailEndpoints::GetPlane(uint32_t gpu, uint32_t index) const
{
    NS_LOG_FUNCTION(this << gpu << index);
    NS_ABORT_MSG_IF(gpu >= m_planes.size() || index >= m_planes[gpu].size(),
                    "unknown port " << index << " of GPU " << gpu);
    return m_planes[gpu][index];
}

std::vector<uint32_t>
RailEndpoints::GetPortsOnPlane(uint32_t gpu, uint32_t plane) const
{
    NS_LOG_FUNCTION(this << gpu << plane);
    std::vector<uint32_t> indices;
    if (gpu < m_planes.size())
    {
        for (uint32_t i = 0; i < m_planes[gpu].size(); ++i)
        {
            if (m_planes[gpu][i] == plane)
            {
                indices.push_back(i);
            }
        }
    }
    return indices;
}

uint32_t
RailEndpoints::GetGpuCount() const
{
    NS_LOG_FUNCTION(this);
    return m_ports.size();
}

const std::vector<std::pair<uint32_t, uint32_t>>&
RailEndpoints::GetPlaneMembers(uint32_t plane) const
{
    NS_LOG_FUNCTION(this << plane);
    static const std::vector<std::pair<uint32_t, uint32_t>> none;
    auto it = m_members.find(plane);
    return it == m_members.end() ? none : it->second;
}

const std::vector<Ptr<NetDevice>>&
RailEndpoints::GetPorts(uint32_t gpu) const
{
    NS_LOG_FUNCTION(this << gpu);
    NS_ABORT_MSG_IF(gpu >= m_ports.size(), "unknown GPU " << gpu);
    return m_ports[gpu];
}

bool
RailEndpoints::IsPortDown(uint32_t gpu, uint32_t index) const
{
    NS_LOG_FUNCTION(this << gpu << index);
    Ptr<NetDevice> device = GetPorts(gpu).at(index);
    if (Ptr<OcsNetDevice> optical = DynamicCast<OcsNetDevice>(device))
    {
        Ptr<OpticalCircuitSwitch> ocs = optical->GetSwitch();
        return ocs && ocs->IsPortFailed(optical->GetPort());
    }
    return !device->IsLinkUp();
}

bool
RailEndpoints::Find(const Address& address, uint32_t& gpu, uint32_t& index) const
{
    NS_LOG_FUNCTION(this << address);
    if (!Mac48Address::IsMatchingType(address))
    {
        return false;
    }
    auto it = m_owners.find(Mac48Address::ConvertFrom(address));
    if (it == m_owners.end())
    {
        return false;
    }
    gpu = it->second.first;
    index = it->second.second;
    return true;
}

} // namespace ns3

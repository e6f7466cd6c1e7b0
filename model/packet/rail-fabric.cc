/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-fabric.h"

#include "ns3/abort.h"
#include "ns3/attribute-default.h"
#include "ns3/eps-channel.h"
#include "ns3/eps-net-device.h"
#include "ns3/eps-routing.h"
#include "ns3/log.h"
#include "ns3/ocs-net-device.h"
#include "ns3/rail-net-device.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailFabric");

NS_OBJECT_ENSURE_REGISTERED(RailFabric);

TypeId
RailFabric::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RailFabric").SetParent<RailNetwork>().SetGroupName("PhotonicRails");
    return tid;
}

std::string
RailFabric::ValidateRetransmitTimeout(const RailFabricSpec& spec)
{
    Time link = AttributeDefault<TimeValue>(EpsChannel::GetTypeId(), "Delay");
    Time processing = AttributeDefault<TimeValue>(EpsSwitch::GetTypeId(), "ProcessingDelay");
    Time fiber = AttributeDefault<TimeValue>(OcsNetDevice::GetTypeId(), "FiberDelay");
    Time timeout = AttributeDefault<TimeValue>(RailTransport::GetTypeId(), "RetransmitTimeout");
    // The round trips of the fabric's paths without their frames: a rail's (NIC to NIC
    // through its switch, a Clos's leaf, spine and leaf, or an OCS's two fibers) and, with
    // two GPUs or more per server, the scale-up switch's.
    std::vector<std::pair<Time, std::string>> paths;
    auto switched = [&](uint32_t links, uint32_t switches) {
        std::ostringstream how;
        how << "2 x (" << links << " links x " << link.GetNanoSeconds() << " ns + " << switches
            << (switches > 1 ? " switches" : " switch") << " x " << processing.GetNanoSeconds()
            << " ns)";
        paths.emplace_back(2 * (links * link + switches * processing), how.str());
    };
    RailKind rails = spec.EffectiveKind();
    if (rails == RailKind::OCS)
    {
        paths.emplace_back(4 * fiber,
                           "2 x 2 fibers x " + std::to_string(fiber.GetNanoSeconds()) + " ns");
    }
    else
    {
        rails == RailKind::EPS_CLOS ? switched(4, 3) : switched(2, 1);
    }
    if (spec.gpusPerServer >= 2)
    {
        switched(2, 1);
    }
    auto [roundTrip, how] = *std::max_element(paths.begin(), paths.end());
    // An acknowledgement waits for AckInterval frames, each followed by the interframe gap
    // (the transport's timer allows for their frame time, not for their gaps).
    Time gap = AttributeDefault<TimeValue>(RailNetDevice::GetTypeId(), "InterframeGap");
    uint64_t frames = AttributeDefault<UintegerValue>(RailTransport::GetTypeId(), "AckInterval");
    if (gap.IsStrictlyPositive())
    {
        roundTrip += static_cast<int64_t>(frames) * gap;
        how += " + " + std::to_string(frames) + " frames x " +
               std::to_string(gap.GetNanoSeconds()) + " ns of interframe gap";
    }
    if (timeout > roundTrip)
    {
        return "";
    }
    std::ostringstream error;
    error << "ns3::RailTransport::RetransmitTimeout (" << timeout.GetNanoSeconds()
          << " ns) is not above the round trip of the longest path without its frames, " << how
          << " = " << roundTrip.GetNanoSeconds()
          << " ns: every frame would time out before its acknowledgement";
    return error.str();
}

void
RailFabric::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_transports.clear();
    m_endpoints = nullptr;
    m_nics.clear();
    m_railSwitches.clear();
    m_railRouting.clear();
    m_scaleUp.clear();
    RailNetwork::DoDispose();
}

Ptr<RailTransport>
RailFabric::GetTransport(uint32_t gpu) const
{
    NS_LOG_FUNCTION(this << gpu);
    NS_ABORT_MSG_IF(gpu >= m_transports.size(), "no GPU " << gpu);
    return m_transports[gpu];
}

Ptr<MessageTransport>
RailFabric::GetMessageTransport(uint32_t gpu) const
{
    NS_LOG_FUNCTION(this << gpu);
    return GetTransport(gpu);
}

std::string
RailFabric::GetModelName() const
{
    NS_LOG_FUNCTION(this);
    return "packet";
}

Ptr<RailEndpoints>
RailFabric::GetEndpoints() const
{
    NS_LOG_FUNCTION(this);
    return m_endpoints;
}

std::vector<Ptr<NetDevice>>
RailFabric::GetNicPorts(uint32_t gpu) const
{
    NS_LOG_FUNCTION(this << gpu);
    NS_ABORT_MSG_IF(gpu >= m_nics.size(), "no GPU " << gpu);
    return m_nics[gpu];
}

const std::vector<Ptr<EpsSwitch>>&
RailFabric::GetRailSwitches(uint32_t rail) const
{
    NS_LOG_FUNCTION(this << rail);
    NS_ABORT_MSG_IF(rail >= m_railSwitches.size(), "no switched rail " << rail);
    return m_railSwitches[rail];
}

uint64_t
RailFabric::CountDroppedFrames() const
{
    NS_LOG_FUNCTION(this);
    uint64_t dropped = 0;
    auto count = [&dropped](const NodeContainer& nodes) {
        for (auto node = nodes.Begin(); node != nodes.End(); ++node)
        {
            if (Ptr<EpsSwitch> sw = (*node)->GetObject<EpsSwitch>())
            {
                const EpsSwitchCounters& c = sw->GetCounters();
                dropped += c.framesDroppedNoRoute + c.framesDroppedBufferFull +
                           c.framesDroppedEgressThreshold + c.framesDroppedLinkDown;
            }
            for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
            {
                Ptr<NetDevice> device = (*node)->GetDevice(i);
                if (auto eps = DynamicCast<EpsNetDevice>(device))
                {
                    const EpsNetDeviceCounters& c = eps->GetCounters();
                    dropped += c.framesDroppedQueueFull + c.framesDroppedOversize +
                               c.framesCorrupted + c.framesDroppedLinkDown;
                    Ptr<EpsChannel> cable = eps->GetEpsChannel();
                    if (cable && cable->GetDevice(0) == device) // each cable counted once
                    {
                        dropped += cable->GetFramesLost();
                    }
                }
                else if (auto ocs = DynamicCast<OcsNetDevice>(device))
                {
                    const OcsNetDeviceCounters& c = ocs->GetCounters();
                    dropped += c.framesDroppedNoCircuit + c.framesDroppedQueueFull +
                               c.framesDroppedOversize + c.framesLostInFlight + c.framesCorrupted;
                }
            }
        }
    };
    count(m_gpus);
    count(m_switchNodes);
    return dropped;
}

Ptr<EpsRouting>
RailFabric::GetRailRouting(uint32_t rail) const
{
    NS_LOG_FUNCTION(this << rail);
    NS_ABORT_MSG_IF(rail >= m_railRouting.size(),
                    "RailFabric: rail " << rail << " is not switched");
    return m_railRouting[rail];
}

Ptr<EpsSwitch>
RailFabric::GetScaleUpSwitch(uint32_t server) const
{
    NS_LOG_FUNCTION(this << server);
    NS_ABORT_MSG_IF(server >= m_scaleUp.size(), "no server " << server);
    return m_scaleUp[server];
}

const ClosPlan&
RailFabric::GetClosPlan() const
{
    NS_LOG_FUNCTION(this);
    return m_clos;
}

uint32_t
RailFabric::GetRailSwitchCount() const
{
    NS_LOG_FUNCTION(this);
    uint32_t count = 0;
    for (const auto& rail : m_railSwitches)
    {
        count += rail.size();
    }
    return count;
}

uint64_t
RailFabric::GetRailSwitchPortCount() const
{
    NS_LOG_FUNCTION(this);
    uint64_t ports = 0;
    for (const auto& rail : m_railSwitches)
    {
        for (const auto& sw : rail)
        {
            ports += sw->GetNPorts();
        }
    }
    for (const auto& ocs : m_ocs)
    {
        ports += ocs->GetNDevices();
    }
    return ports;
}

uint32_t
RailFabric::GetOcsPort(uint32_t gpu, uint32_t port) const
{
    NS_LOG_FUNCTION(this << gpu << port);
    Ptr<OcsNetDevice> device = DynamicCast<OcsNetDevice>(GetNicPorts(gpu).at(port));
    NS_ABORT_MSG_UNLESS(device, "GPU " << gpu << " port " << port << " is not an OCS port");
    return device->GetPort();
}

int64_t
RailFabric::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    int64_t used = 0;
    for (const Ptr<EpsSwitch>& sw : m_scaleUp)
    {
        used += sw ? sw->AssignStreams(stream + used) : 0;
    }
    for (const auto& switches : m_railSwitches)
    {
        for (const Ptr<EpsSwitch>& sw : switches)
        {
            used += sw->AssignStreams(stream + used);
        }
    }
    return used;
}

} // namespace ns3

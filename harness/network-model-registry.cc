/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "network-model-registry.h"

#include "ns3/eps-routing.h"
#include "ns3/flow-fabric-helper.h"
#include "ns3/rail-fabric-helper.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

namespace
{

Ptr<RailNetwork>
BuildPacketNetwork(const NetworkBuildOptions& o)
{
    RailFabricHelper helper;
    helper.SetSpec(o.spec);
    if (o.delays)
    {
        helper.SetEpsChannelAttribute("Delay", TimeValue(o.delays->link));
        helper.SetEpsSwitchAttribute("ProcessingDelay", TimeValue(o.delays->switching));
        helper.SetOcsDeviceAttribute("FiberDelay", TimeValue(o.delays->fiber));
    }
    helper.SetTransportAttribute("QpsPerConnection", UintegerValue(o.qpsPerConnection));
    Ptr<RailFabric> fabric = helper.Build();
    for (uint32_t rail = 0;
         o.detectionDelay && o.spec.kind != RailKind::OCS && rail < o.spec.gpusPerServer;
         ++rail)
    {
        fabric->GetRailRouting(rail)->SetAttribute("DetectionDelay", TimeValue(*o.detectionDelay));
    }
    return fabric;
}

Ptr<RailNetwork>
BuildFlowNetwork(const NetworkBuildOptions& o)
{
    if (o.qpsPerConnection > 1)
    {
        throw std::invalid_argument("queue pairs per connection are a packet-model setting: "
                                    "the flow model has no queue pairs");
    }
    FlowFabricHelper helper;
    helper.SetSpec(o.spec);
    if (o.delays)
    {
        helper.SetHopDelays(*o.delays);
    }
    Ptr<FlowFabric> fabric = helper.Build();
    if (o.detectionDelay)
    {
        fabric->SetAttribute("DetectionDelay", TimeValue(*o.detectionDelay));
    }
    return fabric;
}

} // namespace

const std::vector<NetworkModelEntry>&
NetworkModelRegistry::All()
{
    // name, summary, builder, frames, faults, queue pairs, merged ring steps
    static const std::vector<NetworkModelEntry> models = {
        {"packet", "frames, the reference", &BuildPacketNetwork, true, true, true, false},
        {"flow", "max-min fair flows, for scale", &BuildFlowNetwork, false, true, false, true},
    };
    return models;
}

const NetworkModelEntry*
NetworkModelRegistry::Find(const std::string& name)
{
    for (const NetworkModelEntry& model : All())
    {
        if (model.name == name)
        {
            return &model;
        }
    }
    return nullptr;
}

std::string
NetworkModelRegistry::Names(const std::string& separator)
{
    std::string names;
    for (const NetworkModelEntry& model : All())
    {
        names += (names.empty() ? "" : separator) + model.name;
    }
    return names;
}

std::string
NetworkModelRegistry::Describe()
{
    const std::vector<NetworkModelEntry>& models = All();
    std::string text;
    for (std::size_t i = 0; i < models.size(); ++i)
    {
        text += (i == 0                   ? ""
                 : i + 1 == models.size() ? " or "
                                          : ", ") +
                models[i].name + " (" + models[i].summary + ")";
    }
    return text;
}

std::string
NetworkModelRegistry::NamesWith(bool NetworkModelEntry::*capability, const std::string& separator)
{
    std::string names;
    for (const NetworkModelEntry& model : All())
    {
        if (model.*capability)
        {
            names += (names.empty() ? "" : separator) + model.name;
        }
    }
    return names;
}

} // namespace ns3

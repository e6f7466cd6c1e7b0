/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GPUs with RailTransports on the NIC ports of one optical circuit switch: the fixture of
 * the transport suites over circuits.
 */

#ifndef RAIL_TRANSPORT_TEST_BED_H
#define RAIL_TRANSPORT_TEST_BED_H

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"

#include <vector>

namespace ns3
{
namespace tests
{

/// GPU g's port k sits on OCS port k * gpus + g.
class OpticalTransportBed
{
  public:
    struct Delivery
    {
        Time at;        //!< When the whole message had arrived
        uint32_t from;  //!< Source GPU
        uint64_t bytes; //!< Message size
    };

    OpticalTransportBed(uint32_t gpus, uint32_t ports, DataRate rate, Time fiber, Time delay)
    {
        nodes.Create(gpus);
        OcsHelper helper;
        helper.SetDeviceAttribute("DataRate", DataRateValue(rate));
        helper.SetDeviceAttribute("FiberDelay", TimeValue(fiber));
        helper.SetSwitchAttribute("ReconfigurationDelay", TimeValue(delay));
        helper.SetSwitchAttribute("Radix", UintegerValue(gpus * ports));
        ocs = helper.CreateSwitch();
        endpoints = CreateObject<RailEndpoints>();
        for (uint32_t k = 0; k < ports; ++k)
        {
            NetDeviceContainer devices = helper.Install(nodes, ocs);
            for (uint32_t g = 0; g < gpus; ++g)
            {
                endpoints->AddPort(g, devices.Get(g));
            }
        }
        deliveries.resize(gpus);
        for (uint32_t g = 0; g < gpus; ++g)
        {
            Ptr<RailTransport> transport = CreateObject<RailTransport>();
            nodes.Get(g)->AggregateObject(transport);
            transport->Setup(g, endpoints);
            transport->SetReceiveCallback(Callback<void, uint32_t, uint64_t, uint64_t>(
                [this, g](uint32_t from, uint64_t, uint64_t bytes) {
                    deliveries[g].push_back({Simulator::Now(), from, bytes});
                }));
            transports.push_back(transport);
        }
    }

    ~OpticalTransportBed()
    {
        Simulator::Destroy();
    }

    /// \return the OCS port of GPU \p g's port \p k
    uint32_t Port(uint32_t g, uint32_t k) const
    {
        return k * nodes.GetN() + g;
    }

    /// Duplex circuits between port k of GPU a and port k of GPU b, for every k.
    OcsConnections Circuits(uint32_t a, uint32_t b, uint32_t ports) const
    {
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        for (uint32_t k = 0; k < ports; ++k)
        {
            pairs.emplace_back(Port(a, k), Port(b, k));
        }
        return OpticalCircuitSwitch::Duplex(pairs);
    }

    NodeContainer nodes;
    Ptr<OpticalCircuitSwitch> ocs;
    Ptr<RailEndpoints> endpoints;
    std::vector<Ptr<RailTransport>> transports;
    std::vector<std::vector<Delivery>> deliveries; //!< Per receiving GPU
};

} // namespace tests
} // namespace ns3

#endif /* RAIL_TRANSPORT_TEST_BED_H */

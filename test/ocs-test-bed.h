/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A few hosts on one optical circuit switch, with frame arrivals recorded per host: the
 * shared fixture of the OCS test suites.
 */

#ifndef OCS_TEST_BED_H
#define OCS_TEST_BED_H

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"

#include <vector>

namespace ns3
{
namespace tests
{

/// Hosts 0..n-1 on OCS ports 0..n-1; frame arrivals (payload, time) per host.
class OcsTestBed
{
  public:
    struct Arrival
    {
        Time at;          //!< Simulation time of the last bit
        uint32_t payload; //!< Payload bytes
        Address from;     //!< Sender
    };

    /**
     * \param hosts number of hosts
     * \param rate line rate of every port
     * \param fiber fiber delay of every port
     * \param delay reconfiguration delay of the switch
     */
    OcsTestBed(uint32_t hosts, DataRate rate, Time fiber, Time delay)
    {
        nodes.Create(hosts);
        OcsHelper helper;
        helper.SetDeviceAttribute("DataRate", DataRateValue(rate));
        helper.SetDeviceAttribute("FiberDelay", TimeValue(fiber));
        helper.SetSwitchAttribute("ReconfigurationDelay", TimeValue(delay));
        helper.SetSwitchAttribute("Radix", UintegerValue(hosts));
        helper.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100000p"));
        devices = helper.Install(nodes);
        ocs = Device(0)->GetSwitch();
        arrivals.resize(hosts);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            Device(i)->SetReceiveCallback(MakeCallback(&OcsTestBed::Received, this));
        }
    }

    ~OcsTestBed()
    {
        Simulator::Destroy();
    }

    /// \return the device of host \p i
    Ptr<OcsNetDevice> Device(uint32_t i) const
    {
        return DynamicCast<OcsNetDevice>(devices.Get(i));
    }

    /// Schedules host \p from to send \p count frames of \p payload bytes to host \p to.
    void Send(uint32_t from, uint32_t to, uint32_t payload, Time at, uint32_t count = 1)
    {
        Simulator::Schedule(at, [this, from, to, payload, count]() {
            for (uint32_t k = 0; k < count; ++k)
            {
                Device(from)->Send(Create<Packet>(payload), Device(to)->GetAddress(), 0x88b5);
            }
        });
    }

    NodeContainer nodes;
    NetDeviceContainer devices;
    Ptr<OpticalCircuitSwitch> ocs;
    std::vector<std::vector<Arrival>> arrivals; //!< Per receiving host

  private:
    bool Received(Ptr<NetDevice> device, Ptr<const Packet> packet, uint16_t, const Address& from)
    {
        arrivals[device->GetNode()->GetId() - nodes.Get(0)->GetId()].push_back(
            {Simulator::Now(), packet->GetSize(), from});
        return true;
    }
};

} // namespace tests
} // namespace ns3

#endif /* OCS_TEST_BED_H */

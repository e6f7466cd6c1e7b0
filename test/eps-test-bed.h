/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Hosts on one electrical packet switch (or on a bare link), with frame arrivals recorded
 * per host: the shared fixture of the EPS test suites.
 */

#ifndef EPS_TEST_BED_H
#define EPS_TEST_BED_H

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"

#include <vector>

namespace ns3
{
namespace tests
{

/// EtherType of the test frames (IEEE local experimental).
constexpr uint16_t TEST_ETHERTYPE = 0x88b5;
/// Ethernet II header bytes.
constexpr uint32_t ETHERNET_HEADER = 14;

/// One frame received by a host's upper layer.
struct EpsArrival
{
    Time at;          //!< Simulation time of the last bit
    uint32_t payload; //!< Payload bytes
    Address from;     //!< Sender
    uint32_t label;   //!< Flow label (first 4 payload bytes)
    bool marked;      //!< Carries an EcnMarkTag
};

/// 802.1p priority of network-control frames (RoCE deployments send CNPs at 6).
constexpr uint8_t NETWORK_CONTROL_PRIORITY = 6;

/// \return a callback from a lambda, for TraceConnectWithoutContext.
template <typename... Args, typename F>
Callback<void, Args...>
Sink(F f)
{
    return Callback<void, Args...>(std::function<void(Args...)>(f));
}

/// \return a payload of \p bytes whose first 4 bytes hold \p label (big-endian).
inline Ptr<Packet>
MakePayload(uint32_t bytes, uint32_t label)
{
    std::vector<uint8_t> data(bytes, 0);
    for (uint32_t i = 0; i < 4 && i < bytes; ++i)
    {
        data[i] = static_cast<uint8_t>(label >> (24 - 8 * i));
    }
    return Create<Packet>(data.data(), bytes);
}

/**
 * Hosts 0..n-1, each with one EpsNetDevice; with a switch (star) host i sits on switch
 * port i and the switch routes each host's MAC to its port. Without a switch (n = 2) the
 * two hosts share one cable.
 */
class EpsTestBed
{
  public:
    /**
     * \param hosts number of hosts
     * \param rate line rate of every port
     * \param delay propagation delay of every cable
     * \param withSwitch star around a switch (true) or a bare link between 2 hosts
     */
    EpsTestBed(uint32_t hosts, DataRate rate, Time delay, bool withSwitch = true)
    {
        EpsHelper helper;
        helper.SetDeviceAttribute("DataRate", DataRateValue(rate));
        helper.SetChannelAttribute("Delay", TimeValue(delay));
        helper.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100000p"));
        nodes.Create(hosts);
        if (withSwitch)
        {
            switchNode = CreateObject<Node>();
            for (uint32_t i = 0; i < hosts; ++i)
            {
                NetDeviceContainer link = helper.Install(nodes.Get(i), switchNode);
                hostDevices.Add(link.Get(0));
            }
            sw = helper.InstallSwitch(switchNode);
            for (uint32_t i = 0; i < hosts; ++i)
            {
                sw->AddRoute(Mac48Address::ConvertFrom(Host(i)->GetAddress()), i);
            }
        }
        else
        {
            hostDevices = helper.Install(nodes);
        }
        arrivals.resize(hosts);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            Host(i)->SetReceiveCallback(MakeCallback(&EpsTestBed::Received, this));
        }
    }

    ~EpsTestBed()
    {
        Simulator::Destroy();
    }

    /// \return the device of host \p i
    Ptr<EpsNetDevice> Host(uint32_t i) const
    {
        return DynamicCast<EpsNetDevice>(hostDevices.Get(i));
    }

    /// \return the switch's device facing host \p i
    Ptr<EpsNetDevice> SwitchPort(uint32_t i) const
    {
        return sw->GetPortDevice(i);
    }

    /// \return the MAC address of host \p i
    Mac48Address Mac(uint32_t i) const
    {
        return Mac48Address::ConvertFrom(Host(i)->GetAddress());
    }

    /**
     * Schedules host \p from to send \p count frames of \p frameBytes (with header) to
     * \p to, back to back; frame k carries flow label \p label + k if \p distinctLabels.
     */
    void Send(uint32_t from,
              Mac48Address to,
              uint32_t frameBytes,
              Time at,
              uint32_t count = 1,
              uint32_t label = 0,
              bool distinctLabels = false)
    {
        Simulator::Schedule(at, [=]() {
            for (uint32_t k = 0; k < count; ++k)
            {
                Host(from)->Send(
                    MakePayload(frameBytes - ETHERNET_HEADER, distinctLabels ? label + k : label),
                    to,
                    TEST_ETHERTYPE);
            }
        });
    }

    /// Schedules host \p from to send one network-control frame (SocketPriorityTag 6).
    void SendNetworkControl(uint32_t from, uint32_t to, uint32_t frameBytes, Time at)
    {
        Simulator::Schedule(at, [=]() {
            Ptr<Packet> payload = MakePayload(frameBytes - ETHERNET_HEADER, 0);
            SocketPriorityTag priority;
            priority.SetPriority(NETWORK_CONTROL_PRIORITY);
            payload->AddPacketTag(priority);
            Host(from)->Send(payload, Mac(to), TEST_ETHERTYPE);
        });
    }

    /// Same, to host \p to.
    void Send(uint32_t from, uint32_t to, uint32_t frameBytes, Time at, uint32_t count = 1)
    {
        Send(from, Mac(to), frameBytes, at, count);
    }

    /// \return payload bytes host \p i received
    uint64_t PayloadBytes(uint32_t i) const
    {
        uint64_t bytes = 0;
        for (const auto& arrival : arrivals[i])
        {
            bytes += arrival.payload;
        }
        return bytes;
    }

    NodeContainer nodes;
    NetDeviceContainer hostDevices;
    Ptr<Node> switchNode;
    Ptr<EpsSwitch> sw;
    std::vector<std::vector<EpsArrival>> arrivals; //!< Per receiving host

  private:
    bool Received(Ptr<NetDevice> device, Ptr<const Packet> packet, uint16_t, const Address& from)
    {
        EcnMarkTag tag;
        arrivals[device->GetNode()->GetId() - nodes.Get(0)->GetId()].push_back(
            {Simulator::Now(),
             packet->GetSize(),
             from,
             EpsSwitch::ReadFlowLabel(packet),
             packet->PeekPacketTag(tag)});
        return true;
    }
};

} // namespace tests
} // namespace ns3

#endif /* EPS_TEST_BED_H */

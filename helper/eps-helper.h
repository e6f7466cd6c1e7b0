/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EPS_HELPER_H
#define EPS_HELPER_H

#include "ns3/eps-switch.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/queue.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Builds electrical links (EpsNetDevice pairs on an EpsChannel) and EpsSwitches.
 *
 * Like ns-3's PointToPointHelper: Install(a, b) creates one device on each node and the
 * cable between them. Devices get fresh MAC addresses and a DropTail transmit queue
 * (SetQueue changes it). InstallSwitch(node) aggregates an EpsSwitch to a node and makes the
 * node's EpsNetDevices its ports. PCAP traces are Ethernet (DLT_EN10MB) and show PAUSE
 * frames; ASCII traces log queue events, receptions and drops.
 */
class EpsHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    EpsHelper();
    ~EpsHelper() override = default;

    /**
     * \brief Sets the transmit queue type and its attributes for the devices created.
     * \tparam Ts \deduced argument types
     * \param type the queue type, e.g. "ns3::DropTailQueue"
     * \param args name/value pairs of attributes
     */
    template <typename... Ts>
    void SetQueue(std::string type, Ts&&... args);

    /// \param name attribute of EpsNetDevice \param value its value for the devices created
    void SetDeviceAttribute(std::string name, const AttributeValue& value);
    /// \param name attribute of EpsChannel \param value its value for the channels created
    void SetChannelAttribute(std::string name, const AttributeValue& value);
    /// \param name attribute of EpsSwitch \param value its value for the switches created
    void SetSwitchAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Connects \p a and \p b with a new cable and one new device on each.
     * \param a first node \param b second node
     * \return the two devices: a's, then b's
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);
    /**
     * \param nodes exactly two nodes
     * \return the two devices, in node order
     */
    NetDeviceContainer Install(const NodeContainer& nodes);

    /**
     * \brief Aggregates a new EpsSwitch to \p node; the node's EpsNetDevices become ports
     *        0, 1, ... in device order (more can be added later with EpsSwitch::AddPort).
     * \param node a node without an EpsSwitch
     * \return the switch
     */
    Ptr<EpsSwitch> InstallSwitch(Ptr<Node> node) const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_queueFactory;   //!< Transmit queues
    ObjectFactory m_deviceFactory;  //!< Devices
    ObjectFactory m_channelFactory; //!< Channels
    ObjectFactory m_switchFactory;  //!< Switches
};

template <typename... Ts>
void
EpsHelper::SetQueue(std::string type, Ts&&... args)
{
    QueueBase::AppendItemTypeIfNotPresent(type, "Packet");
    m_queueFactory.SetTypeId(type);
    m_queueFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* EPS_HELPER_H */

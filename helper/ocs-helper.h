/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OCS_HELPER_H
#define OCS_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/queue.h"
#include "ns3/trace-helper.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Builds an optical circuit switch and plugs one OcsNetDevice per node into it.
 *
 * Devices get fresh MAC addresses and a DropTail transmit queue (changeable with
 * SetQueue()). PCAP traces are Ethernet (DLT_EN10MB); ASCII traces log queue events,
 * receptions and drops, as for ns-3's point-to-point devices.
 */
class OcsHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    OcsHelper();
    ~OcsHelper() override = default;

    /**
     * \brief Sets the transmit queue type and its attributes for the devices created.
     * \tparam Ts \deduced argument types
     * \param type the queue type, e.g. "ns3::DropTailQueue"
     * \param args name/value pairs of attributes
     */
    template <typename... Ts>
    void SetQueue(std::string type, Ts&&... args);

    /**
     * \param name attribute of OcsNetDevice
     * \param value its value for the devices created
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of OpticalCircuitSwitch
     * \param value its value for the switches created; it wins over the technology's
     *        (SetTechnology), whichever is called first
     */
    void SetSwitchAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Makes the switches created use a catalogued technology's delay and radix,
     *        except where SetSwitchAttribute sets them.
     * \param name a name from OcsTechnologyCatalog, e.g. "piezo"
     */
    void SetTechnology(std::string name);

    /**
     * \brief Creates a switch and plugs one device per node into ports 0, 1, ... in order.
     * \param nodes the hosts
     * \return the devices, in port order
     */
    NetDeviceContainer Install(const NodeContainer& nodes);

    /**
     * \brief Plugs one device per node into the next free ports of an existing switch.
     * \param nodes the hosts
     * \param ocs the switch
     * \return the devices
     */
    NetDeviceContainer Install(const NodeContainer& nodes, Ptr<OpticalCircuitSwitch> ocs);

    /**
     * \brief Plugs one new device on \p node into the next free port of \p ocs.
     * \param node the host
     * \param ocs the switch
     * \return the device
     */
    Ptr<NetDevice> InstallPort(Ptr<Node> node, Ptr<OpticalCircuitSwitch> ocs);

    /// \return a new switch with the configured attributes and technology
    Ptr<OpticalCircuitSwitch> CreateSwitch() const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_queueFactory;  //!< Transmit queues
    ObjectFactory m_deviceFactory; //!< Devices
    ObjectFactory m_switchFactory; //!< Switches
    std::string m_technology;      //!< Technology preset, or empty
    /// Switch attributes set explicitly, applied again after the technology's
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_switchAttributes;
};

template <typename... Ts>
void
OcsHelper::SetQueue(std::string type, Ts&&... args)
{
    QueueBase::AppendItemTypeIfNotPresent(type, "Packet");
    m_queueFactory.SetTypeId(type);
    m_queueFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* OCS_HELPER_H */

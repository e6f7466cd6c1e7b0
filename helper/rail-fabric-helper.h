/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_FABRIC_HELPER_H
#define RAIL_FABRIC_HELPER_H

#include "ns3/eps-helper.h"
#include "ns3/eps-switch.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/ocs-helper.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/rail-endpoints.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/rail-fabric.h"
#include "ns3/rail-network.h"
#include "ns3/rail-transport.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Builds rail-optimized GPU fabrics from a RailFabricSpec.
 *
 * Every GPU gets a node, a scale-up port into its server's non-blocking scale-up switch (an
 * EpsSwitch whose ports run at the per-GPU scale-up bandwidth, like an NVSwitch) and its
 * NIC ports on its rail. A rail is one OpticalCircuitSwitch (kind ocs; circuits start
 * empty), one EpsSwitch (eps), or a two-tier leaf-spine Clos of EpsSwitches with per-flow
 * ECMP (eps-clos, also chosen automatically when a rail has more ports than the switch
 * radix). Each GPU gets a RailTransport on all of its ports; a transfer to a GPU on another
 * rail of another server goes through the scale-up domain to the local GPU on the
 * destination's rail, then over that rail (PXN), as NCCL does.
 */
class RailFabricHelper
{
  public:
    RailFabricHelper();

    /// \param spec the fabric to build (checked by Build())
    void SetSpec(const RailFabricSpec& spec);
    /// \param name attribute of OcsNetDevice (NIC ports on optical rails)
    /// \param value its value
    void SetOcsDeviceAttribute(std::string name, const AttributeValue& value);
    /// \param name attribute of OpticalCircuitSwitch \param value its value
    void SetOcsAttribute(std::string name, const AttributeValue& value);
    /// \param name attribute of EpsSwitch (rail and scale-up switches) \param value its value
    void SetEpsSwitchAttribute(std::string name, const AttributeValue& value);
    /// \param name attribute of EpsChannel (every electrical link) \param value its value
    void SetEpsChannelAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name attribute of RailTransport
     * \param value its value (Dcqcn defaults to on for electrical rails, off for optical;
     *              Mtu and ScaleUpMtu come from the spec's frame sizes and cannot be set here)
     */
    void SetTransportAttribute(std::string name, const AttributeValue& value);

    /**
     * \return the attributes Build sets from the spec on every object it makes, whatever
     *         their defaults (a default given for one changes nothing), each with what sets
     *         it; unless SetOcsAttribute or SetTransportAttribute set it first
     */
    static std::vector<std::pair<std::string, std::string>> SpecAttributes();

    /**
     * \brief Builds the fabric; throws std::invalid_argument with the spec's one-line reason
     * if it is invalid (RailFabricSpec::Validate: a switch buffer given on a command line,
     * say), which the programs print as their error.
     * \return the fabric
     */
    Ptr<RailFabric> Build();

  private:
    void BuildScaleUp(Ptr<RailFabric> fabric);
    void BuildOpticalRail(Ptr<RailFabric> fabric, uint32_t rail);
    void BuildSwitchedRail(Ptr<RailFabric> fabric, uint32_t rail);
    void BuildClosRail(Ptr<RailFabric> fabric, uint32_t rail);
    /// Records a packet-switched rail's switches and puts them under one EpsRouting.
    void AddRailSwitches(Ptr<RailFabric> fabric,
                         uint32_t rail,
                         const std::vector<Ptr<EpsSwitch>>& switches);
    /// The rail's NIC ports in order (server-major, then port), with their GPUs.
    std::vector<std::pair<uint32_t, uint32_t>> RailPorts(uint32_t rail) const;
    /// Links a new NIC port of \p gpu to \p switchNode on \p rail.
    Ptr<NetDevice> LinkNic(Ptr<RailFabric> fabric, uint32_t gpu, Ptr<Node> switchNode);
    void InstallTransports(Ptr<RailFabric> fabric);

    RailFabricSpec m_spec;            //!< What to build
    OcsHelper m_ocsHelper;            //!< Optical rails
    EpsHelper m_railLinks;            //!< Electrical rail links (NIC rate) and switches
    EpsHelper m_scaleUpLinks;         //!< Scale-up links (scale-up rate) and switches
    ObjectFactory m_transportFactory; //!< RailTransports
    bool m_dcqcnChosen{false};        //!< The user set Dcqcn explicitly
    bool m_relayChunkChosen{false};   //!< The user set RelayChunk explicitly
};

} // namespace ns3

#endif /* RAIL_FABRIC_HELPER_H */

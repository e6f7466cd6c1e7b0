/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_FABRIC_HELPER_H
#define FLOW_FABRIC_HELPER_H

#include "ns3/flow-fabric.h"
#include "ns3/ocs-helper.h"
#include "ns3/rail-fabric-spec.h"

#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Builds the flow model of a rail-optimized fabric from the same RailFabricSpec as
 *        RailFabricHelper.
 *
 * The per-hop delays are the packet model's: the initial values of EpsChannel's Delay,
 * EpsSwitch's ProcessingDelay and OcsNetDevice's FiberDelay (so Config::SetDefault moves
 * both models). Each optical rail gets a real OpticalCircuitSwitch of the spec's technology,
 * with no devices: Opus drives it as in the packet model.
 */
class FlowFabricHelper
{
  public:
    /// \param spec the fabric to build (checked by Build())
    void SetSpec(const RailFabricSpec& spec);
    /// \param delays per-hop delays to use instead of the packet model's defaults
    void SetHopDelays(const FlowHopDelays& delays);
    /// \param name attribute of OpticalCircuitSwitch \param value its value
    void SetOcsAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Builds the fabric; throws std::invalid_argument with the spec's one-line reason
     * if it is invalid (RailFabricSpec::Validate: a switch buffer given on a command line,
     * say), which the programs print as their error.
     * \return the fabric
     */
    Ptr<FlowFabric> Build();

  private:
    /// The packet model's per-hop delays, from the attributes' initial values.
    static FlowHopDelays PacketDelays();

    RailFabricSpec m_spec;                 //!< What to build
    OcsHelper m_ocsHelper;                 //!< Optical rails' switches
    std::optional<FlowHopDelays> m_delays; //!< Set by SetHopDelays
};

} // namespace ns3

#endif /* FLOW_FABRIC_HELPER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_FABRIC_H
#define RAIL_FABRIC_H

#include "ns3/eps-switch.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/rail-endpoints.h"
#include "ns3/rail-network.h"
#include "ns3/rail-transport.h"

#include <string>
#include <vector>

namespace ns3
{

class EpsRouting;
class RailFabricHelper;

/**
 * \ingroup photonic-rails
 * \brief The packet model's built network: GPU nodes, their scale-up domains, rails of
 *        devices and switches, and a RailTransport per GPU.
 *
 * Planes (see RailEndpoints): rail g is plane g; the scale-up domain of server s is plane
 * G + s.
 */
class RailFabric : public RailNetwork
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    /**
     * \brief The packet model's rule between the transport's timeout and the fabric's
     *        delays (RailFabricHelper::Build applies it; the flow model has no timeouts).
     * \param spec the fabric
     * \return empty if RailTransport's RetransmitTimeout (its default) is above the round
     *         trip of the fabric's longest path without its frames: 2 x (links x EpsChannel
     *         Delay + switches x EpsSwitch ProcessingDelay) over electrical rails and scale-up
     *         links, 2 x 2 x OcsNetDevice FiberDelay over optical rails, plus AckInterval
     *         RailNetDevice InterframeGaps (an acknowledgement waits for as many frames, and
     *         the transport's timer allows for their frame time only); else a one-line
     *         reason (every frame would time out before its acknowledgement could arrive,
     *         and the transport take its path for failed)
     */
    static std::string ValidateRetransmitTimeout(const RailFabricSpec& spec);

    /// \param gpu a rank \return its transport
    Ptr<RailTransport> GetTransport(uint32_t gpu) const;
    /// \return the endpoint directory
    Ptr<RailEndpoints> GetEndpoints() const;
    /// \param gpu a rank \return its NIC ports on its rail, in order
    std::vector<Ptr<NetDevice>> GetNicPorts(uint32_t gpu) const;
    /// \param rail a rail \return its packet switches: the switch, or leaves then spines
    const std::vector<Ptr<EpsSwitch>>& GetRailSwitches(uint32_t rail) const;
    /// \param rail a rail \return the routing of its packet switches (EPS, EPS_CLOS)
    Ptr<EpsRouting> GetRailRouting(uint32_t rail) const;
    /// \param server a server \return its scale-up switch
    Ptr<EpsSwitch> GetScaleUpSwitch(uint32_t server) const;
    /// \return the Clos wiring of every rail (kind EPS_CLOS only)
    const ClosPlan& GetClosPlan() const;
    /// \return packet switches in the rails (scale-up switches not counted)
    uint32_t GetRailSwitchCount() const;
    /// \return switch ports in the rails: electrical ports, or OCS ports in use
    uint64_t GetRailSwitchPortCount() const;

    uint32_t GetOcsPort(uint32_t gpu, uint32_t port) const override;
    std::string GetModelName() const override;
    Ptr<MessageTransport> GetMessageTransport(uint32_t gpu) const override;

    /**
     * \return frames dropped anywhere in the fabric so far: by switches (no route, buffer
     * full, egress threshold) and ports (queue full, oversize, corrupted, no circuit, lost
     * in flight)
     */
    uint64_t CountDroppedFrames() const override;

    /**
     * \brief Fixes the random streams of the fabric's switches (their ECN marking).
     * \param stream the first stream number
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    friend class RailFabricHelper; // fills the fabric it builds

    NodeContainer m_switchNodes;                             //!< Every switch node
    std::vector<Ptr<RailTransport>> m_transports;            //!< Per GPU
    Ptr<RailEndpoints> m_endpoints;                          //!< Directory
    std::vector<std::vector<Ptr<NetDevice>>> m_nics;         //!< NIC ports per GPU
    std::vector<std::vector<Ptr<EpsSwitch>>> m_railSwitches; //!< Per rail (EPS)
    std::vector<Ptr<EpsRouting>> m_railRouting;              //!< Per rail (EPS)
    std::vector<Ptr<EpsSwitch>> m_scaleUp;                   //!< Per server
    ClosPlan m_clos;                                         //!< Per-rail Clos wiring
};

} // namespace ns3

#endif /* RAIL_FABRIC_H */

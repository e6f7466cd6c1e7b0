/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_NETWORK_H
#define RAIL_NETWORK_H

#include "ns3/message-transport.h"
#include "ns3/node-container.h"
#include "ns3/object.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/rail-fabric-spec.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief A built rail-optimized network, whatever models it: what the layers above the
 *        network (collectives, ranks, Opus, reports) need from it.
 *
 * GPU r (a global rank) is node r of GetGpus(), on server r / G as local GPU r mod G, and on
 * rail r mod G. On optical rails the OCS of each rail is a real OpticalCircuitSwitch in every
 * model (its circuit state machine is what Opus drives), and NIC port p of the GPU on server
 * s is OCS port s x nicPorts + p. Subclasses: RailFabric (packet model) and FlowFabric (flow
 * model).
 */
class RailNetwork : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    /// \return what was built
    const RailFabricSpec& GetSpec() const;
    /// \return the rail kind built (EPS becomes EPS_CLOS beyond the switch radix)
    RailKind GetKind() const;
    /// \return one node per GPU, in rank order
    const NodeContainer& GetGpus() const;
    /// \param rail a rail \return its OCS (kind OCS only)
    Ptr<OpticalCircuitSwitch> GetOcs(uint32_t rail) const;

    /**
     * \param gpu a rank
     * \param port one of its NIC ports
     * \return the OCS port that NIC port is plugged into (kind OCS)
     */
    virtual uint32_t GetOcsPort(uint32_t gpu, uint32_t port) const = 0;

    /// \return the network model's name: "packet" or "flow"
    virtual std::string GetModelName() const = 0;

    /// \param gpu a rank \return its message transport
    virtual Ptr<MessageTransport> GetMessageTransport(uint32_t gpu) const = 0;

    /// \return frames dropped anywhere so far (0 in a model without frames)
    virtual uint64_t CountDroppedFrames() const = 0;

    /**
     * \brief Fixes the random streams the network uses, so a run's randomness does not
     *        depend on what the process built before it.
     * \param stream the first stream number
     * \return the number of streams used
     */
    virtual int64_t AssignStreams(int64_t stream) = 0;

    /**
     * \brief Duplex circuits that join consecutive GPUs of a rail into a ring.
     *
     * A GPU has two ring neighbours, so a ring of more than two GPUs needs two NIC ports
     * per GPU (the paper's constraint C1): ring edges alternate between ports 0 and 1, and
     * the closing edge uses each end's free port. In a ring of two GPUs each is the other's
     * both neighbours: every port of one is joined to the same port of the other.
     * \param rail the rail (kind OCS)
     * \param order the ring, as ranks on that rail (default: by server)
     * \return the circuits, for OpticalCircuitSwitch::Preset or Reconfigure
     */
    OcsConnections RingCircuits(uint32_t rail, std::vector<uint32_t> order = {}) const;

  protected:
    void DoDispose() override;

    RailFabricSpec m_spec;                        //!< What was asked for
    RailKind m_kind{RailKind::EPS};               //!< What was built
    NodeContainer m_gpus;                         //!< GPU nodes
    std::vector<Ptr<OpticalCircuitSwitch>> m_ocs; //!< Per rail (kind OCS)
};

} // namespace ns3

#endif /* RAIL_NETWORK_H */

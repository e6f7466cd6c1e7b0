/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_FABRIC_H
#define FLOW_FABRIC_H

#include "ns3/flow-network.h"
#include "ns3/nstime.h"
#include "ns3/rail-network.h"
#include "ns3/rail-topology.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FlowTransport;

/**
 * \ingroup photonic-rails
 * \brief Per-hop delays of the packet model that the flow model adds to a message's time.
 */
struct FlowHopDelays
{
    Time link{NanoSeconds(50)};       //!< Propagation on an electrical link (EpsChannel Delay)
    Time fiber{NanoSeconds(50)};      //!< Propagation on a fiber to an OCS (OcsNetDevice)
    Time switching{NanoSeconds(300)}; //!< A packet switch's ProcessingDelay (EpsSwitch)
};

/**
 * \ingroup photonic-rails
 * \brief One way a message can go from a GPU to another in the flow model.
 */
struct FlowRoute
{
    /// The local port of a route through the scale-up domain only.
    static constexpr uint32_t SCALE_UP = 0xffffffff;

    uint32_t railGpu{0};                   //!< GPU whose NIC port carries it (PXN proxy)
    uint32_t port{SCALE_UP};               //!< That NIC port, or SCALE_UP
    std::vector<FlowNetwork::LinkId> path; //!< Links crossed, in order
    /// The packet model's queue pair it stands for: (railGpu, port, destination); messages
    /// on one run in order
    uint64_t connection{0};
    /// Its share of the message, as the packet transport splits it (0: the route is idle)
    uint64_t bytes{0};
    /// What the share's frames occupy on its links: payload and headers
    uint64_t wireBytes{0};
    /// From the share's drain to its arrival: the hops' delays and the store-and-forward of
    /// the frames the share really makes
    Time latency;
    Time ackLatency; //!< From arrival to the sender's completion
};

/**
 * \ingroup photonic-rails
 * \brief The flow model's built network: every GPU's links as capacities, rails as packet
 *        switches (single or Clos, with ECMP) or OCSes, and a FlowTransport per GPU.
 *
 * Links, one per direction, with their line rate in bytes per second: a GPU's scale-up port
 * (up, down), each NIC port (tx, rx), and on Clos rails each leaf-spine link (up, down); a
 * transfer moves the wire bytes of its share's frames (headers included). A switch is
 * non-blocking, so a path is the links it crosses. A message takes the routes the packet model's
 * transport would: the scale-up domain within a server; the NIC ports to the peer's ports on a
 * shared rail (port k to port k on packet switches, wherever the circuit leads on an OCS); else the
 * scale-up link to the proxy on the peer's rail, then that rail (PXN), as one pipelined route. A
 * Clos route's spine and down link are chosen by a hash of the connection, as ECMP does. OCS ports
 * are numbered as in the packet model (RailNetwork).
 */
class FlowFabric : public RailNetwork
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    /**
     * \param source a GPU
     * \param destination another GPU
     * \param bytes the message's size
     * \return the routes from \p source to \p destination usable now (none while no circuit
     *         leads there), each with its share of \p bytes: even shares over the source's
     *         ports (the remainder on the first), or through a PXN proxy, the chunks of
     *         railFrameBytes that the proxy spreads round robin over its ports (RelayChunk)
     */
    std::vector<FlowRoute> RoutesBetween(uint32_t source,
                                         uint32_t destination,
                                         uint64_t bytes) const;

    /// \return the transfer engine
    Ptr<FlowNetwork> GetNetwork() const;
    /// \param gpu a rank \return its transport
    Ptr<FlowTransport> GetFlowTransport(uint32_t gpu) const;
    /// \return the rank arithmetic
    const RailTopology& GetTopology() const;

    uint32_t GetOcsPort(uint32_t gpu, uint32_t port) const override;
    std::string GetModelName() const override;
    Ptr<MessageTransport> GetMessageTransport(uint32_t gpu) const override;
    uint64_t CountDroppedFrames() const override;
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    friend class FlowFabricHelper;

    /// A route before its share is known.
    struct Draft
    {
        FlowRoute route;         //!< Path, port, ACK latency
        Time delays;             //!< Propagation and switching
        uint32_t scaleUpHops{0}; //!< Store-and-forward hops on scale-up links
        uint32_t railHops{0};    //!< Store-and-forward hops on the rail
    };

    /// Links of the built fabric (filled by the helper).
    void AddLinks();
    /// The routes from \p source to \p destination usable now, before shares.
    std::vector<Draft> Routes(uint32_t source, uint32_t destination) const;
    /// Routes over the rail shared by \p source and \p destination.
    std::vector<Draft> RailRoutes(uint32_t source, uint32_t destination) const;
    /// Fills \p draft with the route of one NIC port pair over the rail (Clos hops if any).
    void RailRoute(uint32_t source,
                   uint32_t port,
                   uint32_t destination,
                   uint32_t peerPort,
                   Draft& draft) const;
    /// Fills \p draft with the route within a server.
    void ScaleUpRoute(uint32_t source, uint32_t destination, Draft& draft) const;
    /**
     * \param route a route's index
     * \param routes how many routes share the message
     * \param bytes the message's size
     * \param relayed sent through a PXN proxy (which deals out chunks of railFrameBytes)
     * \return the route's share, as the packet transport splits the message
     */
    uint64_t Share(std::size_t route, std::size_t routes, uint64_t bytes, bool relayed) const;
    /**
     * \brief Sets a route's wire bytes and latency from the frames its share makes: the
     *        first frame's serialization at every store-and-forward hop but the bottleneck,
     *        whose time for all the share's frames is the transfer's drain.
     * \param draft a route with its share (route.bytes)
     * \param message the message's size
     */
    void Timing(Draft& draft, uint64_t message) const;
    /// A circuit of \p rail changed at \p input: tells the transports of that server.
    void OnCircuitChange(uint32_t rail, uint32_t input, uint32_t output);
    /// \param bps a line rate \param hops store-and-forward hops \return an ACK frame's
    /// serialization on all of them
    static Time AckSerialization(uint64_t bps, uint32_t hops);

    RailTopology m_topology{1};                   //!< Rank arithmetic
    FlowHopDelays m_delays;                       //!< Per-hop delays
    Ptr<FlowNetwork> m_network;                   //!< Transfer engine
    std::vector<Ptr<FlowTransport>> m_transports; //!< Per GPU
    ClosPlan m_clos;                              //!< Per-rail Clos wiring
    uint32_t m_nicLinks{0};                       //!< First NIC link id
    uint32_t m_closLinks{0};                      //!< First Clos link id
};

} // namespace ns3

#endif /* FLOW_FABRIC_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_FABRIC_H
#define FLOW_FABRIC_H

#include "ns3/flow-fault-state.h"
#include "ns3/flow-network.h"
#include "ns3/nstime.h"
#include "ns3/rail-network.h"
#include "ns3/rail-topology.h"
#include "ns3/traced-callback.h"

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
    /// No port (a peer port nothing pairs with).
    static constexpr uint32_t NO_PORT = 0xfffffffe;

    uint32_t railGpu{0};     //!< GPU whose NIC port carries it (PXN proxy)
    uint32_t port{SCALE_UP}; //!< That NIC port, or SCALE_UP
    uint32_t target{0};      //!< GPU the rail hop reaches: the destination, or a detour's last hop
    uint32_t peerPort{0};    //!< Its NIC port there (on a rail)
    bool detour{false};      //!< A way around a failure (DetourRoutes)
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

    /**
     * \brief The way around failed parts, for traffic that MayDetour: the scale-up domain to
     *        the GPU of another rail, that rail to the peer's server, its scale-up domain to
     *        the peer (either scale-up hop left out where the source or the peer is on that
     *        rail), as one pipelined route per working port, as a PXN relay is.
     *
     * Of the rails with a working path, those with fewest GPU hops, in ascending order; of
     * those the one at (source + destination) mod their number, as the packet model's
     * RailDetour chooses. On optical rails a path needs a lit circuit; where none is lit,
     * CircuitWanted asks for one between the first pair of GPUs with live ports.
     * \param source a GPU
     * \param destination a GPU of another server
     * \param bytes the traffic's size
     * \return the routes with their shares, or none while no path works
     */
    std::vector<FlowRoute> DetourRoutes(uint32_t source,
                                        uint32_t destination,
                                        uint64_t bytes) const;

    /**
     * \param source a GPU
     * \param destination a GPU with no route from \p source now (RoutesBetween)
     * \return true if that is for a failure: on packet-switched rails always; on optical rails
     *         if the GPU whose rail carries the traffic, or the destination, has no live port,
     *         or the control plane said their pair detours (SetDetour); else it waits for a
     *         circuit
     */
    bool MayDetour(uint32_t source, uint32_t destination) const;

    /**
     * \brief Where a route runs now.
     * \param source the GPU that sends
     * \param destination the GPU it sends to
     * \param route a route from RoutesBetween or DetourRoutes (its GPUs and port count)
     * \param path set to the links it crosses now
     * \param peerPort set to the port it reaches at its target
     * \return false if it runs nowhere now: its circuit does not lead to the target's server,
     *         no live peer port is left to pair with, or a link of it is down
     */
    bool PathOf(uint32_t source,
                uint32_t destination,
                const FlowRoute& route,
                std::vector<FlowNetwork::LinkId>& path,
                uint32_t& peerPort) const;

    /// \param gpu a GPU \param port its NIC port \return true unless a fault holds it down
    bool IsPortUp(uint32_t gpu, uint32_t port) const;
    /// \param path links \return true unless a fault holds one of them down
    bool IsPathUp(const std::vector<FlowNetwork::LinkId>& path) const;

    /**
     * \name Faults (FaultInjector)
     * \{
     */
    /// \return the tx and rx links of \p gpu's NIC port \p port
    std::vector<FlowNetwork::LinkId> GetNicLinks(uint32_t gpu, uint32_t port) const;
    /// \return both directions of the cable \p cable between \p leaf and \p spine of rail
    /// \p rail (a Clos)
    std::vector<FlowNetwork::LinkId> GetCableLinks(uint32_t rail,
                                                   uint32_t leaf,
                                                   uint32_t spine,
                                                   uint32_t cable) const;
    /**
     * \param rail a rail
     * \param isRail the rail's only switch
     * \param isSpine a spine (else a leaf)
     * \param index the leaf or spine
     * \return every link of that switch
     */
    std::vector<FlowNetwork::LinkId> GetSwitchLinks(uint32_t rail,
                                                    bool isRail,
                                                    bool isSpine,
                                                    uint32_t index) const;
    /**
     * \brief Takes links down (one fault more holds each) or back up (one fewer); routing on
     *        Clos rails goes around the change DetectionDelay later. Transports are told.
     * \param links the links
     * \param down true to fail them, false to repair them
     */
    void SetLinksDown(const std::vector<FlowNetwork::LinkId>& links, bool down);
    /**
     * \brief Tells every transport that the fabric changed (a failure or a repair).
     * \param failure true for a failure: traffic that finds no way detours one
     *        FlowTransport RetransmitTimeout after the latest failure
     */
    void NotifyFaultChange(bool failure);
    /// \param a a GPU \param b another \param detour true if the control plane found no port
    /// for their circuit (their traffic detours), false once it has one again
    void SetDetour(uint32_t a, uint32_t b, bool detour);
    /// \return when the latest failure struck (-1 s: none yet)
    Time GetLastFailure() const;
    /**
     * TracedCallback signature for a circuit detoured traffic waits for.
     * \param gpu a GPU with a live optical port
     * \param peer the GPU of the same rail the circuit should join it to
     */
    typedef void (*CircuitWantedTracedCallback)(uint32_t gpu, uint32_t peer);
    /** \} */

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
    /// Routes over the rail shared by \p source and \p destination, between live ports
    /// (one may cross a Clos link that died and that routing has not gone around yet).
    std::vector<Draft> RailRoutes(uint32_t source, uint32_t destination) const;
    /**
     * \return per NIC port of \p source, the port of \p destination (same rail) it talks to
     *         on a packet-switched rail, or NO_PORT: port k to port k; under faults a live port
     *         whose counterpart is down takes a live peer port no other live port talks to
     */
    std::vector<uint32_t> PeerPorts(uint32_t source, uint32_t destination) const;
    /// The peer port of \p source's \p port towards \p destination now, or NO_PORT.
    uint32_t PeerPort(uint32_t source, uint32_t port, uint32_t destination) const;
    /// Puts the scale-up hop from \p source to \p near before \p draft's rail hops, and the
    /// one from \p far to \p destination after them (each unless they are one GPU).
    void AddScaleUpHops(uint32_t source,
                        uint32_t near,
                        uint32_t far,
                        uint32_t destination,
                        Draft& draft) const;
    /// Routing on Clos rails has learnt the links' state: transports are told.
    void Reroute();
    /// \return true if \p gpu has a live NIC port
    bool HasLivePort(uint32_t gpu) const;
    /// Fills \p draft with the route of one NIC port pair over the rail (Clos hops if any);
    /// false if routing has no way between their leaves.
    bool RailRoute(uint32_t source,
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
    /// Fills \p draft's Clos links from \p fromLeaf to \p toLeaf; false if routing has none.
    bool ClosHops(uint32_t rail,
                  uint32_t fromLeaf,
                  uint32_t toLeaf,
                  uint64_t label,
                  Draft& draft) const;
    /// \param bps a line rate \param hops store-and-forward hops \return an ACK frame's
    /// serialization on all of them
    static Time AckSerialization(uint64_t bps, uint32_t hops);

    RailTopology m_topology{1};                              //!< Rank arithmetic
    FlowHopDelays m_delays;                                  //!< Per-hop delays
    Ptr<FlowNetwork> m_network;                              //!< Transfer engine
    std::vector<Ptr<FlowTransport>> m_transports;            //!< Per GPU
    ClosPlan m_clos;                                         //!< Per-rail Clos wiring
    uint32_t m_nicLinks{0};                                  //!< First NIC link id
    uint32_t m_closLinks{0};                                 //!< First Clos link id
    FlowFaultState m_faults;                                 //!< What failures did to the links
    Time m_detectionDelay;                                   //!< DetectionDelay attribute
    Time m_lastFailure{Seconds(-1)};                         //!< See GetLastFailure
    TracedCallback<uint32_t, uint32_t> m_circuitWantedTrace; //!< CircuitWanted
};

} // namespace ns3

#endif /* FLOW_FABRIC_H */

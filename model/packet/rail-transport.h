/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_TRANSPORT_H
#define RAIL_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn-rate-controller.h"
#include "ns3/event-id.h"
#include "ns3/message-transport.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/queue.h"
#include "ns3/rail-detour.h"
#include "ns3/rail-endpoints.h"
#include "ns3/rail-transport-header.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Node;
class OcsNetDevice;

/**
 * \ingroup photonic-rails
 * \brief Counters of one RailTransport.
 */
struct RailTransportCounters
{
    uint64_t messagesSent{0};          //!< Messages whose every part was acknowledged
    uint64_t messagesReceived{0};      //!< Messages delivered complete to the receiver
    uint64_t payloadBytesSent{0};      //!< Payload bytes of first transmissions
    uint64_t payloadBytesReceived{0};  //!< Payload bytes accepted in order
    uint64_t payloadBytesDelivered{0}; //!< Of which for this GPU's own messages (not PXN hops)
    uint64_t dataFrames{0};            //!< DATA frames handed to ports (with retransmissions)
    uint64_t retransmittedFrames{0};   //!< DATA frames sent again (go-back-N)
    uint64_t timeouts{0};              //!< Retransmission timeouts
    uint64_t nacksSent{0};             //!< NACKs sent (out-of-order arrival)
    uint64_t cnpsSent{0};              //!< CNPs sent (ECN-marked arrivals)
    uint64_t cnpsReceived{0};          //!< CNPs received (rate cuts)
    uint64_t messagesRelayed{0};       //!< Messages sent through a proxy GPU (PXN)
    uint64_t messagesForwarded{0};     //!< Messages forwarded as a proxy (PXN)
    uint64_t partsMoved{0};            //!< Parts moved off a failed path to other ports
    uint64_t bytesMoved{0};            //!< Their bytes not yet received when moved
    uint64_t detours{0};               //!< Pieces of messages sent around a failure
    uint64_t bytesDetoured{0};         //!< Their bytes
};

/**
 * \ingroup photonic-rails
 * \brief Reliable messages between GPUs over L2 frames on their NIC ports, like RDMA RC.
 *
 * One RailTransport is aggregated to each GPU node; it owns the GPU's NIC ports on its rail.
 * Send() splits a message over every port that reaches the peer at that moment, in
 * proportion to the ports' rates; each part travels on its own queue pair (QP) bound to one
 * port and one peer port, so a QP's frames stay in order on one path, as NCCL spreads a
 * transfer over NICs with one QP each. A part is cut into frames of Mtu payload bytes plus
 * the RoCEv2-sized RailTransportHeader (48 bytes) and the device's Ethernet header (14).
 *
 * Reliability is go-back-N: the receiver accepts only the next PSN, acknowledges
 * cumulatively every AckInterval frames and at the end of each part, and sends one NACK
 * per gap; the sender rewinds on NACK or after RetransmitTimeout without progress. So loss
 * never hangs a transfer. Ports are fed at line rate: a port's device queue is kept a few
 * frames deep and refilled, round robin over the port's QPs, whenever it starts a frame.
 * With Dcqcn enabled (and DcqcnProfile not pfc-only), each QP is paced by a rate limiter at
 * its DCQCN rate (DcqcnRateController); the receiver answers ECN-marked frames (EcnMarkTag)
 * with CNPs, at most one per CnpInterval per receiving port (cx7) or per QP (paper-40g). With
 * QpsPerConnection above 1, a message to a peer is spread over that many QPs per port, each
 * with its own flow label. CNPs are network-control
 * frames (see EpsNetDevice): switches send them ahead of queued data, and PFC does not hold
 * them.
 *
 * On an optical port a QP sends only while the port's circuit leads to its peer port; it
 * pauses when the circuit goes and resumes when it comes back. A message for which no port
 * reaches the peer waits until one does.
 *
 * Faults: a QP whose path failed (its port or the peer's port is down: a cut cable, a dead
 * NIC or OCS port) is given up one RetransmitTimeout after its last progress, or after the
 * failure if it had nothing in flight. So is a QP that timed out more than RetryCount times
 * in a row (a failure inside a packet network, as RDMA's retry count). The bytes its peer
 * has not received move to the other ports that reach the peer, as new parts (a
 * reconnection: the receiver tells how far it got, so nothing is delivered twice). With no
 * other port the QP waits, without timers, until NotifyFabricChange() or a change of one of
 * this GPU's ports (a new circuit), and then tries its path again: a QP whose path is back
 * goes back to its oldest unacknowledged frame at once. On a packet-switched rail port k
 * talks to the peer's port k; one whose counterpart is down takes a live peer port no other
 * live port of this GPU talks to, or none.
 *
 * Detours (attribute Detour): when every port of this GPU or of the peer on their rail is
 * down (a dead NIC, rail switch or OCS), or the control plane said no circuit will join them
 * (SetDetour: Opus found no live port for the pair), what cannot go directly goes around:
 * to the next GPU on a shortest working path (RailDetour), which forwards it hop by hop like
 * a PXN proxy. Around a dead rail that is the scale-up domain, another rail and the peer's
 * scale-up domain; on optical rails it may be a ring neighbour. The bytes of a broken QP
 * that the peer lacks, or a whole message not started, travel as one detour message; the
 * peer counts them towards the original message (ExpectDetour) and completes the detour
 * message once it has every byte of it. A hop of a detour whose own path fails sends the
 * rest on along another working path. A new message detours only once its peer has been out
 * of reach for one RetransmitTimeout (a shorter outage is waited out), and a forward never
 * goes back through a GPU the message has passed.
 */
class RailTransport : public MessageTransport
{
  public:
    /// EtherType of RailTransport frames (RoCE's).
    static constexpr uint16_t PROTOCOL = 0x8915;
    /// "No GPU" (e.g. no relay).
    static constexpr uint32_t NO_GPU = 0xffffffff;

    /// Values of the DcqcnProfile attribute.
    enum DcqcnProfileName
    {
        CX7,       //!< NVIDIA ConnectX-6/7 firmware defaults
        PAPER_40G, //!< The DCQCN paper's settings
        PFC_ONLY,  //!< No rate control on electrical rails: PFC alone
    };

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    RailTransport();
    ~RailTransport() override;

    /**
     * \brief Sets who this transport is and where its peers are.
     * \param gpu this GPU's number
     * \param endpoints the fabric's directory (this GPU's ports are taken from it)
     */
    void Setup(uint32_t gpu, Ptr<RailEndpoints> endpoints);

    uint32_t GetGpu() const override;

    /**
     * \brief Sends a message (MessageTransport's contract); \p sent fires when every part
     *        of it is acknowledged.
     * \param peer destination GPU
     * \param bytes message size (at least 1)
     * \param sent called when the message is acknowledged (may be null)
     * \return the message id (unique at this sender, from 1)
     */
    uint64_t Send(uint32_t peer, uint64_t bytes, SentCallback sent = SentCallback()) override;

    /// \return the counters
    const RailTransportCounters& GetCounters() const;

    /**
     * \param lineRateBps a port's line rate
     * \return the DCQCN settings a QP on such a port uses: DcqcnProfile's, with every
     *         Dcqcn* attribute (and CnpInterval) that is not 0 in their place
     */
    DcqcnProfile GetDcqcnProfile(double lineRateBps) const;

    /// \return messages accepted by Send() and not yet acknowledged
    std::size_t GetPendingMessageCount() const override;

    MessageTransportCounters GetMessageCounters() const override;

    /**
     * \brief Tells this transport that a port somewhere in the fabric failed or came back
     * (the fabric manager's notice): paths are checked again and waiting data retried.
     * \param restored true if parts came back or routing moved around failed ones: QPs
     *        that lost frames to a failure (NoteFrameLost) send them again at once
     */
    void NotifyFabricChange(bool restored = false);

    /**
     * \brief Tells this transport whether its traffic to \p peer may detour when no port
     * reaches the peer although its ports work: the control plane (Opus) found no live port
     * for a circuit between them.
     * \param peer the peer GPU
     * \param detour true to detour, false to wait for a circuit again
     */
    void SetDetour(uint32_t peer, bool detour);

    /**
     * \brief The receiving end of a reconnection: the sender moves connection (\p sourceGpu,
     * \p qpn) on to PSN \p nextPsn.
     * \param sourceGpu the sending GPU
     * \param qpn its QP
     * \param nextPsn the PSN the connection continues from
     * \return the PSN this end expected: every frame below it was accepted
     */
    uint64_t ResetConnection(uint32_t sourceGpu, uint32_t qpn, uint64_t nextPsn);

    /**
     * \return one line per peer that this GPU's transfers wait to reach because a part
     * failed: the peer, the transfers and bytes, and which ports are down
     */
    std::vector<std::string> DescribeWaiting() const;

    /**
     * \brief A failure destroyed a frame of connection \p qpn of this GPU inside the network
     * (a cut cable, a dead switch or OCS port): told by whoever watches the failures.
     * \param qpn the QP
     * \param below the QP moves again once every PSN below this is acknowledged (a lost
     *        DATA frame's PSN + 1, a lost ACK's PSN)
     */
    void NoteFrameLost(uint32_t qpn, uint64_t below);

    /**
     * \brief Sets when the failure whose recovery GetLastRecovery measures strikes: the
     * traffic it catches is what stops within one RetransmitTimeout of it (traffic stopped
     * later found it in place and went around it, or waited for its repair).
     * \param failure when it strikes
     */
    void CatchFrom(Time failure);

    /**
     * \return when the data that the failure of CatchFrom() caught last moved again: moved
     * to other ports or onto a detour, resumed on its repaired path, or acknowledged past
     * the frames the failure destroyed (NoteFrameLost); negative if none ever did
     */
    Time GetLastRecovery() const;

    /// \return when this transport last received a frame or acted on a timeout (zero if never)
    Time GetLastActivity() const;

    /**
     * TracedCallback signature for whole messages.
     * \param gpu the peer (sent) or source (received) GPU
     * \param id the sender's message id
     * \param bytes the message size
     */
    typedef void (*MessageTracedCallback)(uint32_t gpu, uint64_t id, uint64_t bytes);

    /**
     * TracedCallback signature for go-back-N rewinds.
     * \param qpn the queue pair
     * \param psn the PSN sending restarts from
     */
    typedef void (*RetransmitTracedCallback)(uint32_t qpn, uint64_t psn);

    /**
     * TracedCallback signature for DCQCN rate changes.
     * \param qpn the queue pair
     * \param rate its new rate in bit/s
     */
    typedef void (*RateTracedCallback)(uint32_t qpn, double rate);

    /**
     * TracedCallback signature for a circuit detoured data waits for.
     * \param port the optical port (index at this GPU) the data waits on
     * \param peer the GPU at the circuit's other end
     */
    typedef void (*CircuitWantedTracedCallback)(uint32_t port, uint32_t peer);

  protected:
    void DoDispose() override;

  private:
    /// \return whether QPs pace at DCQCN rates and receivers send CNPs
    bool UsesDcqcn() const;

    /// What acknowledging a part completes.
    enum class PartRole
    {
        OWN,     //!< A slice of one of this GPU's messages, sent directly
        RELAY,   //!< This GPU's message on its way to a proxy (completed by the proxy)
        FORWARD, //!< A proxy forwarding another GPU's message (PXN)
    };

    /// A slice of a message carried by one QP.
    struct Part
    {
        PartRole role;         //!< What its acknowledgement completes
        uint32_t origin;       //!< GPU whose message it is
        uint64_t messageId;    //!< The origin's message id
        uint64_t messageBytes; //!< Whole message size
        uint32_t relayTo;      //!< Final GPU when this hop goes to a proxy, else NO_GPU
        uint64_t bytes;        //!< This part's size
        uint64_t available;    //!< Bytes that may be sent (less than bytes while relaying)
        uint64_t firstPsn;     //!< PSN of its first frame
        uint64_t frames;       //!< Frames it takes (more than 2^32 with tiny frames)
        uint32_t mtu;          //!< Payload bytes per frame on its port
        uint32_t slot{0};      //!< FORWARD: which of the proxy's shares it carries
        uint64_t offset{0};    //!< FORWARD: bytes of that share before this part
    };

    /// Sending side of a connection: one port, one peer port.
    struct QueuePair
    {
        uint32_t qpn;               //!< Index in m_qps
        uint32_t port;              //!< Local port index
        uint32_t peer;              //!< Peer GPU
        uint32_t peerPort;          //!< Peer port index
        Address peerAddress;        //!< Peer port's MAC address
        uint32_t label;             //!< Flow label
        std::deque<Part> parts;     //!< Unacknowledged parts, in PSN order
        uint64_t nextPsn{0};        //!< Next PSN to send
        uint64_t ackedPsn{0};       //!< Every PSN below was acknowledged
        uint64_t endPsn{0};         //!< One past the last PSN queued
        uint64_t highestSent{0};    //!< One past the highest PSN ever sent
        bool reachable{false};      //!< The port reaches the peer port now
        bool scheduled{false};      //!< On its port's round-robin list
        Time paceFrom;              //!< DCQCN pacing: when the last frame left
        double paceBits{0};         //!< Its bits, if it left below the line rate
        uint32_t retries{0};        //!< Timeouts since the last acknowledgement progress
        bool gaveUp{false};         //!< More than RetryCount: the path counts as failed
        bool hit{false};            //!< A failure stopped it; not moving again yet
        Time stoppedAt;             //!< Since when (while hit)
        Time lostAt;                //!< When the first frame below lostBelow was lost
        uint64_t lostBelow{0};      //!< A failure destroyed a frame below (0: none)
        Time deadline{Time::Max()}; //!< Retransmission deadline (Max: timer off)
        EventId timeout;            //!< Wake-up at or before the deadline (see ArmTimeout)
        DcqcnRateController rate;   //!< DCQCN reaction point
    };

    /// Receiving side of a connection.
    struct ReceiveState
    {
        uint64_t expectedPsn{0};   //!< Next PSN accepted
        bool nackSent{false};      //!< A NACK for expectedPsn is outstanding
        uint32_t unacked{0};       //!< Frames accepted since the last ACK
        Time lastCnp{Seconds(-1)}; //!< When the last CNP was sent
    };

    /// One port.
    struct Port
    {
        Ptr<NetDevice> device;      //!< The device
        Ptr<OcsNetDevice> optical;  //!< The same, if it is an OCS port
        Ptr<Queue<Packet>> queue;   //!< Its transmit queue
        double rateBps{0};          //!< Line rate
        Time lastCnp{Seconds(-1)};  //!< When this port last sent a CNP (per-port NP limit)
        uint32_t plane{0};          //!< Plane (rail or scale-up domain)
        uint32_t mtu{0};            //!< Payload bytes per frame
        uint32_t rankInPlane{0};    //!< Position among this GPU's ports on the plane
        std::deque<uint32_t> ready; //!< QPs with frames to send, round robin
        bool pumping{false};        //!< Inside Pump() (re-entrancy guard)
        EventId wakeup;             //!< Pacing wake-up
    };

    /// A message accepted at the sender.
    struct Outgoing
    {
        uint32_t partsLeft; //!< Parts not yet acknowledged (a relayed message counts 1)
        SentCallback sent;  //!< Completion callback
        uint32_t peer;      //!< Destination
        uint64_t bytes;     //!< Size
    };

    /// A message that no port could reach yet.
    struct Waiting
    {
        uint64_t id;        //!< Message id
        uint32_t peer;      //!< Destination GPU
        uint64_t bytes;     //!< Size
        bool failed{false}; //!< A failed port kept it (not just a missing circuit)
        Time since;         //!< When it started waiting
    };

    /// A message this GPU forwards as a PXN proxy.
    struct Forward
    {
        uint64_t arrived{0};        //!< Bytes received from the origin so far
        std::vector<uint32_t> qpns; //!< QPs carrying its parts, one per port
        uint32_t partsLeft{0};      //!< Parts not yet acknowledged by the next GPU
        bool detour{false};         //!< A detour message (its destination completes it)
    };

    /// Identity of a message anywhere: origin GPU and the origin's message id.
    using MessageKey = std::pair<uint32_t, uint64_t>;

    /// At the destination: the message a detour message carries a piece of.
    struct DetourPiece
    {
        MessageKey message;    //!< The message it carries bytes of
        uint64_t messageBytes; //!< Its size
        uint32_t relayTo;      //!< Where this GPU forwards them (NO_GPU: they are for it)
        uint64_t left;         //!< Bytes of the piece still to arrive
    };

    void AddPort(Ptr<NetDevice> device, uint32_t plane);
    /// \return the (port, peer port) pairs that reach \p peer now; with \p holdDown, also
    ///         those whose ports failed less than a RetransmitTimeout ago (see Counts)
    std::vector<std::pair<uint32_t, uint32_t>> RoutesTo(uint32_t peer, bool holdDown = false) const;
    /// \return the ports that could reach \p peer (same plane), circuits aside.
    std::vector<std::pair<uint32_t, uint32_t>> PlaneRoutesTo(uint32_t peer) const;
    /// \return a GPU sharing a plane with this GPU and one with \p peer, or NO_GPU.
    uint32_t ProxyFor(uint32_t peer);
    /// \return a GPU sharing a rail with this GPU and a scale-up domain with \p peer, not in
    ///         \p avoid, or NO_GPU (the last stop of a detour off the peer's rail)
    uint32_t ProxyBefore(uint32_t peer, const std::set<uint32_t>& avoid) const;
    /// \return true if \p gpu shares a scale-up (\p scaleUp) or other plane with \p other
    bool SharesPlane(uint32_t gpu, uint32_t other, bool scaleUp) const;
    /// Splits a message over the ports that reach \p peer; false if none does.
    bool Dispatch(uint64_t id, uint32_t peer, uint64_t bytes);
    /// Sends a message through a proxy GPU (PXN).
    void Relay(uint64_t id, uint32_t proxy, uint32_t peer, uint64_t bytes);
    /// Queues message \p id of this GPU to \p hop, which forwards it towards \p peer.
    void SendThrough(uint64_t id, uint32_t hop, uint32_t peer, uint64_t bytes);
    /// Dispatch(), or a detour of the whole message once its peer has been out of reach
    /// long enough (StoppedLongEnough); false if neither.
    bool DispatchOrDetour(uint64_t id, uint32_t peer, uint64_t bytes);
    /**
     * \return true if new traffic to \p peer has found no port for one RetransmitTimeout
     * (the time after which a broken QP gives its path up too): a shorter outage is waited
     * out, so that it costs at most its length and a round trip. Else a retry is scheduled
     * for then.
     */
    bool StoppedLongEnough(uint32_t peer);
    /// \return since when a port of this GPU or of \p peer on a plane they share has been
    ///         down (the earliest), or Time::Max() if none is
    Time FailedSince(uint32_t peer) const;
    /// Forgets when traffic to peers that a port reaches again stopped.
    void ForgetReachedPeers();
    /// \return true if every port of this GPU, or of \p peer, on each plane they share is
    ///         down (and they share one)
    bool RailDeadTowards(uint32_t peer) const;
    /// \return true if traffic to \p peer goes around (Opus has the pair relay, or the
    ///         rail towards it is dead)
    bool MustGoAround(uint32_t peer) const;
    /// \return the next hop of a detour to \p peer avoiding \p avoid, or NO_GPU if its
    ///         traffic must wait
    uint32_t DetourHop(uint32_t peer, const std::set<uint32_t>& avoid = {}) const;
    /**
     * Sends \p rest, the unsent rest of a part for GPU \p to, around a failure: a detour
     * message of this GPU through \p hop that \p to counts towards \p rest's message.
     */
    void SendAround(uint32_t hop, uint32_t to, const Part& rest);
    /**
     * \brief The receiving end of a detour: message \p id of GPU \p source carries the
     * bytes of \p part (its rest), which this GPU receives or forwards as if they had come
     * the way \p part went.
     *
     * The detour's frames would carry the original message's identity in a real NIC; the
     * model keeps it here instead, so frames keep their size.
     */
    void ExpectDetour(uint32_t source, uint64_t id, const Part& part);
    /**
     * \param source a GPU
     * \param id one of its messages
     * \return true if that message is a detour to this GPU not delivered in full yet
     */
    bool IsDetour(uint32_t source, uint64_t id) const;
    /// \return the RailTransport of GPU \p gpu
    Ptr<RailTransport> TransportOf(uint32_t gpu) const;
    /**
     * \brief Queues parts of \p part's message over \p routes in proportion to their rates,
     *        each route's share split evenly over \p lanes QPs.
     * \return the qpns of the slices, in order
     */
    std::vector<uint32_t> QueueParts(const std::vector<std::pair<uint32_t, uint32_t>>& routes,
                                     uint32_t peer,
                                     Part part,
                                     uint32_t lanes = 1);
    /// \return true if \p port is down (cut cable, failed OCS port)
    bool PortFailed(uint32_t port) const;
    /// \return true if \p qp's path failed: its port or its peer port is down, or it gave up
    bool IsBroken(const QueuePair& qp) const;
    /// \return true if \p qp's port or its peer port is down (a QP that gave up may sit
    ///         still until the fabric changes: a failure inside a rail split in two would
    ///         otherwise have its data moved back and forth between ports for good)
    bool PathDown(const QueuePair& qp) const;
    /// \return true if the QP on \p port to \p peer's \p peerPort exists and gave up
    bool GaveUpOn(uint32_t port, uint32_t peer, uint32_t peerPort) const;
    /**
     * Moves the parts of broken \p qp to the ports that reach its peer, or, with none, the
     * parts that may detour around the failure (Reroute); the others stay on \p qp.
     * \return false if nothing could move
     */
    bool MoveParts(QueuePair& qp);
    /// \return where \p part of broken \p qp goes around the failure, or NO_GPU if it waits
    uint32_t RerouteHop(const QueuePair& qp, const Part& part) const;
    /// \return the GPU a proxy forwards a message for \p to through (\p to if direct), not
    ///         one of \p passed (the GPUs the message has passed through)
    uint32_t ForwardHop(uint32_t to, bool detour, const std::set<uint32_t>& passed);
    /**
     * \param key a message on its way to this GPU through proxies or detour hops
     * \return the GPUs it has passed through so far (kept here, at its destination, until
     *         it is complete: a forwarding GPU adds itself and never sends it back to one)
     */
    std::set<uint32_t>& PassedThrough(const MessageKey& key);
    /// Queues the unsent rest of a moved part over \p routes.
    void Requeue(const std::vector<std::pair<uint32_t, uint32_t>>& routes,
                 uint32_t peer,
                 const Part& rest);
    /// \return true if \p qp has data and its optical port has no circuit to its peer
    bool WaitsForCircuit(const QueuePair& qp) const;
    /// \return true if a port other than \p qp's reaches its peer now
    bool OtherPortReaches(const QueuePair& qp) const;
    /// Marks \p qp stopped by a failure, from now if it was not already.
    void Stop(QueuePair& qp);
    /// Stop(), and if it was not stopped yet, one RetransmitTimeout for its path or circuit to
    /// come back before its data goes another way (OnTimeout).
    void Stall(QueuePair& qp);
    /// Arms \p qp's timer (if off) for the rest of one RetransmitTimeout from its stop.
    void ArmHoldDown(QueuePair& qp);
    /// Data stopped at \p stoppedAt moves again now: counted if the failure of CatchFrom()
    /// caught it.
    void Recovered(Time stoppedAt);
    /// Re-checks \p qp after a change: reachability, sending, and the timer if broken.
    void Recheck(QueuePair& qp);
    /// Dispatches waiting messages that a port reaches now.
    void RetryWaiting();
    /// A port changed anywhere in the fabric (RailEndpoints::AddChangeCallback): data that
    /// found no way on looks again (RecheckParked), as a detour can cross any rail.
    void OnChangeElsewhere();
    /// Re-checks the QPs whose data found no way on, and the waiting messages.
    void RecheckParked();
    /// \p qp's data found no way on: it waits for a change (OnChangeElsewhere), and
    /// detoured data waiting for a circuit fires CircuitWanted.
    void Park(QueuePair& qp);
    /// Data to \p peer must go around a failed port and no lit circuit makes a path: asks
    /// Opus (CircuitWanted of another GPU's transport) for a circuit that makes a PXN one.
    void WantCircuitAround(uint32_t peer);
    /// \return true if \p part carries bytes of a detour message
    bool IsDetourPart(const Part& part) const;
    /// RetryWaiting() once every change of this instant is made (see there).
    void ScheduleRetryWaiting();
    /// \return the failed ports (this GPU's and \p peer's on shared planes), e.g. gpu5.port1
    std::set<std::string> FailedPortsTowards(uint32_t peer) const;
    /// \return why this GPU cannot reach \p peer, e.g. "port gpu5.port1 down"
    std::string DescribeBlockage(uint32_t peer, bool gaveUp) const;
    /// \return the peer port index reached through \p port, or -1 (\p holdDown: see Counts)
    int32_t PeerPortVia(uint32_t port, uint32_t peer, bool holdDown = false) const;
    /**
     * \return true if port \p index of GPU \p gpu counts as working: it is up, or, with
     * \p holdDown, it failed less than a RetransmitTimeout ago (a new message is striped as
     * if it had not: its part waits for the repair there, or moves when the failure has
     * lasted that long, so a short outage leaves no imbalance behind)
     */
    bool Counts(uint32_t gpu, uint32_t index, bool holdDown) const;
    /**
     * \return the QP for (port, peer, peer port) and \p lane (QpsPerConnection), created if
     * new. References to QPs stay
     * valid when one is created (m_qps is a deque): an ACK's completion callback may start
     * the next step of a collective, which opens a QP to a new peer, while Acknowledge()
     * still holds the acknowledged QP.
     */
    QueuePair& GetQueuePair(uint32_t port, uint32_t peer, uint32_t peerPort, uint32_t lane = 0);
    /// Recomputes whether \p qp's port reaches its peer (re-pointing optical QPs).
    void UpdateReachability(QueuePair& qp);
    void Schedule(QueuePair& qp);
    /// Hands frames to a port's device while its queue has room.
    void Pump(uint32_t port);
    /// \return the next QP allowed to send on \p port now, or null; sets \p wake if paced.
    QueuePair* NextReady(Port& port, Time& wake);
    /// \return the part holding \p psn, or null
    Part* PartOf(QueuePair& qp, uint64_t psn);
    /// \return when \p qp's rate limiter lets its next frame go (0: now)
    static Time PacedUntil(QueuePair& qp);
    /// \return the payload of frame \p psn of \p part
    uint32_t FramePayload(const Part& part, uint64_t psn) const;
    bool CanSend(QueuePair& qp);
    void SendData(QueuePair& qp);
    void SendControl(uint32_t port,
                     const Address& to,
                     RailTransportHeader::Kind kind,
                     uint32_t qpn,
                     uint32_t label,
                     uint64_t psn);
    /**
     * Sets \p qp's retransmission deadline. The timer is lazy: an ACK moves the deadline
     * without touching the scheduled event, which, when it fires early, sleeps again until
     * the deadline. A cancelled ns-3 event stays in the scheduler until its time comes, so
     * re-arming per ACK would leave one dead event per ACK in the queue for a whole timeout.
     */
    void ArmTimeout(QueuePair& qp);
    /// Sets \p qp's deadline \p delay from now (see ArmTimeout).
    void ArmTimeoutIn(QueuePair& qp, Time delay);
    /// Turns \p qp's retransmission timer off (its event, if any, finds nothing to do).
    void DisarmTimeout(QueuePair& qp);
    void OnTimeout(uint32_t qpn);
    void OnCircuitChange(uint32_t port);
    void OnDequeue(uint32_t port, Ptr<const Packet> frame);

    /// The node's protocol handler for RailTransport frames (ns-3's ProtocolHandler
    /// signature, which returns nothing).
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> frame,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);
    void ReceiveData(uint32_t port,
                     const Address& from,
                     const RailTransportHeader& header,
                     uint32_t payload,
                     bool marked);
    /// The notification point: answers a marked frame with a CNP unless one went too lately.
    void SendCnp(uint32_t port,
                 const Address& from,
                 const RailTransportHeader& header,
                 ReceiveState& state);
    /// Counts in-order payload of a message addressed to this GPU; delivers when complete.
    void Deliver(const RailTransportHeader& header, uint32_t payload);
    /// Makes bytes a proxy received available to the parts that forward them.
    void Forwarded(const RailTransportHeader& header, uint32_t payload);
    void ReceiveAck(const RailTransportHeader& header);
    void ReceiveNack(const RailTransportHeader& header);
    void ReceiveCnp(const RailTransportHeader& header);
    /// Marks everything below \p psn acknowledged and completes finished parts.
    void Acknowledge(QueuePair& qp, uint64_t psn);
    /// A part was acknowledged in full.
    void PartDone(const Part& part);
    /// A message of this GPU is complete at its destination.
    void Complete(uint64_t id);

    uint32_t m_gpu;                                   //!< This GPU
    Ptr<RailEndpoints> m_endpoints;                   //!< Fabric directory
    std::vector<Port> m_ports;                        //!< NIC ports
    std::deque<QueuePair> m_qps;                      //!< Sending QPs, by qpn (stable)
    std::unordered_map<uint64_t, uint32_t> m_qpIndex; //!< (port, peer, peer port) -> qpn
    std::map<std::pair<uint64_t, uint32_t>, uint32_t> m_laneIndex; //!< ... and lane >= 1 -> qpn
    std::unordered_map<uint64_t, ReceiveState> m_receiving;        //!< (src GPU, qpn) -> state
    std::map<MessageKey, uint64_t> m_arrived;          //!< Bytes arrived per message to this GPU
    std::map<MessageKey, Forward> m_forwards;          //!< Messages this GPU forwards (PXN)
    std::map<uint32_t, uint32_t> m_proxies;            //!< Peer -> proxy GPU, once found
    std::unordered_map<uint64_t, Outgoing> m_outgoing; //!< Message id -> state
    std::deque<Waiting> m_waiting;                     //!< Messages no port reached yet
    EventId m_retryWaiting;                            //!< See ScheduleRetryWaiting
    EventId m_recheckParked;                           //!< See OnChangeElsewhere
    std::set<uint32_t> m_parked; //!< QPs whose data found no way on: they wait for a change
    std::map<uint32_t, Time> m_stoppedSince;      //!< Peer -> since when no port reaches it
    EventId m_holdDownEnd;                        //!< Retry when one of them may detour
    std::unique_ptr<RailDetour> m_detour;         //!< Paths around failures
    std::set<uint32_t> m_detourPeers;             //!< Peers Opus gave up on (SetDetour)
    std::unordered_map<uint64_t, Part> m_pieces;  //!< Detour message id -> the part it replaced
    std::map<MessageKey, DetourPiece> m_detoured; //!< Detour messages arriving here
    std::map<MessageKey, std::set<uint32_t>> m_passed; //!< See PassedThrough
    uint64_t m_nextMessageId;                          //!< Next message id
    RailTransportCounters m_counters;                  //!< Counters
    Time m_lastRecovery{Seconds(-1)};                  //!< See GetLastRecovery
    Time m_lastActivity;                               //!< See GetLastActivity
    Time m_caughtFrom{Time::Max()};                    //!< See CatchFrom

    uint32_t m_mtu;                  //!< Payload bytes per frame on rail ports
    uint32_t m_scaleUpMtu;           //!< Payload bytes per frame on scale-up ports
    uint32_t m_realMtu;              //!< Payload of a real frame (coalesced frames pad to it)
    uint32_t m_relayChunk;           //!< PXN: bytes a proxy forwards per port, round robin
    uint32_t m_ackInterval;          //!< Frames per cumulative ACK
    uint32_t m_window;               //!< Frames in flight per QP
    uint32_t m_queueFrames;          //!< Device queue depth kept per port
    uint64_t m_initialPsn;           //!< PSN of every connection's first frame
    Time m_retransmitTimeout;        //!< Go-back-N timer
    uint32_t m_retryCount;           //!< Timeouts without progress before a path counts as failed
    bool m_detourOn;                 //!< Detour attribute
    uint32_t m_qpsPerConnection;     //!< QPs a direct message is spread over, per port
    bool m_dcqcn;                    //!< Rate control on (unless the profile is pfc-only)
    DcqcnProfileName m_dcqcnProfile; //!< DcqcnProfile attribute
    Time m_cnpInterval;              //!< CnpInterval attribute (0: the profile's)
    double m_dcqcnG;                 //!< DcqcnG attribute (0: the profile's)
    Time m_dcqcnAlphaPeriod;         //!< DcqcnAlphaPeriod attribute (0: the profile's)
    Time m_dcqcnDecreasePeriod;      //!< DcqcnDecreasePeriod attribute (0: the profile's)
    Time m_dcqcnIncreaseTimer;       //!< DcqcnIncreaseTimer attribute (0: the profile's)
    uint64_t m_dcqcnByteCounter;     //!< DcqcnByteCounter attribute (0: the profile's)
    DataRate m_dcqcnRateAi;          //!< DcqcnRateAi attribute (0: the profile's)
    DataRate m_dcqcnRateHai;         //!< DcqcnRateHai attribute (0: the profile's)
    DataRate m_dcqcnMinRate;         //!< DcqcnMinRate attribute (0: the profile's)

    TracedCallback<uint32_t, uint64_t, uint64_t> m_messageSentTrace;     //!< peer, id, bytes
    TracedCallback<uint32_t, uint64_t, uint64_t> m_messageReceivedTrace; //!< src, id, bytes
    TracedCallback<uint32_t, uint64_t> m_retransmitTrace;                //!< qpn, from PSN
    TracedCallback<uint32_t, double> m_rateTrace;                        //!< qpn, bit/s
    TracedCallback<uint32_t, uint32_t> m_circuitWantedTrace;             //!< port, peer
};

} // namespace ns3

#endif /* RAIL_TRANSPORT_H */

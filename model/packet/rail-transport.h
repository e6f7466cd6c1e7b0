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
class RailSender;
class RailFailover;
class RailReceiver;
class RailRelay;

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

    /// \return the counters (messagesSent, messagesReceived and payloadBytesDelivered are
    ///         the base's, GetMessageCounters)
    RailTransportCounters GetCounters() const;

    /**
     * \param lineRateBps a port's line rate
     * \return the DCQCN settings a QP on such a port uses: DcqcnProfile's, with every
     *         Dcqcn* attribute (and CnpInterval) that is not 0 in their place
     */
    DcqcnProfile GetDcqcnProfile(double lineRateBps) const;

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
    /// Sends a message (MessageTransport's contract): the sent callback fires when every part
    /// of it is acknowledged.
    void DoSend(uint64_t id, uint32_t peer, uint64_t bytes) override;

  private:
    friend class RailSender;        //!< Sending side: QPs, frames, pacing, go-back-N, timers
    friend class RailFailover;      //!< Path failures, hold-downs, moved parts, detours
    friend class RailTransportPart; //!< Names the state its parts share
    friend class RailReceiver;      //!< Receiving side: ACK/NACK/CNP, in-order delivery
    friend class RailRelay;         //!< PXN proxies and detour hops: forwarding
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

    /// A message accepted at the sender (the base keeps its peer, size and callback).
    struct Outgoing
    {
        uint32_t partsLeft; //!< Parts not yet acknowledged (a relayed message counts 1)
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
    /// \return true if \p gpu shares a scale-up (\p scaleUp) or other plane with \p other
    bool SharesPlane(uint32_t gpu, uint32_t other, bool scaleUp) const;
    /// Splits a message over the ports that reach \p peer; false if none does.
    bool Dispatch(uint64_t id, uint32_t peer, uint64_t bytes);
    /// \return the RailTransport of GPU \p gpu
    Ptr<RailTransport> TransportOf(uint32_t gpu) const;
    /// Re-checks \p qp after a change: reachability, sending, and the timer if broken.
    void Recheck(QueuePair& qp);
    /// Dispatches waiting messages that a port reaches now.
    void RetryWaiting();
    /// RetryWaiting() once every change of this instant is made (see there).
    void ScheduleRetryWaiting();
    /// \return the peer port index reached through \p port, or -1 (\p holdDown: see Counts)
    int32_t PeerPortVia(uint32_t port, uint32_t peer, bool holdDown = false) const;
    /**
     * \return true if port \p index of GPU \p gpu counts as working: it is up, or, with
     * \p holdDown, it failed less than a RetransmitTimeout ago (a new message is striped as
     * if it had not: its part waits for the repair there, or moves when the failure has
     * lasted that long, so a short outage leaves no imbalance behind)
     */
    bool Counts(uint32_t gpu, uint32_t index, bool holdDown) const;
    void OnCircuitChange(uint32_t port);

    /// A part was acknowledged in full.
    void PartDone(const Part& part);
    /// A message of this GPU is complete at its destination.
    void Complete(uint64_t id);

    uint32_t m_gpu;                       //!< This GPU
    Ptr<RailEndpoints> m_endpoints;       //!< Fabric directory
    std::unique_ptr<RailSender> m_sender; //!< Sending side: QPs, frames, pacing, go-back-N, timers
    std::unique_ptr<RailFailover> m_failover; //!< Path failures, hold-downs, moved parts, detours
    std::unique_ptr<RailReceiver> m_receiver; //!< Receiving side: ACK/NACK/CNP, in-order delivery
    std::unique_ptr<RailRelay> m_relay;       //!< PXN proxies and detour hops: forwarding
    std::vector<Port> m_ports;                //!< NIC ports
    std::unordered_map<uint64_t, Outgoing> m_outgoing; //!< Message id -> state
    std::deque<Waiting> m_waiting;                     //!< Messages no port reached yet
    EventId m_retryWaiting;                            //!< See ScheduleRetryWaiting
    RailTransportCounters m_counters;                  //!< Counters
    Time m_lastActivity;                               //!< See GetLastActivity

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

    TracedCallback<uint32_t, uint64_t> m_retransmitTrace;    //!< qpn, from PSN
    TracedCallback<uint32_t, double> m_rateTrace;            //!< qpn, bit/s
    TracedCallback<uint32_t, uint32_t> m_circuitWantedTrace; //!< port, peer
};

/**
 * \ingroup photonic-rails
 * \brief What the parts of a RailTransport (RailSender, RailReceiver, RailRelay,
 *        RailFailover) share: the transport they belong to, whose ports, settings, counters and
 *        other parts they use, and the names of its state.
 *
 * The parts are plain classes, owned by the RailTransport (the ns-3 Object with the
 * attributes and trace sources) and called by it and by one another; none outlives it.
 */
class RailTransportPart
{
  public:
    /// \param transport the RailTransport this is a part of (it owns this part)
    explicit RailTransportPart(RailTransport& transport)
        : m_rt(transport)
    {
    }

    /// GPU number meaning "none"
    static constexpr uint32_t NO_GPU = RailTransport::NO_GPU;
    using Part = RailTransport::Part;                 //!< A slice of a message on one QP
    using PartRole = RailTransport::PartRole;         //!< What acknowledging a part completes
    using QueuePair = RailTransport::QueuePair;       //!< Sending side of a connection
    using ReceiveState = RailTransport::ReceiveState; //!< Receiving side of a connection
    using Port = RailTransport::Port;                 //!< One NIC port
    using MessageKey = RailTransport::MessageKey;     //!< Origin GPU and its message id
    using DetourPiece = RailTransport::DetourPiece;   //!< What a detour message carries
    using Outgoing = RailTransport::Outgoing;         //!< A message accepted at the sender
    using Waiting = RailTransport::Waiting;           //!< A message no port reached yet

  protected:
    RailTransport& m_rt; //!< The transport this is a part of
};

} // namespace ns3

#endif /* RAIL_TRANSPORT_H */

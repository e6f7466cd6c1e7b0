/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_FAILOVER_H
#define RAIL_FAILOVER_H

#include "ns3/rail-transport.h"

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The failover side of a RailTransport: which paths failed, hold-downs before data
 *        goes another way, moving a broken QP's parts to other ports, parking what finds no
 *        way on until the fabric changes, detours around a dead rail (RailDetour), and the
 *        recovery time GetLastRecovery reports.
 *
 * A plain part of its RailTransport, which owns it; it queues moved data through the sender
 * part and re-checks QPs through the transport.
 */
class RailFailover : public RailTransportPart
{
  public:
    using RailTransportPart::RailTransportPart;

    /**
     * \brief Tells this transport whether its traffic to \p peer may detour when no port
     * reaches the peer although its ports work: the control plane (Opus) found no live port
     * for a circuit between them.
     * \param peer the peer GPU
     * \param detour true to detour, false to wait for a circuit again
     */
    void SetDetour(uint32_t peer, bool detour);
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
    /// Data to \p peer must go around a failed port and no lit circuit makes a path: asks
    /// Opus (CircuitWanted of another GPU's transport) for a circuit that makes a PXN one.
    void WantCircuitAround(uint32_t peer);
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
    /// \return true if \p port is down (cut cable, failed OCS port)
    bool PortFailed(uint32_t port) const;
    /// \return true if \p qp's path failed: its port or its peer port is down, or it gave up
    bool IsBroken(const QueuePair& qp) const;
    /// \return true if \p qp's port or its peer port is down (a QP that gave up may sit
    ///         still until the fabric changes: a failure inside a rail split in two would
    ///         otherwise have its data moved back and forth between ports for good)
    bool PathDown(const QueuePair& qp) const;
    /**
     * Moves the parts of broken \p qp to the ports that reach its peer, or, with none, the
     * parts that may detour around the failure (Reroute); the others stay on \p qp.
     * \return false if nothing could move
     */
    bool MoveParts(QueuePair& qp);
    /// \return where \p part of broken \p qp goes around the failure, or NO_GPU if it waits
    uint32_t RerouteHop(const QueuePair& qp, const Part& part) const;
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
    /// A port changed anywhere in the fabric (RailEndpoints::AddChangeCallback): data that
    /// found no way on looks again (RecheckParked), as a detour can cross any rail.
    void OnChangeElsewhere();
    /// Re-checks the QPs whose data found no way on, and the waiting messages.
    void RecheckParked();
    /// \p qp's data found no way on: it waits for a change (OnChangeElsewhere), and
    /// detoured data waiting for a circuit fires CircuitWanted; data on a dead path asks for
    /// the circuit of a PXN path (WantCircuitAround).
    void Park(QueuePair& qp);
    /// \return true if \p part carries bytes going around a failure: a detour message's,
    ///         or a forwarded message's past its PXN proxy (RailRelay::GoesAround)
    bool IsDetourPart(const Part& part) const;
    /// \return the failed ports (this GPU's and \p peer's on shared planes), e.g. gpu5.port1
    std::set<std::string> FailedPortsTowards(uint32_t peer) const;
    /// \return why this GPU cannot reach \p peer, e.g. "port gpu5.port1 down"
    std::string DescribeBlockage(uint32_t peer, bool gaveUp) const;

    EventId m_recheckParked;     //!< See OnChangeElsewhere
    std::set<uint32_t> m_parked; //!< QPs whose data found no way on: they wait for a change
    std::map<uint32_t, Time> m_stoppedSince;      //!< Peer -> since when no port reaches it
    EventId m_holdDownEnd;                        //!< Retry when one of them may detour
    std::unique_ptr<RailDetour> m_detour;         //!< Paths around failures
    std::set<uint32_t> m_detourPeers;             //!< Peers Opus gave up on (SetDetour)
    std::unordered_map<uint64_t, Part> m_pieces;  //!< Detour message id -> the part it replaced
    std::map<MessageKey, DetourPiece> m_detoured; //!< Detour messages arriving here
    Time m_lastRecovery{Seconds(-1)};             //!< See GetLastRecovery
    Time m_caughtFrom{Time::Max()};               //!< See CatchFrom
};

} // namespace ns3

#endif /* RAIL_FAILOVER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_SENDER_H
#define RAIL_SENDER_H

#include "ns3/rail-transport.h"

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The sending side of a RailTransport (htsim's RoceSrc): its queue pairs, cutting
 *        parts into frames, feeding each port round robin at line rate or at a QP's DCQCN
 *        pace, go-back-N on NACK or timeout with lazy retransmission timers, and ACK, NACK
 *        and CNP handling.
 *
 * A plain part of its RailTransport, which owns it; a part acknowledged in full goes back
 * to the transport (PartDone), a QP that times out too often to the failover part.
 */
class RailSender : public RailTransportPart
{
  public:
    using RailTransportPart::RailTransportPart;

    /**
     * \brief Queues parts of \p part's message over \p routes in proportion to their rates,
     *        each route's share split evenly over \p lanes QPs.
     * \return the qpns of the slices, in order
     */
    std::vector<uint32_t> QueueParts(const std::vector<std::pair<uint32_t, uint32_t>>& routes,
                                     uint32_t peer,
                                     Part part,
                                     uint32_t lanes = 1);
    /// \return true if the QP on \p port to \p peer's \p peerPort exists and gave up
    bool GaveUpOn(uint32_t port, uint32_t peer, uint32_t peerPort) const;
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
    void OnDequeue(uint32_t port, Ptr<const Packet> frame);
    void ReceiveAck(const RailTransportHeader& header);
    void ReceiveNack(const RailTransportHeader& header);
    void ReceiveCnp(const RailTransportHeader& header);
    /// Marks everything below \p psn acknowledged and completes finished parts.
    void Acknowledge(QueuePair& qp, uint64_t psn);

    std::deque<QueuePair> m_qps;                      //!< Sending QPs, by qpn (stable)
    std::unordered_map<uint64_t, uint32_t> m_qpIndex; //!< (port, peer, peer port) -> qpn
    std::map<std::pair<uint64_t, uint32_t>, uint32_t> m_laneIndex; //!< ... and lane >= 1 -> qpn
};

} // namespace ns3

#endif /* RAIL_SENDER_H */

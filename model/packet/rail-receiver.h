/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_RECEIVER_H
#define RAIL_RECEIVER_H

#include "ns3/rail-transport.h"

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The receiving side of a RailTransport (htsim's RoceSink): the node's protocol
 *        handler, go-back-N acceptance of the next PSN with cumulative ACKs and one NACK per
 *        gap, CNPs for ECN-marked frames, and in-order delivery of the messages addressed
 *        to this GPU (counting a detour's bytes towards the message it carries).
 *
 * A plain part of its RailTransport, which owns it and whose ports, settings and counters it
 * uses; ACK, NACK and CNP frames go on to the sender part, bytes to forward to the PXN part.
 */
class RailReceiver : public RailTransportPart
{
  public:
    using RailTransportPart::RailTransportPart;

    /**
     * \brief The receiving end of a reconnection: the sender moves connection (\p sourceGpu,
     * \p qpn) on to PSN \p nextPsn.
     * \param sourceGpu the sending GPU
     * \param qpn its QP
     * \param nextPsn the PSN the connection continues from
     * \return the PSN this end expected: every frame below it was accepted
     */
    uint64_t ResetConnection(uint32_t sourceGpu, uint32_t qpn, uint64_t nextPsn);

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

    std::unordered_map<uint64_t, ReceiveState> m_receiving; //!< (src GPU, qpn) -> state
    std::map<MessageKey, uint64_t> m_arrived; //!< Bytes arrived per message to this GPU
};

} // namespace ns3

#endif /* RAIL_RECEIVER_H */

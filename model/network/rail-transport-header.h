/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_TRANSPORT_HEADER_H
#define RAIL_TRANSPORT_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Header of a RailTransport frame, after the Ethernet header.
 *
 * It stands for what RoCEv2 carries between the Ethernet header and the payload (IPv4 20,
 * UDP 8, InfiniBand BTH 12, ICRC 4 and the Ethernet FCS 4: 48 bytes), so frames have
 * RoCEv2's size on the wire. Its first four bytes are the connection's flow label, which
 * switches hash for ECMP as they would hash RoCEv2's UDP source port.
 */
class RailTransportHeader : public Header
{
  public:
    /// Frame kinds.
    enum Kind : uint8_t
    {
        DATA = 0, //!< Payload of a message part
        ACK = 1,  //!< Cumulative acknowledgement: every PSN below Psn() arrived
        NACK = 2, //!< Go back: the receiver expects Psn()
        CNP = 3,  //!< Congestion notification (DCQCN), from receiver to sender
    };

    /// Size on the wire, as RoCEv2's headers and trailers.
    static constexpr uint32_t SIZE = 48;
    /// Per-frame overhead on the wire: this header and the 14-byte Ethernet header.
    static constexpr uint32_t FRAME_OVERHEAD = SIZE + 14;

    /**
     * \brief Padding a coalesced frame carries so it takes the wire time of the frames it
     * stands for.
     *
     * A frame of \p payload bytes above \p mtu (the real frame payload, RoCE's 4096) stands
     * for ceil(payload / mtu) real frames; it carries the FRAME_OVERHEAD of all but the
     * first as padding, so simulating fewer, larger frames keeps bytes on the wire per
     * payload byte unchanged.
     * \param payload the coalesced frame's payload
     * \param mtu payload of one real frame
     * \return padding bytes (0 when payload <= mtu)
     */
    static uint32_t CoalescedPadding(uint32_t payload, uint32_t mtu);

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint32_t label{0};     //!< Connection flow label (ECMP entropy)
    uint32_t sourceGpu{0}; //!< Sending GPU of the connection's data
    uint32_t qpn{0};       //!< Queue pair number at that GPU
    Kind kind{DATA};       //!< Frame kind
    bool last{false};   //!< Asks for an ACK: last frame of a part, of the bytes a proxy has, or of
                        //!< the window
    uint64_t psn{0};    //!< Packet sequence number (DATA) or acknowledged PSN
    uint32_t origin{0}; //!< GPU that sent the message (DATA; differs from the
                        //!< frame's sender when a proxy forwards it)
    uint32_t relayTo{0xffffffff}; //!< Final GPU when this hop goes to a proxy (DATA)
    uint64_t messageId{0};        //!< Origin's message id (DATA)
    uint64_t messageBytes{0};     //!< Whole message size (DATA), all parts together
    uint16_t padding{0};          //!< Bytes after the payload that are not data (DATA)
};

} // namespace ns3

#endif /* RAIL_TRANSPORT_HEADER_H */

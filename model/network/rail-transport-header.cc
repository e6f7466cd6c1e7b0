/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-transport-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailTransportHeader");

NS_OBJECT_ENSURE_REGISTERED(RailTransportHeader);

namespace
{
/// Bytes the fields take; the rest of SIZE is padding for RoCEv2's remaining headers.
// The PSN takes 8 bytes: a QP (or one message of tiny frames) may send more than 2^32.
constexpr uint32_t FIELD_BYTES = 4 + 4 + 4 + 1 + 1 + 8 + 4 + 4 + 8 + 8 + 2;
static_assert(FIELD_BYTES <= RailTransportHeader::SIZE, "header fields exceed RoCEv2 size");
} // namespace

TypeId
RailTransportHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RailTransportHeader")
                            .SetParent<Header>()
                            .SetGroupName("PhotonicRails")
                            .AddConstructor<RailTransportHeader>();
    return tid;
}

TypeId
RailTransportHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RailTransportHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RailTransportHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(label);
    start.WriteHtonU32(sourceGpu);
    start.WriteHtonU32(qpn);
    start.WriteU8(kind);
    start.WriteU8(last ? 1 : 0);
    start.WriteHtonU64(psn);
    start.WriteHtonU32(origin);
    start.WriteHtonU32(relayTo);
    start.WriteHtonU64(messageId);
    start.WriteHtonU64(messageBytes);
    start.WriteHtonU16(padding);
    start.WriteU8(0, SIZE - FIELD_BYTES);
}

uint32_t
RailTransportHeader::Deserialize(Buffer::Iterator start)
{
    label = start.ReadNtohU32();
    sourceGpu = start.ReadNtohU32();
    qpn = start.ReadNtohU32();
    kind = static_cast<Kind>(start.ReadU8());
    last = start.ReadU8() != 0;
    psn = start.ReadNtohU64();
    origin = start.ReadNtohU32();
    relayTo = start.ReadNtohU32();
    messageId = start.ReadNtohU64();
    messageBytes = start.ReadNtohU64();
    padding = start.ReadNtohU16();
    start.Next(SIZE - FIELD_BYTES);
    return SIZE;
}

uint32_t
RailTransportHeader::CoalescedPadding(uint32_t payload, uint32_t mtu)
{
    uint32_t frames = (payload + mtu - 1) / mtu;
    return frames > 1 ? (frames - 1) * FRAME_OVERHEAD : 0;
}

void
RailTransportHeader::Print(std::ostream& os) const
{
    static const char* kinds[] = {"DATA", "ACK", "NACK", "CNP"};
    os << kinds[kind & 3] << " label=" << label << " gpu=" << sourceGpu << " qpn=" << qpn
       << " psn=" << psn;
    if (kind == DATA)
    {
        os << " origin=" << origin << " msg=" << messageId << "/" << messageBytes
           << (last ? " last" : "");
    }
}

} // namespace ns3

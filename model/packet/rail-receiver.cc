/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-receiver.h"

#include "ns3/abort.h"
#include "ns3/ecn-mark-tag.h"
#include "ns3/eps-net-device.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/ocs-net-device.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/rail-failover.h"
#include "ns3/rail-relay.h"
#include "ns3/rail-sender.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailReceiver");

namespace
{
/// Key of a receiving connection: source GPU and its qpn.
uint64_t
ConnectionKey(uint32_t sourceGpu, uint32_t qpn)
{
    return (static_cast<uint64_t>(sourceGpu) << 32) | qpn;
}
} // namespace

uint64_t
RailReceiver::ResetConnection(uint32_t sourceGpu, uint32_t qpn, uint64_t nextPsn)
{
    NS_LOG_FUNCTION(this << sourceGpu << qpn << nextPsn);
    auto [found, fresh] = m_receiving.try_emplace(ConnectionKey(sourceGpu, qpn));
    ReceiveState& state = found->second;
    uint64_t expected = fresh ? m_rt.m_initialPsn : state.expectedPsn;
    state.expectedPsn = nextPsn;
    state.nackSent = false;
    state.unacked = 0;
    return expected;
}

void
RailReceiver::Receive(Ptr<NetDevice> device,
                      Ptr<const Packet> frame,
                      uint16_t protocol,
                      const Address& from,
                      const Address& to,
                      NetDevice::PacketType type)
{
    m_rt.m_lastActivity = Simulator::Now();
    // Peeked, not removed: removing would need a copy of the frame (it is const), and
    // nothing reads the payload.
    RailTransportHeader header;
    uint32_t headerBytes = frame->PeekHeader(header);
    switch (header.kind)
    {
    case RailTransportHeader::DATA: {
        uint32_t port = 0;
        while (m_rt.m_ports[port].device != device)
        {
            ++port;
        }
        EcnMarkTag mark;
        ReceiveData(port,
                    from,
                    header,
                    frame->GetSize() - headerBytes - header.padding,
                    frame->PeekPacketTag(mark));
        break;
    }
    case RailTransportHeader::ACK:
        m_rt.m_sender->ReceiveAck(header);
        break;
    case RailTransportHeader::NACK:
        m_rt.m_sender->ReceiveNack(header);
        break;
    case RailTransportHeader::CNP:
        m_rt.m_sender->ReceiveCnp(header);
        break;
    }
}

void
RailReceiver::ReceiveData(uint32_t port,
                          const Address& from,
                          const RailTransportHeader& header,
                          uint32_t payload,
                          bool marked)
{
    auto [found, fresh] = m_receiving.try_emplace(ConnectionKey(header.sourceGpu, header.qpn));
    ReceiveState& state = found->second;
    if (fresh)
    {
        state.expectedPsn = m_rt.m_initialPsn;
    }
    if (marked && m_rt.UsesDcqcn())
    {
        SendCnp(port, from, header, state);
    }
    if (header.psn != state.expectedPsn)
    {
        if (header.psn > state.expectedPsn && !state.nackSent)
        {
            state.nackSent = true;
            ++m_rt.m_counters.nacksSent;
            m_rt.m_sender->SendControl(port,
                                       from,
                                       RailTransportHeader::NACK,
                                       header.qpn,
                                       header.label,
                                       state.expectedPsn);
        }
        else if (header.psn < state.expectedPsn)
        {
            // A duplicate: our ACK may have been lost; repeat it.
            m_rt.m_sender->SendControl(port,
                                       from,
                                       RailTransportHeader::ACK,
                                       header.qpn,
                                       header.label,
                                       state.expectedPsn);
        }
        return;
    }
    ++state.expectedPsn;
    state.nackSent = false;
    m_rt.m_counters.payloadBytesReceived += payload;
    if (header.last || ++state.unacked >= m_rt.m_ackInterval)
    {
        state.unacked = 0;
        m_rt.m_sender->SendControl(port,
                                   from,
                                   RailTransportHeader::ACK,
                                   header.qpn,
                                   header.label,
                                   state.expectedPsn);
    }
    if (header.relayTo != NO_GPU && header.relayTo != m_rt.m_gpu)
    {
        m_rt.m_relay->PassOn(header, payload);
    }
    else
    {
        Deliver(header, payload);
    }
}

void
RailReceiver::Deliver(const RailTransportHeader& header, uint32_t payload)
{
    MessageKey key{header.origin, header.messageId};
    uint64_t total = header.messageBytes;
    // A detour message's bytes count towards the message it carries a piece of, which may
    // itself be a detour message (a detour that went around a second failure).
    for (auto piece = m_rt.m_failover->m_detoured.find(key);
         piece != m_rt.m_failover->m_detoured.end();
         piece = m_rt.m_failover->m_detoured.find(key))
    {
        MessageKey detour = key;
        DetourPiece carried = piece->second;
        key = carried.message;
        total = carried.messageBytes;
        NS_ASSERT_MSG(payload <= carried.left, "a detour got more bytes than it has");
        piece->second.left -= payload;
        if (piece->second.left == 0)
        {
            // Every byte of the detour is here, whichever way it came: its sender is told
            // (instantly, as PXN's completion flag).
            m_rt.m_failover->m_detoured.erase(piece);
            m_rt.m_relay->ForgetPassed(detour);
            m_rt.TransportOf(detour.first)->Complete(detour.second);
        }
        if (carried.relayTo != NO_GPU)
        {
            // Bytes of a message this GPU forwards, come around a failure.
            RailTransportHeader forwarded = header;
            forwarded.origin = key.first;
            forwarded.messageId = key.second;
            forwarded.messageBytes = total;
            forwarded.relayTo = carried.relayTo;
            m_rt.m_relay->PassOn(forwarded, payload);
            return;
        }
    }
    uint64_t& arrived = m_arrived[key];
    arrived += payload;
    m_rt.NotifyPayloadDelivered(payload);
    NS_ASSERT_MSG(arrived <= total,
                  "message " << key.second << " from GPU " << key.first
                             << " got more bytes than it has");
    if (arrived < total)
    {
        return;
    }
    m_arrived.erase(key);
    m_rt.m_relay->ForgetPassed(key);
    m_rt.NotifyDelivered(key.first, key.second, total);
}

void
RailReceiver::SendCnp(uint32_t port,
                      const Address& from,
                      const RailTransportHeader& header,
                      ReceiveState& state)
{
    // The notification point: ConnectX sends at most one CNP per interval from each port,
    // whichever QP's marked frame comes first; the DCQCN paper, one per flow.
    DcqcnProfile profile = m_rt.GetDcqcnProfile(m_rt.m_ports[port].rateBps);
    Time& last = profile.cnpIntervalPerPort ? m_rt.m_ports[port].lastCnp : state.lastCnp;
    if (Simulator::Now() - last < profile.cnpInterval)
    {
        return;
    }
    last = Simulator::Now();
    ++m_rt.m_counters.cnpsSent;
    m_rt.m_sender
        ->SendControl(port, from, RailTransportHeader::CNP, header.qpn, header.label, header.psn);
}

} // namespace ns3

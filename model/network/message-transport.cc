/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MessageTransport");

NS_OBJECT_ENSURE_REGISTERED(MessageTransport);

TypeId
MessageTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MessageTransport")
            .SetParent<Object>()
            .SetGroupName("PhotonicRails")
            .AddTraceSource("MessageSent",
                            "A message was complete at its peer and acknowledged (peer, id, "
                            "bytes).",
                            MakeTraceSourceAccessor(&MessageTransport::m_messageSentTrace),
                            "ns3::MessageTransport::MessageTracedCallback")
            .AddTraceSource("MessageReceived",
                            "A message arrived in full (source, id, bytes).",
                            MakeTraceSourceAccessor(&MessageTransport::m_messageReceivedTrace),
                            "ns3::MessageTransport::MessageTracedCallback");
    return tid;
}

MessageTransport::~MessageTransport()
{
    NS_LOG_FUNCTION(this);
}

void
MessageTransport::SetReceiveCallback(ReceiveCallback callback)
{
    NS_LOG_FUNCTION(this);
    m_receiveCallback = callback;
}

uint64_t
MessageTransport::Send(uint32_t peer, uint64_t bytes, SentCallback sent)
{
    NS_LOG_FUNCTION(this << peer << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "MessageTransport::Send: a message has at least one byte");
    uint64_t id = AllocateMessageId();
    m_pending.emplace(id, Pending{peer, bytes, sent});
    DoSend(id, peer, bytes);
    return id;
}

std::size_t
MessageTransport::GetPendingMessageCount() const
{
    NS_LOG_FUNCTION(this);
    return m_pending.size();
}

MessageTransportCounters
MessageTransport::GetMessageCounters() const
{
    NS_LOG_FUNCTION(this);
    return m_counters;
}

void
MessageTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_receiveCallback.Nullify();
    m_pending.clear();
    Object::DoDispose();
}

uint64_t
MessageTransport::AllocateMessageId()
{
    return m_nextMessageId++;
}

void
MessageTransport::NotifyPayloadDelivered(uint64_t bytes)
{
    m_counters.payloadBytesDelivered += bytes;
}

void
MessageTransport::NotifyDelivered(uint32_t source, uint64_t id, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << source << id << bytes);
    ++m_counters.messagesReceived;
    m_messageReceivedTrace(source, id, bytes);
    if (!m_receiveCallback.IsNull())
    {
        m_receiveCallback(source, id, bytes);
    }
}

void
MessageTransport::NotifySent(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    auto it = m_pending.find(id);
    NS_ABORT_MSG_IF(it == m_pending.end(), "MessageTransport: no pending message " << id);
    Pending message = std::move(it->second);
    m_pending.erase(it);
    ++m_counters.messagesSent;
    m_messageSentTrace(message.peer, id, message.bytes);
    if (!message.sent.IsNull())
    {
        message.sent(id);
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-transport.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MessageTransport");

NS_OBJECT_ENSURE_REGISTERED(MessageTransport);

TypeId
MessageTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MessageTransport").SetParent<Object>().SetGroupName("PhotonicRails");
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

void
MessageTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_receiveCallback.Nullify();
    Object::DoDispose();
}

void
MessageTransport::NotifyReceived(uint32_t source, uint64_t id, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << source << id << bytes);
    if (!m_receiveCallback.IsNull())
    {
        m_receiveCallback(source, id, bytes);
    }
}

} // namespace ns3

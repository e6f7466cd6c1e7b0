/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecn-mark-tag.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcnMarkTag");

NS_OBJECT_ENSURE_REGISTERED(EcnMarkTag);

TypeId
EcnMarkTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcnMarkTag")
                            .SetParent<Tag>()
                            .SetGroupName("PhotonicRails")
                            .AddConstructor<EcnMarkTag>();
    return tid;
}

TypeId
EcnMarkTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

EcnMarkTag::EcnMarkTag(uint32_t port)
    : m_port(port)
{
}

uint32_t
EcnMarkTag::GetPort() const
{
    return m_port;
}

uint32_t
EcnMarkTag::GetSerializedSize() const
{
    return sizeof(m_port);
}

void
EcnMarkTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU32(m_port);
}

void
EcnMarkTag::Deserialize(TagBuffer buffer)
{
    m_port = buffer.ReadU32();
}

void
EcnMarkTag::Print(std::ostream& os) const
{
    os << "CE port=" << m_port;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-starter.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CollectiveStarter);

TypeId
CollectiveStarter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveStarter").SetParent<Object>().SetGroupName("PhotonicRails");
    return tid;
}

CollectiveStarter::~CollectiveStarter() = default;

} // namespace ns3

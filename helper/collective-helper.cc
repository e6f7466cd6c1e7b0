/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-helper.h"

#include "ns3/log.h"

#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveHelper");

CollectiveHelper::CollectiveHelper()
{
    m_factory.SetTypeId(CollectiveCommunicator::GetTypeId());
}

void
CollectiveHelper::SetCommunicatorAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

std::vector<Ptr<CollectiveCommunicator>>
CollectiveHelper::Install(Ptr<RailNetwork> fabric) const
{
    const NodeContainer& gpus = fabric->GetGpus();
    bool optical = fabric->GetKind() == RailKind::OCS;
    std::vector<Ptr<CollectiveCommunicator>> communicators;
    for (uint32_t rank = 0; rank < gpus.GetN(); ++rank)
    {
        Ptr<CollectiveCommunicator> communicator = m_factory.Create<CollectiveCommunicator>();
        communicator->Setup(rank,
                            fabric->GetMessageTransport(rank),
                            fabric->GetSpec().gpusPerServer,
                            optical);
        gpus.Get(rank)->AggregateObject(communicator);
        communicators.push_back(communicator);
    }
    auto shared = std::make_shared<const std::vector<Ptr<CollectiveCommunicator>>>(communicators);
    for (const auto& communicator : communicators)
    {
        communicator->Connect(shared);
    }
    return communicators;
}

} // namespace ns3

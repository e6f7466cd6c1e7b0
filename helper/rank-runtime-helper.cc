/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rank-runtime-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rank-runtime.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RankRuntimeHelper");

RankRuntimeHelper::RankRuntimeHelper()
{
    m_factory.SetTypeId(RankRuntime::GetTypeId());
}

void
RankRuntimeHelper::SetAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
RankRuntimeHelper::Install(std::shared_ptr<const WorkloadDag> dag,
                           const NodeContainer& gpus,
                           const std::vector<Ptr<CollectiveCommunicator>>& communicators) const
{
    NS_ABORT_MSG_IF(dag->GetRankCount() > gpus.GetN() || communicators.size() != gpus.GetN(),
                    "the workload has " << dag->GetRankCount() << " ranks but the fabric "
                                        << gpus.GetN() << " GPUs");
    ApplicationContainer apps;
    for (uint32_t rank = 0; rank < dag->GetRankCount(); ++rank)
    {
        Ptr<RankRuntime> runtime = m_factory.Create<RankRuntime>();
        runtime->Setup(dag, rank, communicators[rank]);
        runtime->SetStartTime(Seconds(0));
        gpus.Get(rank)->AddApplication(runtime);
        apps.Add(runtime);
    }
    return apps;
}

} // namespace ns3

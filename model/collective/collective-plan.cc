/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-plan.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/collective-plan-builder.h"
#include "ns3/collective-plan-ring.h"
#include "ns3/log.h"

#include <map>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectivePlan");

using namespace plan;

namespace
{

/**
 * \param request a valid collective
 * \param n members
 * \return the algorithm to run: the one asked for, or Choose()'s when none is
 */
WorkloadAlgorithm
Resolve(const CollectiveRequest& request, uint32_t n)
{
    std::string reason = CollectivePlanner::CheckAlgorithm(request.type, request.algorithm, n);
    if (!reason.empty())
    {
        Reject(reason);
    }
    if (!IsAutomatic(request))
    {
        return request.algorithm;
    }
    WorkloadAlgorithm chosen = CollectivePlanner::Choose(request);
    // Choose() must pick what Plan() implements; a barrier's DIRECT is its dissemination.
    reason = request.type == WorkloadOpType::BARRIER
                 ? ""
                 : CollectivePlanner::CheckAlgorithm(request.type, chosen, n);
    if (!reason.empty())
    {
        Reject(reason);
    }
    return chosen;
}

/**
 * \param type the collective
 * \param algorithm the algorithm run
 * \param hierarchical whether a ring goes through the scale-up domains
 * \return the name reports use
 */
std::string
PlanName(WorkloadOpType type, WorkloadAlgorithm algorithm, bool hierarchical)
{
    switch (type)
    {
    case WorkloadOpType::BARRIER:
        return "dissemination";
    case WorkloadOpType::BROADCAST:
    case WorkloadOpType::REDUCE:
        return "chain";
    case WorkloadOpType::ALLTOALL:
        return algorithm == WorkloadAlgorithm::RING ? "pairwise" : "direct";
    default:
        break;
    }
    switch (algorithm)
    {
    case WorkloadAlgorithm::HALVING_DOUBLING:
        return "halving-doubling";
    case WorkloadAlgorithm::TREE:
        return "double-binary-tree";
    default:
        return hierarchical ? "hierarchical-ring" : "ring";
    }
}

} // namespace

CollectivePlan
CollectivePlanner::Plan(const CollectiveRequest& request)
{
    NS_LOG_FUNCTION_NOARGS();
    Group group(request);
    CollectivePlan plan;
    plan.algorithm = Resolve(request, group.Size());
    bool ringType = request.type == WorkloadOpType::ALLREDUCE ||
                    request.type == WorkloadOpType::ALLGATHER ||
                    request.type == WorkloadOpType::REDUCESCATTER;
    Grid grid;
    plan.hierarchical = plan.algorithm == WorkloadAlgorithm::RING && ringType &&
                        FindGrid(group, request.gpusPerServer, grid);
    bool relay = IsRingRelay(request);
    plan.name = relay ? "ring-relay" : PlanName(request.type, plan.algorithm, plan.hierarchical);
    plan.channels = request.channels;
    plan.chunkBytes = request.chunkBytes;
    if (group.Size() == 1)
    {
        return plan; // nothing to exchange
    }
    Builder b(request, plan.tasks);
    CollectiveAlgorithmRegistry::Find(plan.algorithm)->planner(b, request, group);
    return plan;
}

bool
CollectivePlanner::CanAggregate(const CollectivePlan& plan)
{
    NS_LOG_FUNCTION_NOARGS();
    return plan.name == "ring" && !plan.hierarchical && !plan.aggregated;
}

CollectivePlan
CollectivePlanner::AggregateSteps(const CollectivePlan& plan)
{
    NS_LOG_FUNCTION_NOARGS();
    // Field by field: a copy of the plan would keep its task vector's capacity, thousands of
    // tasks per cached plan.
    CollectivePlan merged;
    merged.algorithm = plan.algorithm;
    merged.hierarchical = plan.hierarchical;
    merged.name = plan.name;
    merged.channels = plan.channels;
    merged.chunkBytes = plan.chunkBytes;
    merged.aggregated = true;
    std::map<uint32_t, uint64_t> sent;
    std::map<uint32_t, uint64_t> received;
    uint64_t reduced = 0;
    for (const CollectiveTask& task : plan.tasks)
    {
        switch (task.kind)
        {
        case CollectiveTask::SEND:
            sent[task.peer] += task.bytes;
            break;
        case CollectiveTask::RECV:
            received[task.peer] += task.bytes;
            break;
        case CollectiveTask::REDUCE:
            reduced += task.bytes;
            break;
        }
    }
    for (const auto& [peer, bytes] : sent)
    {
        merged.tasks.push_back({CollectiveTask::SEND, peer, bytes, {}});
    }
    CollectiveTask reduce{CollectiveTask::REDUCE, 0, reduced, {}};
    for (const auto& [peer, bytes] : received)
    {
        reduce.deps.push_back(merged.tasks.size());
        merged.tasks.push_back({CollectiveTask::RECV, peer, bytes, {}});
    }
    if (reduced > 0)
    {
        merged.tasks.push_back(reduce);
    }
    return merged;
}

std::string
CollectivePlanner::CheckAlgorithm(WorkloadOpType type,
                                  WorkloadAlgorithm algorithm,
                                  uint32_t members)
{
    NS_LOG_FUNCTION(static_cast<int>(type) << static_cast<int>(algorithm) << members);
    if (algorithm == WorkloadAlgorithm::AUTO || algorithm == WorkloadAlgorithm::UNSPECIFIED)
    {
        return "";
    }
    if (type == WorkloadOpType::BARRIER)
    {
        return "barrier takes no algorithm (got " + WorkloadAlgorithmName(algorithm) +
               "): it always uses dissemination";
    }
    const CollectiveAlgorithm* entry = CollectiveAlgorithmRegistry::Find(algorithm);
    if (!entry->Applies(type))
    {
        return entry->Name() + " does not apply to " + WorkloadOpTypeName(type);
    }
    if (entry->groupRule != nullptr)
    {
        return entry->groupRule(members);
    }
    return "";
}

WorkloadAlgorithm
CollectivePlanner::Choose(const CollectiveRequest& request)
{
    NS_LOG_FUNCTION_NOARGS();
    if (!IsWorkloadCollective(request.type))
    {
        Reject(WorkloadOpTypeName(request.type) + " is not a collective");
    }
    switch (request.type)
    {
    case WorkloadOpType::BARRIER:
        return WorkloadAlgorithm::DIRECT; // dissemination
    case WorkloadOpType::ALLTOALL:
        // Optical: RING, which Plan() runs as ring-relay (ring neighbours only).
        return request.optical ? WorkloadAlgorithm::RING : WorkloadAlgorithm::DIRECT;
    default:
        return WorkloadAlgorithm::RING;
    }
}

} // namespace ns3

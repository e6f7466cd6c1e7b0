/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-plan.h"

#include "ns3/collective-plan-alltoall.h"
#include "ns3/collective-plan-builder.h"
#include "ns3/collective-plan-chain.h"
#include "ns3/collective-plan-dissemination.h"
#include "ns3/collective-plan-halving-doubling.h"
#include "ns3/collective-plan-ring.h"
#include "ns3/collective-plan-tree.h"
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
 * \param type a collective
 * \param algorithm an explicit algorithm
 * \return true if the planner implements algorithm for type
 */
bool
Applies(WorkloadOpType type, WorkloadAlgorithm algorithm)
{
    switch (type)
    {
    case WorkloadOpType::ALLREDUCE:
        return algorithm == WorkloadAlgorithm::RING ||
               algorithm == WorkloadAlgorithm::HALVING_DOUBLING ||
               algorithm == WorkloadAlgorithm::TREE;
    case WorkloadOpType::ALLGATHER:
    case WorkloadOpType::REDUCESCATTER:
        return algorithm == WorkloadAlgorithm::RING ||
               algorithm == WorkloadAlgorithm::HALVING_DOUBLING;
    case WorkloadOpType::ALLTOALL:
        return algorithm == WorkloadAlgorithm::RING || algorithm == WorkloadAlgorithm::DIRECT;
    case WorkloadOpType::BROADCAST:
    case WorkloadOpType::REDUCE:
        return algorithm == WorkloadAlgorithm::RING;
    default:
        return false;
    }
}

/**
 * \param request a valid collective
 * \param n members
 * \return the algorithm to run: the one asked for, or Choose()'s when none is
 */
/**
 * \param request a collective
 * \return true if the planner chooses the algorithm (AUTO or UNSPECIFIED)
 */
bool
IsAutomatic(const CollectiveRequest& request)
{
    return request.algorithm == WorkloadAlgorithm::AUTO ||
           request.algorithm == WorkloadAlgorithm::UNSPECIFIED;
}

/**
 * \param request a valid collective
 * \return true if it is planned as ring-relay: an alltoall on optical rails left to the
 *         planner (an explicit RING stays pairwise)
 */
bool
IsRingRelay(const CollectiveRequest& request)
{
    return request.type == WorkloadOpType::ALLTOALL && request.optical && IsAutomatic(request);
}

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
    Grid grid;
    bool ringType = request.type == WorkloadOpType::ALLREDUCE ||
                    request.type == WorkloadOpType::ALLGATHER ||
                    request.type == WorkloadOpType::REDUCESCATTER;
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
    const Grid* rings = plan.hierarchical ? &grid : nullptr;
    switch (request.type)
    {
    case WorkloadOpType::ALLREDUCE:
    case WorkloadOpType::ALLGATHER:
    case WorkloadOpType::REDUCESCATTER:
        if (plan.algorithm == WorkloadAlgorithm::HALVING_DOUBLING)
        {
            HalvingDoubling(b, request, group);
        }
        else if (plan.algorithm == WorkloadAlgorithm::TREE)
        {
            DoubleBinaryTree(b, group, request.bytes);
        }
        else if (request.type == WorkloadOpType::ALLREDUCE)
        {
            RingAllReduce(b, group, rings, request.bytes);
        }
        else if (request.type == WorkloadOpType::ALLGATHER)
        {
            RingAllGatherPlan(b, group, rings, request.bytes);
        }
        else
        {
            RingReduceScatterPlan(b, group, rings, request.bytes);
        }
        break;
    case WorkloadOpType::ALLTOALL:
        if (relay)
        {
            RingRelay(b, group, request.bytes);
        }
        else
        {
            AllToAll(b, group, request.bytes, plan.algorithm == WorkloadAlgorithm::RING);
        }
        break;
    case WorkloadOpType::BROADCAST:
    case WorkloadOpType::REDUCE:
        Chain(b, group, request.bytes, request.type == WorkloadOpType::REDUCE);
        break;
    default:
        Dissemination(b, group);
        break;
    }
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
    if (!Applies(type, algorithm))
    {
        return WorkloadAlgorithmName(algorithm) + " does not apply to " + WorkloadOpTypeName(type);
    }
    if (algorithm == WorkloadAlgorithm::HALVING_DOUBLING && (members & (members - 1)) != 0)
    {
        return "halving-doubling needs a power-of-two group, not " + std::to_string(members) +
               " members";
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

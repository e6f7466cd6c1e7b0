/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-algorithm-registry.h"

#include "ns3/collective-plan-alltoall.h"
#include "ns3/collective-plan-chain.h"
#include "ns3/collective-plan-dissemination.h"
#include "ns3/collective-plan-halving-doubling.h"
#include "ns3/collective-plan-ring.h"
#include "ns3/collective-plan-tree.h"

#include <algorithm>

namespace ns3
{

namespace
{

using namespace plan;

/**
 * \brief RING: the (flat or hierarchical) ring for allreduce, allgather and reducescatter,
 *        pairwise or, left to the planner on optical rails, ring-relay for alltoall, and
 *        the chain for broadcast and reduce.
 * \param b the builder
 * \param request the collective
 * \param group the group
 */
void
PlanRing(Builder& b, const CollectiveRequest& request, const Group& group)
{
    Grid grid;
    const Grid* rings = FindGrid(group, request.gpusPerServer, grid) ? &grid : nullptr;
    switch (request.type)
    {
    case WorkloadOpType::ALLREDUCE:
        RingAllReduce(b, group, rings, request.bytes);
        break;
    case WorkloadOpType::ALLGATHER:
        RingAllGatherPlan(b, group, rings, request.bytes);
        break;
    case WorkloadOpType::REDUCESCATTER:
        RingReduceScatterPlan(b, group, rings, request.bytes);
        break;
    case WorkloadOpType::ALLTOALL:
        if (IsRingRelay(request))
        {
            RingRelay(b, group, request.bytes);
        }
        else
        {
            AllToAll(b, group, request.bytes, true);
        }
        break;
    default:
        Chain(b, group, request.bytes, request.type == WorkloadOpType::REDUCE);
        break;
    }
}

/**
 * \brief DIRECT: every block at once for alltoall; the dissemination barrier (which only
 *        Choose() selects: a barrier takes no explicit algorithm).
 * \param b the builder
 * \param request the collective
 * \param group the group
 */
void
PlanDirect(Builder& b, const CollectiveRequest& request, const Group& group)
{
    if (request.type == WorkloadOpType::BARRIER)
    {
        Dissemination(b, group);
    }
    else
    {
        AllToAll(b, group, request.bytes, false);
    }
}

/// HALVING_DOUBLING: recursive halving and doubling.
void
PlanHalvingDoubling(Builder& b, const CollectiveRequest& request, const Group& group)
{
    HalvingDoubling(b, request, group);
}

/// TREE: the double binary tree.
void
PlanTree(Builder& b, const CollectiveRequest& request, const Group& group)
{
    DoubleBinaryTree(b, group, request.bytes);
}

/// \return empty for a power-of-two group, else why halving-doubling cannot run on it
std::string
PowerOfTwo(uint32_t members)
{
    if ((members & (members - 1)) != 0)
    {
        return "halving-doubling needs a power-of-two group, not " + std::to_string(members) +
               " members";
    }
    return "";
}

} // namespace

std::string
CollectiveAlgorithm::Name() const
{
    return WorkloadAlgorithmName(id);
}

bool
CollectiveAlgorithm::Applies(WorkloadOpType type) const
{
    return std::find(types.begin(), types.end(), type) != types.end();
}

const std::vector<CollectiveAlgorithm>&
CollectiveAlgorithmRegistry::All()
{
    using T = WorkloadOpType;
    static const std::vector<CollectiveAlgorithm> algorithms = {
        {WorkloadAlgorithm::RING,
         {T::ALLREDUCE, T::ALLGATHER, T::REDUCESCATTER, T::ALLTOALL, T::BROADCAST, T::REDUCE},
         nullptr,
         PlanRing},
        {WorkloadAlgorithm::DIRECT, {T::ALLTOALL}, nullptr, PlanDirect},
        {WorkloadAlgorithm::HALVING_DOUBLING,
         {T::ALLREDUCE, T::ALLGATHER, T::REDUCESCATTER},
         PowerOfTwo,
         PlanHalvingDoubling},
        {WorkloadAlgorithm::TREE, {T::ALLREDUCE}, nullptr, PlanTree},
    };
    return algorithms;
}

const CollectiveAlgorithm*
CollectiveAlgorithmRegistry::Find(WorkloadAlgorithm id)
{
    for (const CollectiveAlgorithm& algorithm : All())
    {
        if (algorithm.id == id)
        {
            return &algorithm;
        }
    }
    return nullptr;
}

std::string
CollectiveAlgorithmRegistry::Names(const std::string& separator, const std::string& last)
{
    std::string names;
    const std::vector<CollectiveAlgorithm>& all = All();
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        if (i > 0)
        {
            names += i + 1 == all.size() ? last : separator;
        }
        names += all[i].Name();
    }
    return names;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_RING_H
#define COLLECTIVE_PLAN_RING_H

#include "ns3/collective-plan-builder.h"

namespace ns3
{
namespace plan
{

/**
 * \brief A regular grid of servers x local GPU indices, when the group is one.
 */
struct Grid
{
    std::vector<uint32_t> servers; //!< Servers of the group, ascending
    std::vector<uint32_t> locals;  //!< Local GPU indices every server holds, ascending
    uint32_t server{0};            //!< Position of the asking rank's server in servers
    uint32_t local{0};             //!< Position of the asking rank's local index in locals
    uint32_t gpusPerServer{1};     //!< Rank r is local index r % this of server r / this

    /// \return the members of the asking rank's server, by local index
    Ring Intra() const
    {
        Ring ring{{}, local};
        for (uint32_t l : locals)
        {
            ring.ranks.push_back(servers[server] * gpusPerServer + l);
        }
        return ring;
    }

    /// \return the members with the asking rank's local index (its rail), by server
    Ring Inter() const
    {
        Ring ring{{}, server};
        for (uint32_t s : servers)
        {
            ring.ranks.push_back(s * gpusPerServer + locals[local]);
        }
        return ring;
    }
};

/**
 * \param group the group
 * \param gpusPerServer GPUs of a server
 * \param grid receives the grid
 * \return true if the group spans >= 2 servers that all hold the same >= 2 local indices
 */
bool FindGrid(const Group& group, uint32_t gpusPerServer, Grid& grid);

/// Ring allreduce, flat (grid nullptr) or through the scale-up domains ("ring",
/// "hierarchical-ring").
void RingAllReduce(Builder& b, const Group& group, const Grid* grid, uint64_t bytes);

/// Ring allgather of a shard, flat (grid nullptr) or through the scale-up domains.
void RingAllGatherPlan(Builder& b, const Group& group, const Grid* grid, uint64_t bytes);

/// Ring reducescatter, flat (grid nullptr) or through the scale-up domains.
void RingReduceScatterPlan(Builder& b, const Group& group, const Grid* grid, uint64_t bytes);

} // namespace plan
} // namespace ns3

#endif /* COLLECTIVE_PLAN_RING_H */

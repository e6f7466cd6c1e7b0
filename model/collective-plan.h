/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_H
#define COLLECTIVE_PLAN_H

#include "ns3/workload-dag.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One step of a rank's part in a collective: send, receive or reduce a block.
 *
 * A task starts when every task in deps finished. A SEND hands bytes to the transport
 * for peer and finishes when they are acknowledged; a RECV finishes when the matching
 * message from peer has arrived; a REDUCE takes bytes / reduction bandwidth.
 * Matching is by order: the k-th SEND to rank b in rank a's plan (in task order) is the
 * k-th RECV from rank a in rank b's plan, and both carry the same bytes.
 */
struct CollectiveTask
{
    enum Kind : uint8_t
    {
        SEND,
        RECV,
        REDUCE,
    };

    Kind kind{SEND};            //!< What the task does
    uint32_t peer{0};           //!< SEND/RECV: the other global rank
    uint64_t bytes{0};          //!< Bytes sent, received or reduced (at least 1 for SEND/RECV)
    std::vector<uint32_t> deps; //!< Indices (in the plan) of tasks that must finish first
};

/**
 * \ingroup photonic-rails
 * \brief What a rank asks the planner for.
 */
struct CollectiveRequest
{
    WorkloadOpType type{WorkloadOpType::ALLREDUCE}; //!< A collective (not compute/send/recv)
    std::vector<uint32_t> members;                  //!< Global ranks, in group order
    uint32_t rank{0};                               //!< The asking rank (a member)
    uint32_t root{0};                               //!< Broadcast/reduce: root global rank
    uint64_t bytes{0};                              //!< Per-rank buffer (NCCL convention)
    WorkloadAlgorithm algorithm{WorkloadAlgorithm::AUTO}; //!< UNSPECIFIED means AUTO
    uint32_t gpusPerServer{8};                            //!< Rank r is on server r / this
    bool optical{false};        //!< Rails are circuits: prefer few peers per rank
    uint32_t channels{2};       //!< Independent rings/trees the data is split over
    uint64_t chunkBytes{1 << 19}; //!< Pipelining unit inside a channel
};

/**
 * \ingroup photonic-rails
 * \brief A rank's part in one collective, and the algorithm that produced it.
 */
struct CollectivePlan
{
    WorkloadAlgorithm algorithm{WorkloadAlgorithm::RING}; //!< Algorithm actually used
    bool hierarchical{false};          //!< Decomposed through the scale-up domains
    std::vector<CollectiveTask> tasks; //!< In an order where deps point backwards
};

/**
 * \ingroup photonic-rails
 * \brief Turns collectives into per-rank send/receive/reduce plans (pure logic).
 *
 * Every rank of the group calls Plan() with the same request except rank; the plans
 * match (see CollectiveTask) and complete without deadlock. Throws std::invalid_argument
 * with a one-line reason when the request cannot be planned (e.g. halving-doubling on a
 * group whose size is not a power of two).
 */
class CollectivePlanner
{
  public:
    /**
     * \brief Plans the asking rank's part.
     * \param request the collective
     * \return the plan
     */
    static CollectivePlan Plan(const CollectiveRequest& request);

    /**
     * \brief The algorithm AUTO resolves to.
     * \param request the collective
     * \return RING, DIRECT, HALVING_DOUBLING or TREE
     */
    static WorkloadAlgorithm Choose(const CollectiveRequest& request);
};

} // namespace ns3

#endif /* COLLECTIVE_PLAN_H */

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
    WorkloadOpType type{WorkloadOpType::ALLREDUCE};       //!< A collective (not compute/send/recv)
    std::vector<uint32_t> members;                        //!< Global ranks, in group order
    uint32_t rank{0};                                     //!< The asking rank (a member)
    uint32_t root{0};                                     //!< Broadcast/reduce: root global rank
    uint64_t bytes{0};                                    //!< Per-rank buffer (NCCL convention)
    WorkloadAlgorithm algorithm{WorkloadAlgorithm::AUTO}; //!< UNSPECIFIED means AUTO
    uint32_t gpusPerServer{8};                            //!< Rank r is on server r / this
    bool optical{false};          //!< Rails are circuits: prefer few peers per rank
    uint32_t channels{2};         //!< Independent rings/trees the data is split over
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
    /// Exact algorithm for reports: "ring", "hierarchical-ring", "pairwise", "ring-relay",
    /// "direct", "halving-doubling", "double-binary-tree", "chain" or "dissemination"
    std::string name;
    uint32_t channels{0};   //!< The request's channels (steps use min(channels, bytes))
    uint64_t chunkBytes{0}; //!< The request's pipelining chunk
    bool aggregated{false}; //!< Steps merged per peer (CollectivePlanner::AggregateSteps)
};

/**
 * \ingroup photonic-rails
 * \brief Turns collectives into per-rank send/receive/reduce plans (pure logic).
 *
 * Every rank of the group calls Plan() with the same request except rank; the plans
 * match (see CollectiveTask) and complete without deadlock. Throws std::invalid_argument
 * with a one-line reason when the request cannot be planned: a type that is not a
 * collective, no members, a duplicate member, a rank or root that is not a member, zero
 * channels, chunkBytes or gpusPerServer, an algorithm that does not apply to the type
 * (below), or halving-doubling on a group whose size is not a power of two. An explicit
 * algorithm is never replaced by another one; only AUTO and UNSPECIFIED choose. A group of
 * one member gets an empty plan (still named, and still validated).
 *
 * \par Conventions and algorithms
 * Blocks, channels, chunks and dependencies follow the conventions in
 * collective-plan-builder.h (members sorted by global rank form the ring order; output
 * blocks belong to members in group order; every message has bytes >= 1). Each algorithm
 * family lives in its own file, whose opening comment derives its steps and bytes:
 * - collective-plan-ring.cc: "ring" and "hierarchical-ring" (RING: allreduce, allgather,
 *   reducescatter; both ways round on optical rails);
 * - collective-plan-alltoall.cc: "direct" (DIRECT), "pairwise" (RING) and "ring-relay" (the
 *   RING that AUTO or UNSPECIFIED chooses on optical rails) for alltoall;
 * - collective-plan-halving-doubling.cc: "halving-doubling" (HALVING_DOUBLING);
 * - collective-plan-tree.cc: "double-binary-tree" (TREE, allreduce);
 * - collective-plan-chain.cc: "chain" (RING) for broadcast and reduce;
 * - collective-plan-dissemination.cc: "dissemination" (DIRECT) for barrier.
 *
 * \par Which algorithm applies
 * allreduce: RING, HALVING_DOUBLING, TREE. allgather, reducescatter: RING,
 * HALVING_DOUBLING. alltoall: RING (pairwise; ring-relay only when AUTO or UNSPECIFIED
 * chooses it on optical rails), DIRECT. broadcast, reduce: RING. barrier: AUTO or
 * UNSPECIFIED only. See Choose() for AUTO.
 */
class CollectivePlanner
{
  public:
    /// Most tasks one rank's plan may hold: Plan() throws std::invalid_argument beyond it
    /// (2^20 tasks, about 80 MB; a 1 TiB allreduce in 512 KiB chunks would need millions).
    static constexpr uint64_t MAX_TASKS = uint64_t(1) << 20;

    /**
     * \brief Plans the asking rank's part.
     * \param request the collective
     * \return the plan
     */
    static CollectivePlan Plan(const CollectiveRequest& request);

    /**
     * \brief Whether AggregateSteps applies to a plan: a flat "ring" (one or both ways).
     *
     * Its members talk only to their ring neighbours, every step's chunks flow on once they
     * arrive, so the links stay busy from the first step to the last and the steps can be
     * merged. Other algorithms change peers or wait between rounds; a hierarchical ring
     * pipelines between stages on different links.
     * \param plan a plan from Plan()
     * \return true for a flat ring
     */
    static bool CanAggregate(const CollectivePlan& plan);

    /**
     * \brief Merges a plan's steps: one SEND and one RECV per peer with the bytes of all the
     *        plan's SENDs to it and RECVs from it, and, if the plan reduces, one REDUCE of all
     *        its bytes after the RECVs. Nothing waits for anything else, so the caller must
     *        start the members together and finish them together (CollectiveCommunicator's
     *        AggregateRings does). Peers come in ascending order, SENDs first, so every
     *        member's k-th SEND to a peer is that peer's k-th RECV from it (k = 0).
     * \param plan a plan CanAggregate() accepts
     * \return the merged plan (aggregated = true; name, algorithm, channels, chunk kept)
     */
    static CollectivePlan AggregateSteps(const CollectivePlan& plan);

    /**
     * \brief The algorithm AUTO resolves to (request.algorithm is ignored).
     *
     * Optical rails give a rank few peers per port at a time, so a rank should talk to
     * few peers at once: RING for every type, so that only ring neighbours talk. For
     * alltoall, Plan() runs the RING that AUTO or UNSPECIFIED resolves to as ring-relay
     * (blocks relayed along the ring: two peers whatever n, so one circuit configuration
     * fits P = 2 ports), while an explicit RING keeps the pairwise exchange (n-1 peers,
     * which Opus rejects when they exceed the ports) for DAGs that name it.
     * Electrical rails switch packets to any peer: alltoall uses DIRECT; the others RING,
     * as on optical rails, so the two kinds of rails run the same algorithm wherever both
     * can. Allreduce stays RING whatever its size because it is the cheapest in this
     * simulator: the double binary tree (TREE) wins only below about 16 KiB (8-16 ranks,
     * a few microseconds; no NCCL LL/LL128 protocol or kernel launch latency is modelled)
     * and is 27-100% slower from 256 KiB on (its incast at inner nodes meets DCQCN);
     * halving-doubling matches the ring from 256 KiB on (table in the module docs).
     * Barrier always resolves to DIRECT (dissemination).
     *
     * \param request the collective (type, members, bytes, optical are read)
     * \return RING, DIRECT or TREE (RING for an optical alltoall: ring-relay)
     */
    static WorkloadAlgorithm Choose(const CollectiveRequest& request);

    /**
     * \brief Whether Plan() accepts an algorithm for a collective: the one place that says
     *        which algorithm applies to which type (see above), that halving-doubling needs
     *        a power-of-two group and that a barrier takes no explicit algorithm. The DAG
     *        validator calls it too, so that a file it accepts is never refused here.
     * \param type the collective
     * \param algorithm the requested algorithm (AUTO and UNSPECIFIED always pass)
     * \param members the group size
     * \return empty if accepted, else the one-line reason
     */
    static std::string CheckAlgorithm(WorkloadOpType type,
                                      WorkloadAlgorithm algorithm,
                                      uint32_t members);
};

} // namespace ns3

#endif /* COLLECTIVE_PLAN_H */

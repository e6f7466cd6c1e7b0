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
 * \par Conventions
 * - n members; the ring order (and every index below) is the members sorted by global
 *   rank, so ring neighbours on one server talk through its scale-up domain.
 * - Where output blocks belong to members (reducescatter, alltoall), the member at
 *   position g of request.members (group order, as in NCCL) owns the g-th of n blocks
 *   of the buffer, whose sizes are bytes / n plus one for the first bytes % n blocks.
 *   Internal blocks (allreduce shards) follow the sorted order instead.
 * - The data a step moves is split over min(channels, its bytes) channels (remainder to
 *   the first channels) and each channel's share into ceil(share / chunkBytes) chunks of
 *   equal size (remainder to the first chunks); every chunk is one SEND/RECV (pairwise
 *   and halving-doubling cut strands instead, see below). Byte sums
 *   are exact except that a block of 0 bytes still travels as one 1-byte message (it
 *   keeps the collective's synchronisation and every message has bytes >= 1).
 * - A chunk's next step depends only on the same chunk's previous step (pipelining as in
 *   NCCL); between stages of a hierarchical ring a chunk waits for the tasks that
 *   produced the bytes it carries. RECVs have no deps: data arrives eagerly, and the
 *   task consuming it (SEND or REDUCE) waits for the RECV. A REDUCE has the bytes of the
 *   message it folds in and also waits for whatever produced the local operand.
 *
 * \par Algorithms (name in CollectivePlan::name)
 * - "ring" (RING), per rank: allgather n-1 steps, step s sends the block received at
 *   step s-1 (step 0: its own S) to the next member: sends (n-1)S. Reducescatter: n-1
 *   steps, step s sends block (me-s-1) mod n and receives and REDUCEs block (me-s-2)
 *   mod n, which step s+1 forwards; the member ends with its own block: sends
 *   S - block(me) = (n-1)S/n. Allreduce: that reducescatter on n blocks of S/n (sorted
 *   order), then that allgather of the reduced blocks, each chunk of it waiting for the
 *   final REDUCE of the same chunk: sends 2(n-1)S/n.
 * - On optical rails (request.optical) every ring that crosses servers (the flat ring when
 *   two of its neighbours are on different servers, i.e. its members are not all on one
 *   server; the inter rings of the hierarchical one) runs both ways: the first half of every
 *   block on the ring, the second half on the reversed ring, so a GPU's two NIC ports
 *   towards its two ring neighbours both carry data in both directions. Same bytes per
 *   rank, half to each neighbour; rings of two, blocks under 2 bytes and rings inside one
 *   server (they never reach a rail, so their plan is the electrical rails' one) run one way.
 * - "hierarchical-ring" (RING, hierarchical = true) instead of "ring", for allreduce,
 *   allgather and reducescatter when RING is asked for or chosen and the group is a
 *   regular grid: k >= 2 servers, each holding the same set of m >= 2 local GPU indices
 *   (rank % gpusPerServer), so n = m k. The intra rings are the m members of a server,
 *   the inter rings the k members with the same local index (one rail):
 *   - allreduce: intra ring reducescatter of S on m blocks, inter ring allreduce of the
 *     member's S/m block, intra ring allgather of the m blocks; sends 2(m-1)S/m intra +
 *     2(k-1)S/(mk) inter = 2(n-1)S/n.
 *   - allgather: inter ring allgather of the S shards (each member then holds the k
 *     shards of its local index), intra ring allgather of those k S bytes; sends
 *     (k-1)S inter + (m-1)kS intra = (n-1)S.
 *   - reducescatter: intra ring reducescatter of S on m super-blocks (super-block l =
 *     the k output blocks of the members with local index l), inter ring reducescatter
 *     of the member's super-block on those k blocks; sends (m-1)S/m intra + (k-1)S/n
 *     inter = (n-1)S/n.
 * - alltoall: "direct" (DIRECT) sends every other member its block at once and receives
 *   one from each; "pairwise" (RING) runs n-1 rounds, round i sends to member
 *   (me+i) mod n and receives from (me-i) mod n. The blocks are cut into P strands,
 *   strand c holding the c-th of P near-equal parts of every block (P = the chunk split
 *   of the largest block, at most the smallest block's bytes so no part is empty); a
 *   strand's SEND of round i waits for its SEND and RECV of round i-1. Both send
 *   S - block(me) = (n-1)S/n.
 * - "ring-relay" (RING), the alltoall AUTO and UNSPECIFIED plan on optical rails (an
 *   explicit RING stays "pairwise"): a member talks only to its two ring neighbours, so
 *   one circuit configuration, the ring, serves the alltoall whatever n (pairwise needs
 *   circuits to n-1 peers, more than P ports once a rail's members span more than P+1
 *   servers). The block for the member at ring distance k (clockwise = towards the next
 *   member) travels min(k, n-k) hops the shorter way: clockwise for k <= (n-1)/2,
 *   counter-clockwise for k > n/2. For even n the block at k = n/2 is cut in halves, the
 *   first clockwise and the second counter-clockwise, so both ways carry the same load
 *   (whole clockwise when n = 2, both ways leading to the one peer, or when the block is
 *   under 2 bytes). A member keeps the parts addressed to it and passes the others on the
 *   same way: every chunk passed on is a RECV then a SEND waiting for that RECV only (own
 *   parts wait for nothing). On each link a member lists its own parts farthest first,
 *   then what it passes on (by hop, then farthest first; this is the matching order): the
 *   parts it must pass on arrive before its own run out, so its ports never idle, and
 *   the last bytes on a link are ones the receiver keeps.
 *   Members of one server are ring neighbours and talk through its scale-up domain, so
 *   no hierarchical decomposition is needed (hierarchical stays false).
 *   Bytes: with blocks of B = S/n, a part going k hops is sent k times, once by each
 *   member from its origin on, and every member is the origin of one part per distance;
 *   so a member sends one way B times the sum of the distances going that way, the n/2
 *   middle counting half:
 *   - odd n, h = (n-1)/2: B(1 + ... + h) = S(n^2-1)/(8n) each way, S(n^2-1)/(4n) in all
 *     (n = 3: 2S/3, n = 5: 6S/5, n = 7: 12S/7);
 *   - even n >= 4: B(1 + ... + (n/2-1) + n/4) = Sn/8 each way, Sn/4 in all (n = 4: S,
 *     n = 6: 3S/2, n = 8: 2S);
 *   - n = 2: S/2, to the other member.
 *   That is (n+1)/4 (odd n) or n^2/(4(n-1)) (even n) times pairwise's (n-1)S/n: the
 *   price of needing no reconfiguration. Time on ring circuits: the busiest port carries
 *   the one-way load, Sn/8 or S(n^2-1)/(8n), at its rate.
 * - "halving-doubling" (HALVING_DOUBLING, n a power of two): the blocks (n of S/n for
 *   allreduce and reducescatter, n of S for allgather) are cut into P strands, strand c
 *   holding the c-th of P near-equal parts of every block; P is the smallest count, at
 *   least the channel/chunk split of the largest exchange (one half of the blocks), for
 *   which no exchange of a strand exceeds chunkBytes, but at most the smallest block's
 *   bytes (no part is empty; so an exchange exceeds chunkBytes only if chunkBytes < n).
 *   Each strand runs the rounds on its own, every round
 *   waiting for the previous round's SEND and RECV (or REDUCE) of that strand.
 *   Reducescatter: recursive halving, round j exchanges the half of the current blocks
 *   not holding me with partner me XOR (n >> (j+1)) and REDUCEs the received half
 *   (S/2, S/4 ... S/n). Allgather: recursive doubling with partners me XOR 1, 2 ...
 *   n/2 (S, 2S ... nS/2). Allreduce: that reducescatter then that allgather, mirrored:
 *   sends 2(n-1)S/n.
 * - "double-binary-tree" (TREE, allreduce only): tree A over the sorted indices, parent
 *   of i is (i-1)/2; tree B the same shape over the mirrored indices (i is at n-1-i),
 *   so most leaves of A are inner nodes of B. Tree A carries the first ceil(S/2) bytes,
 *   tree B the rest. Per chunk: a node RECVs it from each child and REDUCEs it (the
 *   second REDUCE after the first, into one buffer), SENDs the sum to its parent, RECVs
 *   the result from the parent and SENDs it to its children; the root turns the sum
 *   around. A member sends S_t (children + 1) bytes in tree t, S_t children at its
 *   root, and REDUCEs S_t children.
 * - "chain" (RING) for broadcast: a pipelined chain along the ring order from the root;
 *   a member forwards a chunk once it has received it; the root sends S, the last
 *   member 0, the others S. For reduce: the chain starts at the member after the root
 *   and ends at the root; each member RECVs a chunk, REDUCEs it and forwards the sum;
 *   everyone but the root sends S, everyone but the first REDUCEs S.
 * - "dissemination" (DIRECT) for barrier: ceil(log2 n) rounds of 1-byte messages,
 *   round j sends to (me + 2^j) mod n and receives from (me - 2^j) mod n, waiting for
 *   round j-1's SEND and RECV. Barrier takes no explicit algorithm.
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

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * Ring algorithms ("ring", "hierarchical-ring"): allreduce, allgather, reducescatter.
 *
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
 */

#include "collective-plan-ring.h"

#include <algorithm>
#include <map>
#include <set>

namespace ns3
{
namespace plan
{

namespace
{

/**
 * \brief Sends a block's chunks to the next ring member: at step 0 once the tasks that
 *        produced their bytes are done, later each once the task that brought the same
 *        chunk in at the previous step is.
 * \param b the builder
 * \param ring the ring
 * \param block the block
 * \param step the ring step
 * \param carried per chunk, the task of the previous step (unused at step 0)
 */
void
SendToNext(Builder& b,
           const Ring& ring,
           const Range& block,
           uint32_t step,
           const std::vector<uint32_t>& carried)
{
    std::vector<Range> chunks = b.Chunks(block);
    for (std::size_t c = 0; c < chunks.size(); ++c)
    {
        b.Send(ring.Next(),
               MessageBytes(chunks[c].size),
               step == 0 ? b.Producers(chunks[c]) : std::vector<uint32_t>{carried[c]});
    }
}

/**
 * \brief Ring reducescatter: block i ends reduced at ring position i.
 *
 * Step s sends block me-s-1 and receives and reduces block me-s-2 (mod n), which step
 * s+1 forwards chunk by chunk; the local operand of each REDUCE and the chunks of step 0
 * wait for whatever produced those bytes.
 *
 * \param b the builder
 * \param ring the ring
 * \param blocks n blocks, by ring position
 */
void
RingReduceScatter(Builder& b, const Ring& ring, const std::vector<Range>& blocks)
{
    uint32_t n = ring.ranks.size();
    std::vector<uint32_t> partial; // per chunk: the REDUCE whose sum the next step forwards
    for (uint32_t s = 0; s + 1 < n; ++s)
    {
        SendToNext(b, ring, blocks[(ring.me + 2 * n - s - 1) % n], s, partial);
        std::vector<Range> in = b.Chunks(blocks[(ring.me + 2 * n - s - 2) % n]);
        partial.assign(in.size(), 0);
        for (std::size_t c = 0; c < in.size(); ++c)
        {
            uint64_t bytes = MessageBytes(in[c].size);
            std::vector<uint32_t> deps = b.Producers(in[c]);
            deps.push_back(b.Recv(ring.Prev(), bytes));
            partial[c] = b.Reduce(bytes, deps);
        }
    }
    // The last step received the asking rank's own block: its sums are final.
    std::vector<Range> own = b.Chunks(blocks[ring.me]);
    for (std::size_t c = 0; n > 1 && c < own.size(); ++c)
    {
        b.Produced(own[c], partial[c]);
    }
}

/**
 * \brief Ring allgather: block i starts at ring position i and reaches every position.
 *
 * Step s sends block me-s (mod n), step 0 the rank's own block once its producers are
 * done, later steps a chunk as soon as the previous step received it.
 *
 * \param b the builder
 * \param ring the ring
 * \param blocks n blocks, by ring position
 */
void
RingAllGather(Builder& b, const Ring& ring, const std::vector<Range>& blocks)
{
    uint32_t n = ring.ranks.size();
    std::vector<uint32_t> received; // per chunk: the RECV the next step forwards
    for (uint32_t s = 0; s + 1 < n; ++s)
    {
        SendToNext(b, ring, blocks[(ring.me + n - s) % n], s, received);
        std::vector<Range> in = b.Chunks(blocks[(ring.me + 2 * n - s - 1) % n]);
        received.assign(in.size(), 0);
        for (std::size_t c = 0; c < in.size(); ++c)
        {
            received[c] = b.Recv(ring.Prev(), MessageBytes(in[c].size));
            b.Produced(in[c], received[c]);
        }
    }
}

/// A ring algorithm: RingReduceScatter or RingAllGather.
using RingAlgorithm = void (*)(Builder&, const Ring&, const std::vector<Range>&);

/**
 * \brief Runs a ring algorithm on a ring that crosses rails: on optical rails, half of every
 *        block goes each way round.
 *
 * On an optical rail a GPU reaches its two ring neighbours through two NIC ports, each with
 * a duplex circuit; a one-way ring would leave the port towards the previous member idle in
 * the sending direction. Running the first half of every block on the ring and the second
 * half on the reversed ring keeps both ports busy both ways (NCCL reaches the same with
 * channels on different NICs). Rings of two, blocks under 2 bytes, electrical rails
 * (full-duplex ports that a one-way ring already fills) and rings inside one server (no hop
 * reaches a rail: the scale-up domain runs them as on electrical rails) run one way.
 *
 * \param b the builder
 * \param ring the ring
 * \param blocks n blocks, by ring position
 * \param run the algorithm
 */
void
RailRing(Builder& b, const Ring& ring, const std::vector<Range>& blocks, RingAlgorithm run)
{
    uint32_t n = ring.ranks.size();
    bool split =
        b.BothWays() && n > 2 && b.CrossesServers(ring) &&
        std::all_of(blocks.begin(), blocks.end(), [](const Range& r) { return r.size >= 2; });
    if (!split)
    {
        run(b, ring, blocks);
        return;
    }
    std::vector<Range> forward;
    std::vector<Range> backward(n);
    for (uint32_t p = 0; p < n; ++p)
    {
        uint64_t first = blocks[p].size - blocks[p].size / 2;
        forward.push_back({blocks[p].begin, first});
        // Position p of the ring is position n-1-p of the reversed ring.
        backward[n - 1 - p] = {blocks[p].begin + first, blocks[p].size - first};
    }
    Ring reversed{std::vector<uint32_t>(ring.ranks.rbegin(), ring.ranks.rend()), n - 1 - ring.me};
    run(b, ring, forward);
    run(b, reversed, backward);
}

} // namespace

/**
 * \param group the group
 * \param gpusPerServer GPUs of a server
 * \param grid receives the grid
 * \return true if the group spans >= 2 servers that all hold the same >= 2 local indices
 */
bool
FindGrid(const Group& group, uint32_t gpusPerServer, Grid& grid)
{
    std::map<uint32_t, std::set<uint32_t>> locals; // server -> local indices
    for (uint32_t rank : group.ranks)
    {
        locals[rank / gpusPerServer].insert(rank % gpusPerServer);
    }
    const std::set<uint32_t>& first = locals.begin()->second;
    if (locals.size() < 2 || first.size() < 2)
    {
        return false;
    }
    for (const auto& [server, indices] : locals)
    {
        if (indices != first)
        {
            return false;
        }
        grid.servers.push_back(server);
    }
    grid.locals.assign(first.begin(), first.end());
    uint32_t rank = group.ranks[group.me];
    grid.gpusPerServer = gpusPerServer;
    grid.server = std::lower_bound(grid.servers.begin(), grid.servers.end(), rank / gpusPerServer) -
                  grid.servers.begin();
    grid.local = std::lower_bound(grid.locals.begin(), grid.locals.end(), rank % gpusPerServer) -
                 grid.locals.begin();
    return true;
}

/**
 * \brief Ring allreduce, flat or through the scale-up domains (see the class doc).
 * \param b the builder
 * \param group the group
 * \param grid the grid, or nullptr for a flat ring
 * \param bytes the buffer
 */
void
RingAllReduce(Builder& b, const Group& group, const Grid* grid, uint64_t bytes)
{
    if (grid == nullptr)
    {
        std::vector<Range> blocks = Contiguous(EvenSizes(bytes, group.Size()));
        RailRing(b, FlatRing(group), blocks, RingReduceScatter);
        RailRing(b, FlatRing(group), blocks, RingAllGather);
        return;
    }
    std::vector<Range> intra = Contiguous(EvenSizes(bytes, grid->locals.size()));
    const Range& shard = intra[grid->local];
    std::vector<Range> inter = Contiguous(EvenSizes(shard.size, grid->servers.size()));
    for (auto& block : inter)
    {
        block.begin += shard.begin;
    }
    RingReduceScatter(b, grid->Intra(), intra);
    RailRing(b, grid->Inter(), inter, RingReduceScatter);
    RailRing(b, grid->Inter(), inter, RingAllGather);
    RingAllGather(b, grid->Intra(), intra);
}

/**
 * \brief Ring allgather, flat or through the scale-up domains.
 *
 * Hierarchical layout: the shard of the member with local index l on server j lies at
 * (l k + j) S, so the k shards one rail gathers form a contiguous super-block.
 *
 * \param b the builder
 * \param group the group
 * \param grid the grid, or nullptr for a flat ring
 * \param bytes the shard
 */
void
RingAllGatherPlan(Builder& b, const Group& group, const Grid* grid, uint64_t bytes)
{
    if (grid == nullptr)
    {
        std::vector<Range> blocks;
        for (uint32_t g : group.groupIndex)
        {
            blocks.push_back({g * bytes, bytes});
        }
        RailRing(b, FlatRing(group), blocks, RingAllGather);
        return;
    }
    uint64_t k = grid->servers.size();
    std::vector<Range> inter;
    for (uint64_t j = 0; j < k; ++j)
    {
        inter.push_back({(grid->local * k + j) * bytes, bytes});
    }
    std::vector<Range> intra;
    for (uint64_t l = 0; l < grid->locals.size(); ++l)
    {
        intra.push_back({l * k * bytes, k * bytes});
    }
    RailRing(b, grid->Inter(), inter, RingAllGather);
    RingAllGather(b, grid->Intra(), intra);
}

/**
 * \brief Ring reducescatter, flat or through the scale-up domains.
 *
 * Hierarchical layout: super-block l holds the output blocks of the members with local
 * index l, by server; the intra ring reduces super-blocks, the inter ring their blocks.
 *
 * \param b the builder
 * \param group the group
 * \param grid the grid, or nullptr for a flat ring
 * \param bytes the input buffer
 */
void
RingReduceScatterPlan(Builder& b, const Group& group, const Grid* grid, uint64_t bytes)
{
    std::vector<uint64_t> owned = group.OwnedSizes(bytes);
    if (grid == nullptr)
    {
        RailRing(b, FlatRing(group), Contiguous(owned), RingReduceScatter);
        return;
    }
    uint32_t k = grid->servers.size();
    uint32_t m = grid->locals.size();
    std::vector<Range> intra;
    std::vector<Range> inter;
    uint64_t at = 0;
    for (uint32_t l = 0; l < m; ++l)
    {
        intra.push_back({at, 0});
        for (uint32_t j = 0; j < k; ++j)
        {
            // Sorted position of the member (server j, local l) of a regular grid.
            uint64_t size = owned[j * m + l];
            if (l == grid->local)
            {
                inter.push_back({at, size});
            }
            intra.back().size += size;
            at += size;
        }
    }
    RingReduceScatter(b, grid->Intra(), intra);
    RailRing(b, grid->Inter(), inter, RingReduceScatter);
}

} // namespace plan
} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-plan.h"

#include "ns3/log.h"
#include "ns3/rail-topology.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectivePlan");

namespace
{

/// A byte range of the asking rank's buffer, in coordinates one plan keeps throughout.
struct Range
{
    uint64_t begin{0}; //!< First byte
    uint64_t size{0};  //!< Bytes (0 for a block that is empty)
};

/// Thrown for every request that cannot be planned; the reason is one line.
[[noreturn]] void
Reject(const std::string& reason)
{
    throw std::invalid_argument("collective plan: " + reason);
}

/**
 * \param size bytes of a block or part of one
 * \return the bytes the message carrying it has: an empty block still travels as 1 byte,
 *         so that it keeps the collective's synchronisation and no message is empty
 */
uint64_t
MessageBytes(uint64_t size)
{
    return std::max<uint64_t>(size, 1);
}

/**
 * \param total bytes to split
 * \param parts number of near-equal parts (>= 1)
 * \param i a part
 * \return the size of part i; the first total % parts parts take one byte more
 */
uint64_t
PartSize(uint64_t total, uint64_t parts, uint64_t i)
{
    return total / parts + (i < total % parts ? 1 : 0);
}

/**
 * \param value a value
 * \param unit a unit (>= 1)
 * \return ceil(value / unit), without the overflow of (value + unit - 1) / unit
 */
uint64_t
CeilDiv(uint64_t value, uint64_t unit)
{
    return value / unit + (value % unit != 0 ? 1 : 0);
}

/**
 * \param sizes block sizes
 * \return the blocks laid out one after the other from byte 0
 */
std::vector<Range>
Contiguous(const std::vector<uint64_t>& sizes)
{
    std::vector<Range> blocks;
    uint64_t at = 0;
    for (uint64_t size : sizes)
    {
        blocks.push_back({at, size});
        at += size;
    }
    return blocks;
}

/**
 * \param total bytes to split
 * \param parts number of blocks
 * \return parts near-equal block sizes
 */
std::vector<uint64_t>
EvenSizes(uint64_t total, uint32_t parts)
{
    std::vector<uint64_t> sizes;
    for (uint32_t i = 0; i < parts; ++i)
    {
        sizes.push_back(PartSize(total, parts, i));
    }
    return sizes;
}

/**
 * \brief The group in ring order, and where the asking rank and the root stand in it.
 *
 * Validates the request: the reasons it can be rejected before any algorithm is looked at.
 */
struct Group
{
    std::vector<uint32_t> ranks;      //!< Members sorted by global rank (the ring order)
    std::vector<uint32_t> groupIndex; //!< By sorted position: position in request.members
    uint32_t me{0};                   //!< Sorted position of the asking rank
    uint32_t root{0};                 //!< Sorted position of the root (broadcast, reduce)

    explicit Group(const CollectiveRequest& request);

    /// \return the number of members
    uint32_t Size() const
    {
        return ranks.size();
    }

    /**
     * \brief Sizes of the n output blocks of a buffer, by sorted position: the member at
     *        position g of request.members owns the g-th block (NCCL's group order).
     * \param total the buffer
     * \return n sizes
     */
    std::vector<uint64_t> OwnedSizes(uint64_t total) const
    {
        std::vector<uint64_t> sizes;
        for (uint32_t g : groupIndex)
        {
            sizes.push_back(PartSize(total, Size(), g));
        }
        return sizes;
    }
};

Group::Group(const CollectiveRequest& request)
{
    if (!IsWorkloadCollective(request.type))
    {
        Reject(WorkloadOpTypeName(request.type) + " is not a collective");
    }
    if (request.gpusPerServer == 0 || request.channels == 0 || request.chunkBytes == 0)
    {
        Reject("gpusPerServer, channels and chunkBytes must be >= 1");
    }
    if (request.members.empty())
    {
        Reject("the group has no members");
    }
    std::map<uint32_t, uint32_t> position; // global rank -> group position
    for (uint32_t g = 0; g < request.members.size(); ++g)
    {
        if (!position.emplace(request.members[g], g).second)
        {
            Reject("rank " + std::to_string(request.members[g]) + " is twice in the group");
        }
    }
    for (const auto& [rank, g] : position)
    {
        ranks.push_back(rank);
        groupIndex.push_back(g);
    }
    auto find = [this](uint32_t rank, const std::string& who) {
        auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
        if (it == ranks.end() || *it != rank)
        {
            Reject(who + " " + std::to_string(rank) + " is not a member of the group");
        }
        return static_cast<uint32_t>(it - ranks.begin());
    };
    me = find(request.rank, "rank");
    if (request.type == WorkloadOpType::BROADCAST || request.type == WorkloadOpType::REDUCE)
    {
        root = find(request.root, "root");
    }
}

struct Ring;

/**
 * \brief Appends one rank's tasks, splits blocks into chunks and remembers which task
 *        produced which bytes of the rank's buffer.
 */
class Builder
{
  public:
    /**
     * \param request the collective (channels and chunkBytes are read)
     * \param tasks receives the tasks
     */
    Builder(const CollectiveRequest& request, std::vector<CollectiveTask>& tasks)
        : m_channels(request.channels),
          m_chunkBytes(request.chunkBytes),
          m_bothWays(request.optical),
          m_gpusPerServer(request.gpusPerServer),
          m_tasks(tasks)
    {
    }

    /**
     * \param peer global rank
     * \param bytes message bytes
     * \param deps tasks to wait for
     * \return the task's index
     */
    uint32_t Send(uint32_t peer, uint64_t bytes, std::vector<uint32_t> deps)
    {
        return Add(CollectiveTask::SEND, peer, bytes, std::move(deps));
    }

    /**
     * \param peer global rank
     * \param bytes message bytes
     * \return the task's index (RECVs wait for nothing: data arrives eagerly)
     */
    uint32_t Recv(uint32_t peer, uint64_t bytes)
    {
        return Add(CollectiveTask::RECV, peer, bytes, {});
    }

    /**
     * \param bytes bytes folded in
     * \param deps tasks to wait for
     * \return the task's index
     */
    uint32_t Reduce(uint64_t bytes, std::vector<uint32_t> deps)
    {
        return Add(CollectiveTask::REDUCE, 0, bytes, std::move(deps));
    }

    /// \return true if rings over rails run both ways (optical rails: see RailRing)
    bool BothWays() const
    {
        return m_bothWays;
    }

    /**
     * \param ring a ring
     * \return true if two of its neighbours sit on different servers: some hop leaves the
     *         scale-up domain (for a ring, the same as: not all members on one server)
     */
    bool CrossesServers(const Ring& ring) const;

    /**
     * \param bytes bytes of a block
     * \return how many chunks Chunks() cuts such a block into
     */
    uint64_t ChunkCount(uint64_t bytes) const
    {
        uint64_t channels = std::min<uint64_t>(m_channels, bytes);
        uint64_t count = 0;
        for (uint64_t c = 0; c < channels; ++c)
        {
            count += CeilDiv(PartSize(bytes, channels, c), m_chunkBytes);
        }
        return std::max<uint64_t>(count, 1);
    }

    /**
     * \brief Splits a block over min(channels, bytes) channels and each channel's share
     *        into equal chunks of at most chunkBytes; an empty block is one empty chunk.
     * \param block the block
     * \return its chunks, in order
     */
    std::vector<Range> Chunks(const Range& block) const
    {
        if (block.size == 0)
        {
            return {block};
        }
        std::vector<Range> chunks;
        uint64_t channels = std::min<uint64_t>(m_channels, block.size);
        uint64_t at = block.begin;
        for (uint64_t c = 0; c < channels; ++c)
        {
            uint64_t share = PartSize(block.size, channels, c);
            uint64_t count = CeilDiv(share, m_chunkBytes);
            for (uint64_t i = 0; i < count; ++i)
            {
                chunks.push_back({at, PartSize(share, count, i)});
                at += chunks.back().size;
            }
        }
        return chunks;
    }

    /**
     * \param range bytes of the buffer
     * \return the tasks that produced them (none for input bytes or an empty range)
     */
    std::vector<uint32_t> Producers(const Range& range) const
    {
        std::vector<uint32_t> tasks;
        uint64_t end = range.begin + range.size;
        auto it = m_producers.upper_bound(range.begin);
        if (it != m_producers.begin() && std::prev(it)->second.first > range.begin)
        {
            --it;
        }
        for (; range.size > 0 && it != m_producers.end() && it->first < end; ++it)
        {
            tasks.push_back(it->second.second);
        }
        return tasks;
    }

    /**
     * \brief Records that task produced range; older producers of those bytes are
     *        forgotten (the task waited for them, directly or not).
     * \param range bytes of the buffer
     * \param task the producing task
     */
    void Produced(const Range& range, uint32_t task)
    {
        if (range.size == 0)
        {
            return;
        }
        uint64_t end = range.begin + range.size;
        auto it = m_producers.lower_bound(range.begin);
        if (it != m_producers.begin())
        {
            auto before = std::prev(it);
            auto [oldEnd, oldTask] = before->second;
            if (oldEnd > range.begin)
            {
                before->second.first = range.begin;
                if (oldEnd > end)
                {
                    m_producers[end] = {oldEnd, oldTask};
                }
            }
        }
        while (it != m_producers.end() && it->first < end)
        {
            auto [oldEnd, oldTask] = it->second;
            it = m_producers.erase(it);
            if (oldEnd > end)
            {
                m_producers[end] = {oldEnd, oldTask};
            }
        }
        m_producers[range.begin] = {end, task};
    }

  private:
    uint32_t Add(CollectiveTask::Kind kind,
                 uint32_t peer,
                 uint64_t bytes,
                 std::vector<uint32_t> deps)
    {
        if (m_tasks.size() >= CollectivePlanner::MAX_TASKS)
        {
            // A plan is kept per shape and rank: bound its memory (about 80 B a task).
            Reject("one rank's plan needs more than " +
                   std::to_string(CollectivePlanner::MAX_TASKS) +
                   " sends, receives and reductions: use larger chunks (ChunkBytes, --chunkKiB) "
                   "or fewer bytes");
        }
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        CollectiveTask task;
        task.kind = kind;
        task.peer = peer;
        task.bytes = bytes;
        task.deps = std::move(deps);
        m_tasks.push_back(std::move(task));
        return m_tasks.size() - 1;
    }

    uint32_t m_channels;
    uint64_t m_chunkBytes;
    bool m_bothWays;
    uint32_t m_gpusPerServer;
    std::vector<CollectiveTask>& m_tasks;
    /// First byte -> (one past the last byte, producing task); uncovered bytes are input
    std::map<uint64_t, std::pair<uint64_t, uint32_t>> m_producers;
};

/// One ring: its global ranks in ring order and the asking rank's position.
struct Ring
{
    std::vector<uint32_t> ranks; //!< Ring order
    uint32_t me{0};              //!< Position of the asking rank

    /// \return the rank the asking rank sends to
    uint32_t Next() const
    {
        return ranks[(me + 1) % ranks.size()];
    }

    /// \return the rank the asking rank receives from
    uint32_t Prev() const
    {
        return ranks[(me + ranks.size() - 1) % ranks.size()];
    }
};

bool
Builder::CrossesServers(const Ring& ring) const
{
    for (std::size_t p = 0; p < ring.ranks.size(); ++p)
    {
        uint32_t next = ring.ranks[(p + 1) % ring.ranks.size()];
        if (!RailTopology(m_gpusPerServer).SameServer(ring.ranks[p], next))
        {
            return true;
        }
    }
    return false;
}

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
 * \param group the group
 * \return the flat ring: every member, sorted
 */
Ring
FlatRing(const Group& group)
{
    return Ring{group.ranks, group.me};
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

/**
 * \brief Blocks cut into strands: strand c holds the c-th of P near-equal parts of every
 *        block, and runs the rounds of a round-based algorithm on its own.
 */
class Strands
{
  public:
    /**
     * \param blocks block sizes, by sorted position
     * \param count P, between 1 and the smallest block (so no part is empty) when that
     *        block is not empty
     */
    Strands(std::vector<uint64_t> blocks, uint64_t count)
        : m_blocks(std::move(blocks)),
          m_count(count)
    {
    }

    /// \return P
    uint64_t Count() const
    {
        return m_count;
    }

    /**
     * \param first first block
     * \param blocks number of blocks
     * \param strand a strand
     * \return the strand's bytes of those blocks
     */
    uint64_t Bytes(uint32_t first, uint32_t blocks, uint64_t strand) const
    {
        uint64_t bytes = 0;
        for (uint32_t i = first; i < first + blocks; ++i)
        {
            bytes += PartSize(m_blocks[i], m_count, strand);
        }
        return bytes;
    }

  private:
    std::vector<uint64_t> m_blocks;
    uint64_t m_count;
};

/**
 * \param blocks block sizes
 * \return the largest part count that leaves no part of a block empty (1 if a block is)
 */
uint64_t
MaxStrands(const std::vector<uint64_t>& blocks)
{
    return std::max<uint64_t>(*std::min_element(blocks.begin(), blocks.end()), 1);
}

/**
 * \brief Strands for halving-doubling: the largest exchange of a strand is one half of
 *        the blocks (the first round of halving, the last of doubling).
 *
 * P starts at the chunk count of the larger half and grows until no strand's share of a
 * half exceeds chunkBytes (parts round up, so the share of a half can exceed its bytes / P
 * by up to one byte per block); it stays at most MaxStrands, so a strand's message can
 * exceed chunkBytes only when chunkBytes is below n.
 *
 * \param b the builder
 * \param blocks block sizes, by sorted position (a power-of-two count >= 2)
 * \param chunkBytes the chunk limit
 * \return the strands
 */
Strands
HalvingDoublingStrands(const Builder& b, const std::vector<uint64_t>& blocks, uint64_t chunkBytes)
{
    uint32_t half = blocks.size() / 2;
    auto sum = [&](uint32_t first, auto part) {
        uint64_t total = 0;
        for (uint32_t i = first; i < first + half; ++i)
        {
            total += part(blocks[i]);
        }
        return total;
    };
    auto fits = [&](uint64_t count) {
        auto part = [count](uint64_t block) { return CeilDiv(block, count); };
        return sum(0, part) <= chunkBytes && sum(half, part) <= chunkBytes;
    };
    auto whole = [](uint64_t block) { return block; };
    uint64_t most = MaxStrands(blocks);
    uint64_t low = std::min(b.ChunkCount(std::max(sum(0, whole), sum(half, whole))), most);
    uint64_t high = most;
    while (low < high) // fits() only turns true as P grows: bisect
    {
        uint64_t mid = low + (high - low) / 2;
        if (fits(mid))
        {
            high = mid;
        }
        else
        {
            low = mid + 1;
        }
    }
    return Strands(blocks, low);
}

/// Per strand: the tasks its next round waits for.
using StrandDeps = std::vector<std::vector<uint32_t>>;

/**
 * \brief Recursive halving: round j exchanges the half of the current blocks without the
 *        asking rank with partner me XOR (n >> (j+1)) and reduces the half it keeps.
 * \param b the builder
 * \param group the group (a power-of-two size)
 * \param strands the blocks, by sorted position
 * \param deps per strand, what the first round waits for; receives what a next round would
 */
void
RecursiveHalving(Builder& b, const Group& group, const Strands& strands, StrandDeps& deps)
{
    uint32_t first = 0;
    for (uint32_t d = group.Size() / 2; d >= 1; d /= 2)
    {
        uint32_t peer = group.ranks[group.me ^ d];
        uint32_t keep = (group.me & d) != 0 ? first + d : first;
        uint32_t give = (group.me & d) != 0 ? first : first + d;
        std::vector<uint32_t> sends;
        for (uint64_t c = 0; c < strands.Count(); ++c)
        {
            sends.push_back(b.Send(peer, MessageBytes(strands.Bytes(give, d, c)), deps[c]));
        }
        for (uint64_t c = 0; c < strands.Count(); ++c)
        {
            uint64_t bytes = MessageBytes(strands.Bytes(keep, d, c));
            deps[c].push_back(b.Recv(peer, bytes));
            deps[c] = {sends[c], b.Reduce(bytes, deps[c])};
        }
        first = keep;
    }
}

/**
 * \brief Recursive doubling: the round with distance d = 1, 2 ... n/2 sends the d blocks
 *        the asking rank holds to partner me XOR d and receives the partner's d blocks.
 * \param b the builder
 * \param group the group (a power-of-two size)
 * \param strands the blocks, by sorted position
 * \param deps per strand, what the first round waits for; receives what a next round would
 */
void
RecursiveDoubling(Builder& b, const Group& group, const Strands& strands, StrandDeps& deps)
{
    uint32_t first = group.me; // the held blocks: d of them, aligned to d
    for (uint32_t d = 1; d < group.Size(); d *= 2)
    {
        uint32_t peer = group.ranks[group.me ^ d];
        std::vector<uint32_t> sends;
        for (uint64_t c = 0; c < strands.Count(); ++c)
        {
            sends.push_back(b.Send(peer, MessageBytes(strands.Bytes(first, d, c)), deps[c]));
        }
        for (uint64_t c = 0; c < strands.Count(); ++c)
        {
            deps[c] = {sends[c], b.Recv(peer, MessageBytes(strands.Bytes(first ^ d, d, c)))};
        }
        first = std::min(first, first ^ d);
    }
}

/**
 * \brief Halving-doubling for allreduce, allgather or reducescatter.
 * \param b the builder
 * \param request the collective
 * \param group the group (a power-of-two size)
 */
void
HalvingDoubling(Builder& b, const CollectiveRequest& request, const Group& group)
{
    std::vector<uint64_t> blocks;
    switch (request.type)
    {
    case WorkloadOpType::ALLGATHER:
        blocks.assign(group.Size(), request.bytes);
        break;
    case WorkloadOpType::REDUCESCATTER:
        blocks = group.OwnedSizes(request.bytes);
        break;
    default:
        blocks = EvenSizes(request.bytes, group.Size());
        break;
    }
    Strands strands = HalvingDoublingStrands(b, blocks, request.chunkBytes);
    StrandDeps deps(strands.Count());
    if (request.type != WorkloadOpType::ALLGATHER)
    {
        RecursiveHalving(b, group, strands, deps);
    }
    if (request.type != WorkloadOpType::REDUCESCATTER)
    {
        RecursiveDoubling(b, group, strands, deps);
    }
}

/**
 * \brief Double binary tree allreduce (see the class doc).
 * \param b the builder
 * \param group the group
 * \param bytes the buffer
 */
void
DoubleBinaryTree(Builder& b, const Group& group, uint64_t bytes)
{
    uint32_t n = group.Size();
    const Range halves[] = {{0, bytes - bytes / 2}, {bytes - bytes / 2, bytes / 2}};
    for (uint32_t tree = 0; tree < 2; ++tree)
    {
        // Tree B puts index i where tree A has n-1-i: A's leaves become B's inner nodes.
        auto rankAt = [&](uint32_t node) { return group.ranks[tree == 0 ? node : n - 1 - node]; };
        uint32_t node = tree == 0 ? group.me : n - 1 - group.me;
        std::vector<uint32_t> children;
        for (uint32_t child = 2 * node + 1; child < n && child <= 2 * node + 2; ++child)
        {
            children.push_back(rankAt(child));
        }
        for (const Range& chunk : b.Chunks(halves[tree]))
        {
            uint64_t size = MessageBytes(chunk.size);
            std::vector<uint32_t> sum; // the last REDUCE into this chunk, if any
            for (uint32_t child : children)
            {
                sum.push_back(b.Recv(child, size));
                sum = {b.Reduce(size, sum)};
            }
            std::vector<uint32_t> result = sum;
            if (node > 0)
            {
                b.Send(rankAt((node - 1) / 2), size, sum);
                result = {b.Recv(rankAt((node - 1) / 2), size)};
            }
            for (uint32_t child : children)
            {
                b.Send(child, size, result);
            }
        }
    }
}

/**
 * \brief Pipelined chain along the ring order: broadcast from the root, or reduce to it.
 * \param b the builder
 * \param group the group
 * \param bytes the buffer
 * \param reduce true to reduce (the chain starts after the root and ends at it)
 */
void
Chain(Builder& b, const Group& group, uint64_t bytes, bool reduce)
{
    uint32_t n = group.Size();
    Ring ring = FlatRing(group);
    uint32_t start = reduce ? (group.root + 1) % n : group.root;
    uint32_t position = (group.me + n - start) % n; // in the chain
    for (const Range& chunk : b.Chunks({0, bytes}))
    {
        uint64_t size = MessageBytes(chunk.size);
        std::vector<uint32_t> have; // what the chunk waits for before it moves on
        if (position > 0)
        {
            have = {b.Recv(ring.Prev(), size)};
            if (reduce)
            {
                have = {b.Reduce(size, have)};
            }
        }
        if (position + 1 < n)
        {
            b.Send(ring.Next(), size, have);
        }
    }
}

/**
 * \brief Alltoall: direct (all at once) or pairwise (one peer a round).
 *
 * Pairwise rounds are cut into strands (P = the chunk count of the largest block) so that
 * a strand's SEND of round i waits only for the same strand's SEND and RECV of round i-1.
 *
 * \param b the builder
 * \param group the group
 * \param bytes the send buffer
 * \param pairwise true for the pairwise exchange
 */
void
AllToAll(Builder& b, const Group& group, uint64_t bytes, bool pairwise)
{
    uint32_t n = group.Size();
    std::vector<uint64_t> owned = group.OwnedSizes(bytes);
    if (!pairwise)
    {
        for (uint32_t i = 1; i < n; ++i)
        {
            uint32_t to = (group.me + i) % n;
            for (const Range& chunk : b.Chunks({0, owned[to]}))
            {
                b.Send(group.ranks[to], MessageBytes(chunk.size), {});
            }
        }
        for (uint32_t i = 1; i < n; ++i)
        {
            for (const Range& chunk : b.Chunks({0, owned[group.me]}))
            {
                b.Recv(group.ranks[(group.me + n - i) % n], MessageBytes(chunk.size));
            }
        }
        return;
    }
    uint64_t largest = *std::max_element(owned.begin(), owned.end());
    Strands strands(owned, std::min(b.ChunkCount(largest), MaxStrands(owned)));
    StrandDeps deps(strands.Count());
    for (uint32_t i = 1; i < n; ++i)
    {
        uint32_t to = (group.me + i) % n;
        uint32_t from = (group.me + n - i) % n;
        std::vector<uint32_t> sends;
        for (uint64_t c = 0; c < strands.Count(); ++c)
        {
            sends.push_back(
                b.Send(group.ranks[to], MessageBytes(strands.Bytes(to, 1, c)), deps[c]));
        }
        for (uint64_t c = 0; c < strands.Count(); ++c)
        {
            uint64_t size = MessageBytes(strands.Bytes(group.me, 1, c));
            deps[c] = {sends[c], b.Recv(group.ranks[from], size)};
        }
    }
}

/**
 * \param position a ring position
 * \param steps links to walk (< n)
 * \param clockwise the way: towards the next member, or the previous one
 * \param n ring size
 * \return the position reached
 */
uint32_t
Around(uint32_t position, uint32_t steps, bool clockwise, uint32_t n)
{
    return clockwise ? (position + steps) % n : (position + n - steps) % n;
}

/// What ring-relay sends of one block on one link.
struct RelayStream
{
    uint32_t hop{0};      //!< Links the bytes crossed before this one (0: they leave their origin)
    uint32_t distance{0}; //!< Links from the origin to the block's owner, this way round
    Range part;           //!< The bytes of the block that go this way
};

/**
 * \brief The part of a block that ring-relay sends one way round.
 *
 * A block takes the shorter way (2 distance < n). The block half way round (even n) is
 * cut like RailRing's blocks, first half clockwise and second half counter-clockwise, so
 * both ways carry the same load; in a ring of two (both ways lead to the one peer) and
 * when the block is under 2 bytes it goes whole clockwise.
 *
 * \param block the block
 * \param n ring size
 * \param distance links from the origin to the block's owner, this way round
 * \param clockwise the way
 * \param part receives the bytes that go this way
 * \return false if none of the block goes this way
 */
bool
RelayPart(const Range& block, uint32_t n, uint32_t distance, bool clockwise, Range& part)
{
    if (2 * distance != n)
    {
        part = block;
        return 2 * distance < n;
    }
    bool split = n > 2 && block.size >= 2;
    uint64_t first = block.size - block.size / 2;
    if (clockwise)
    {
        part = split ? Range{block.begin, first} : block;
        return true;
    }
    part = {block.begin + first, block.size - first};
    return split;
}

/**
 * \brief What ring-relay sends on the link from ring position \p from to its neighbour one
 *        way round, in the order both ends list the messages (the matching order).
 *
 * Ordered by hop, then by decreasing distance: the sender starts its own blocks farthest
 * first, so what its neighbour has to pass on arrives early, and it passes bytes on as they
 * arrive, so every link stays busy and its last bytes are ones the receiver keeps.
 *
 * \param blocks n blocks, by ring position
 * \param from the sending position
 * \param clockwise the way
 * \return the streams
 */
std::vector<RelayStream>
RelayStreams(const std::vector<Range>& blocks, uint32_t from, bool clockwise)
{
    uint32_t n = blocks.size();
    uint32_t longest = n / 2;
    std::vector<RelayStream> streams;
    for (uint32_t hop = 0; hop < longest; ++hop)
    {
        uint32_t origin = Around(from, hop, !clockwise, n);
        for (uint32_t distance = longest; distance > hop; --distance)
        {
            RelayStream stream{hop, distance, {}};
            const Range& block = blocks[Around(origin, distance, clockwise, n)];
            if (RelayPart(block, n, distance, clockwise, stream.part))
            {
                streams.push_back(stream);
            }
        }
    }
    return streams;
}

/**
 * \brief Ring-relay one way round: receives what the upstream neighbour sends this way,
 *        keeps its own block's part and passes the rest on, after its own parts.
 *
 * A passed-on chunk's SEND waits for its RECV only, so blocks pipeline chunk by chunk.
 *
 * \param b the builder
 * \param group the group
 * \param blocks n blocks, by ring position (sorted order)
 * \param clockwise the way
 */
void
RingRelayOneWay(Builder& b, const Group& group, const std::vector<Range>& blocks, bool clockwise)
{
    uint32_t n = group.Size();
    uint32_t from = Around(group.me, 1, !clockwise, n);
    uint32_t to = Around(group.me, 1, clockwise, n);
    // Per stream as this rank sends it on, (hop, distance): the RECVs of its chunks.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> arrived;
    for (const RelayStream& in : RelayStreams(blocks, from, clockwise))
    {
        std::vector<uint32_t>& recvs = arrived[{in.hop + 1, in.distance}];
        for (const Range& chunk : b.Chunks(in.part))
        {
            recvs.push_back(b.Recv(group.ranks[from], MessageBytes(chunk.size)));
        }
    }
    for (const RelayStream& out : RelayStreams(blocks, group.me, clockwise))
    {
        std::vector<Range> chunks = b.Chunks(out.part);
        for (std::size_t c = 0; c < chunks.size(); ++c)
        {
            std::vector<uint32_t> deps;
            if (out.hop > 0)
            {
                deps.push_back(arrived.at({out.hop, out.distance})[c]);
            }
            b.Send(group.ranks[to], MessageBytes(chunks[c].size), deps);
        }
    }
}

/**
 * \brief Ring-relay alltoall (see the class doc): every block travels along the ring, the
 *        shorter way round, relayed by the members in between, so a rank talks only to
 *        its two ring neighbours and one circuit configuration (the ring) serves it.
 * \param b the builder
 * \param group the group
 * \param bytes the send buffer
 */
void
RingRelay(Builder& b, const Group& group, uint64_t bytes)
{
    std::vector<Range> blocks = Contiguous(group.OwnedSizes(bytes));
    RingRelayOneWay(b, group, blocks, true);
    RingRelayOneWay(b, group, blocks, false);
}

/**
 * \brief Dissemination barrier: round j sends 1 byte to me + 2^j and receives from
 *        me - 2^j (mod n), after round j-1's SEND and RECV.
 * \param b the builder
 * \param group the group
 */
void
Dissemination(Builder& b, const Group& group)
{
    uint32_t n = group.Size();
    std::vector<uint32_t> previous;
    for (uint64_t distance = 1; distance < n; distance *= 2)
    {
        uint32_t send = b.Send(group.ranks[(group.me + distance) % n], 1, previous);
        previous = {send, b.Recv(group.ranks[(group.me + n - distance) % n], 1)};
    }
}

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

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_BUILDER_H
#define COLLECTIVE_PLAN_BUILDER_H

#include "ns3/collective-plan.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
/*
 * The message-plan building blocks every algorithm family shares.
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
 *   and halving-doubling cut strands instead, see their files). Byte sums
 *   are exact except that a block of 0 bytes still travels as one 1-byte message (it
 *   keeps the collective's synchronisation and every message has bytes >= 1).
 * - A chunk's next step depends only on the same chunk's previous step (pipelining as in
 *   NCCL); between stages of a hierarchical ring a chunk waits for the tasks that
 *   produced the bytes it carries. RECVs have no deps: data arrives eagerly, and the
 *   task consuming it (SEND or REDUCE) waits for the RECV. A REDUCE has the bytes of the
 *   message it folds in and also waits for whatever produced the local operand.
 */

/**
 * \brief The collective planner's building blocks and algorithm families (internal to
 *        CollectivePlanner; one file per family, collective-plan-<family>.cc).
 */
namespace plan
{

/// A byte range of the asking rank's buffer, in coordinates one plan keeps throughout.
struct Range
{
    uint64_t begin{0}; //!< First byte
    uint64_t size{0};  //!< Bytes (0 for a block that is empty)
};

/// Thrown for every request that cannot be planned; the reason is one line.
[[noreturn]] inline void
Reject(const std::string& reason)
{
    throw std::invalid_argument("collective plan: " + reason);
}

/**
 * \param size bytes of a block or part of one
 * \return the bytes the message carrying it has: an empty block still travels as 1 byte,
 *         so that it keeps the collective's synchronisation and no message is empty
 */
inline uint64_t
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
inline uint64_t
PartSize(uint64_t total, uint64_t parts, uint64_t i)
{
    return total / parts + (i < total % parts ? 1 : 0);
}

/**
 * \param value a value
 * \param unit a unit (>= 1)
 * \return ceil(value / unit), without the overflow of (value + unit - 1) / unit
 */
inline uint64_t
CeilDiv(uint64_t value, uint64_t unit)
{
    return value / unit + (value % unit != 0 ? 1 : 0);
}

/**
 * \param sizes block sizes
 * \return the blocks laid out one after the other from byte 0
 */
inline std::vector<Range>
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
inline std::vector<uint64_t>
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

/**
 * \param group the group
 * \return the flat ring: every member, sorted
 */
inline Ring
FlatRing(const Group& group)
{
    return Ring{group.ranks, group.me};
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
inline uint64_t
MaxStrands(const std::vector<uint64_t>& blocks)
{
    return std::max<uint64_t>(*std::min_element(blocks.begin(), blocks.end()), 1);
}

/// Per strand: the tasks its next round waits for.
using StrandDeps = std::vector<std::vector<uint32_t>>;

/**
 * \param request a collective
 * \return true if the planner chooses the algorithm (AUTO or UNSPECIFIED)
 */
inline bool
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
inline bool
IsRingRelay(const CollectiveRequest& request)
{
    return request.type == WorkloadOpType::ALLTOALL && request.optical && IsAutomatic(request);
}

} // namespace plan
} // namespace ns3

#endif /* COLLECTIVE_PLAN_BUILDER_H */

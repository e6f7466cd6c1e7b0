/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * Halving-doubling ("halving-doubling"): allreduce, allgather, reducescatter.
 *
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
 */

#include "collective-plan-halving-doubling.h"

#include <algorithm>

namespace ns3
{
namespace plan
{

namespace
{

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

} // namespace

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

} // namespace plan
} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * Chain ("chain"): broadcast and reduce.
 *
 * - "chain" (RING) for broadcast: a pipelined chain along the ring order from the root;
 *   a member forwards a chunk once it has received it; the root sends S, the last
 *   member 0, the others S. For reduce: the chain starts at the member after the root
 *   and ends at the root; each member RECVs a chunk, REDUCEs it and forwards the sum;
 *   everyone but the root sends S, everyone but the first REDUCEs S.
 */

#include "collective-plan-chain.h"

namespace ns3
{
namespace plan
{

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

} // namespace plan
} // namespace ns3

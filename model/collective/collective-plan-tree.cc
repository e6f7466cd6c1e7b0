/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * Double binary tree ("double-binary-tree"): allreduce.
 *
 * - "double-binary-tree" (TREE, allreduce only): tree A over the sorted indices, parent
 *   of i is (i-1)/2; tree B the same shape over the mirrored indices (i is at n-1-i),
 *   so most leaves of A are inner nodes of B. Tree A carries the first ceil(S/2) bytes,
 *   tree B the rest. Per chunk: a node RECVs it from each child and REDUCEs it (the
 *   second REDUCE after the first, into one buffer), SENDs the sum to its parent, RECVs
 *   the result from the parent and SENDs it to its children; the root turns the sum
 *   around. A member sends S_t (children + 1) bytes in tree t, S_t children at its
 *   root, and REDUCEs S_t children.
 */

#include "collective-plan-tree.h"

namespace ns3
{
namespace plan
{

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

} // namespace plan
} // namespace ns3

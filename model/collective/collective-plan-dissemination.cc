/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * Dissemination ("dissemination"): barrier.
 *
 * - "dissemination" (DIRECT) for barrier: ceil(log2 n) rounds of 1-byte messages,
 *   round j sends to (me + 2^j) mod n and receives from (me - 2^j) mod n, waiting for
 *   round j-1's SEND and RECV. Barrier takes no explicit algorithm.
 */

#include "collective-plan-dissemination.h"

namespace ns3
{
namespace plan
{

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

} // namespace plan
} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * Alltoall ("direct", "pairwise", "ring-relay").
 *
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
 */

#include "collective-plan-alltoall.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ns3
{
namespace plan
{

namespace
{

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

} // namespace

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

} // namespace plan
} // namespace ns3

// The collective planner: every member's plan is checked together (sends match receives,
// the plans run to completion in logical rounds) and per-rank bytes against closed forms
// derived by hand for each algorithm.
#include "ns3/collective-algorithm-registry.h"
#include "ns3/collective-plan.h"

#include <algorithm>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t HUGE_CHUNK = uint64_t(1) << 40;

using Plans = std::map<uint32_t, CollectivePlan>; // global rank -> its plan

/// What one rank's plan moves.
struct Totals
{
    uint64_t sent{0};                      //!< SEND bytes
    uint64_t received{0};                  //!< RECV bytes
    uint64_t reduced{0};                   //!< REDUCE bytes
    uint64_t sends{0};                     //!< SEND tasks
    uint64_t largest{0};                   //!< Largest SEND
    std::map<uint32_t, uint64_t> sentTo;   //!< SEND bytes per peer
    std::map<uint32_t, uint64_t> recvFrom; //!< RECV bytes per peer
};

CollectiveRequest
Request(WorkloadOpType type,
        const std::vector<uint32_t>& members,
        uint64_t bytes,
        WorkloadAlgorithm algorithm = WorkloadAlgorithm::RING,
        uint32_t channels = 1,
        uint64_t chunkBytes = HUGE_CHUNK)
{
    CollectiveRequest r;
    r.type = type;
    r.members = members;
    r.rank = members.empty() ? 0 : members.front();
    r.bytes = bytes;
    r.algorithm = algorithm;
    r.channels = channels;
    r.chunkBytes = chunkBytes;
    r.gpusPerServer = 1024; // one server unless a test says otherwise: flat rings
    return r;
}

std::vector<uint32_t>
Iota(uint32_t n)
{
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < n; ++i)
    {
        v.push_back(i);
    }
    return v;
}

/// bytes / n plus one for the first bytes % n blocks: the size of block i.
uint64_t
Share(uint64_t bytes, uint64_t n, uint64_t i)
{
    return bytes / n + (i < bytes % n ? 1 : 0);
}

Plans
PlanAll(const CollectiveRequest& request)
{
    Plans plans;
    for (uint32_t member : request.members)
    {
        CollectiveRequest r = request;
        r.rank = member;
        plans[member] = CollectivePlanner::Plan(r);
    }
    return plans;
}

Totals
Count(const CollectivePlan& plan)
{
    Totals t;
    for (const auto& task : plan.tasks)
    {
        switch (task.kind)
        {
        case CollectiveTask::SEND:
            t.sent += task.bytes;
            t.sends++;
            t.largest = std::max(t.largest, task.bytes);
            t.sentTo[task.peer] += task.bytes;
            break;
        case CollectiveTask::RECV:
            t.received += task.bytes;
            t.recvFrom[task.peer] += task.bytes;
            break;
        case CollectiveTask::REDUCE:
            t.reduced += task.bytes;
            break;
        }
    }
    return t;
}

uint64_t
TotalSent(const Plans& plans)
{
    uint64_t sent = 0;
    for (const auto& [rank, plan] : plans)
    {
        sent += Count(plan).sent;
    }
    return sent;
}

/**
 * Checks the plans of a whole group and runs them:
 *  - deps point backwards, SEND/RECV go to other members with bytes >= 1, every plan has
 *    the same algorithm and name;
 *  - per ordered pair (a, b) the SEND bytes a -> b equal, in order, the RECV bytes b <- a;
 *  - logical rounds: a task is ready when its deps finished in earlier rounds; a ready SEND
 *    or REDUCE finishes in its round, a ready RECV in the round its matching SEND started
 *    (or later). A round without progress before the end is a deadlock.
 * \return the number of rounds until every task finished (0 on a failure)
 */
uint32_t
Run(const Plans& plans)
{
    const CollectivePlan& first = plans.begin()->second;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>> sends;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>> recvs;
    std::size_t total = 0;
    for (const auto& [rank, plan] : plans)
    {
        EXPECT_EQ(plan.name, first.name);
        EXPECT_EQ(plan.algorithm, first.algorithm);
        EXPECT_EQ(plan.hierarchical, first.hierarchical);
        for (uint32_t i = 0; i < plan.tasks.size(); ++i)
        {
            const auto& task = plan.tasks[i];
            for (uint32_t dep : task.deps)
            {
                EXPECT_LT(dep, i) << "rank " << rank << " task " << i << " depends forwards";
            }
            EXPECT_GE(task.bytes, 1u);
            if (task.kind == CollectiveTask::REDUCE)
            {
                continue;
            }
            EXPECT_NE(task.peer, rank);
            EXPECT_EQ(plans.count(task.peer), 1u) << "peer " << task.peer << " not a member";
            auto& list = task.kind == CollectiveTask::SEND ? sends[{rank, task.peer}]
                                                           : recvs[{task.peer, rank}];
            list.emplace_back(task.bytes, i);
        }
        total += plan.tasks.size();
    }
    // Matching: the k-th SEND a -> b is the k-th RECV at b from a.
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> matchOf; // recv
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (const auto& [pair, list] : sends)
    {
        pairs.insert(pair);
    }
    for (const auto& [pair, list] : recvs)
    {
        pairs.insert(pair);
    }
    for (const auto& pair : pairs)
    {
        const auto& s = sends[pair];
        const auto& r = recvs[pair];
        EXPECT_EQ(s.size(), r.size()) << pair.first << " -> " << pair.second;
        if (s.size() != r.size())
        {
            return 0;
        }
        for (std::size_t k = 0; k < s.size(); ++k)
        {
            EXPECT_EQ(s[k].first, r[k].first)
                << pair.first << " -> " << pair.second << " message " << k;
            matchOf[{pair.second, r[k].second}] = {pair.first, s[k].second};
        }
    }
    if (::testing::Test::HasFailure())
    {
        return 0;
    }
    // Logical rounds.
    std::map<uint32_t, std::vector<uint32_t>> doneIn; // 0: not yet
    for (const auto& [rank, plan] : plans)
    {
        doneIn[rank].assign(plan.tasks.size(), 0);
    }
    std::size_t done = 0;
    uint32_t round = 0;
    while (done < total)
    {
        ++round;
        std::size_t before = done;
        auto ready = [&](uint32_t rank, const CollectiveTask& task) {
            for (uint32_t dep : task.deps)
            {
                if (doneIn[rank][dep] == 0 || doneIn[rank][dep] >= round)
                {
                    return false;
                }
            }
            return true;
        };
        for (int pass = 0; pass < 2; ++pass) // SENDs and REDUCEs first, then RECVs
        {
            for (const auto& [rank, plan] : plans)
            {
                for (uint32_t i = 0; i < plan.tasks.size(); ++i)
                {
                    const auto& task = plan.tasks[i];
                    bool isRecv = task.kind == CollectiveTask::RECV;
                    if (doneIn[rank][i] != 0 || isRecv != (pass == 1) || !ready(rank, task))
                    {
                        continue;
                    }
                    if (isRecv)
                    {
                        auto [peer, send] = matchOf.at({rank, i});
                        if (doneIn[peer][send] == 0)
                        {
                            continue;
                        }
                    }
                    doneIn[rank][i] = round;
                    ++done;
                }
            }
        }
        if (done == before)
        {
            ADD_FAILURE() << "deadlock in round " << round << ": " << total - done
                          << " tasks cannot run";
            return 0;
        }
    }
    return round;
}

/// Runs and checks a group's plans; returns them for byte checks.
Plans
PlanAndRun(const CollectiveRequest& request, uint32_t* rounds = nullptr)
{
    Plans plans = PlanAll(request);
    uint32_t r = Run(plans);
    if (rounds != nullptr)
    {
        *rounds = r;
    }
    return plans;
}

/// Channel/chunk settings every flat algorithm is tried with.
const std::vector<std::pair<uint32_t, uint64_t>> SPLITS = {{1, HUGE_CHUNK},
                                                           {2, 4096},
                                                           {3, 1000},
                                                           {4, 777}};

const std::vector<uint32_t> SIZES = {2, 3, 4, 5, 8};

std::string
Where(uint32_t n, uint32_t channels, uint64_t chunk, uint64_t bytes)
{
    return "n=" + std::to_string(n) + " channels=" + std::to_string(channels) +
           " chunk=" + std::to_string(chunk) + " bytes=" + std::to_string(bytes);
}

/// Divisible by 2, 3, 4, 5 and 8 and by every split below: closed forms are exact.
const uint64_t DIVISIBLE = 840 * 1024;

/**
 * Plans a flat ring of every size in SIZES with every split in SPLITS, runs it, and checks
 * each rank: it sends sent(n) bytes to its successor in sorted order only, receives as
 * much, reduces reduced(n) bytes, in messages of at most chunkBytes.
 */
void
ExpectFlatRingBytes(WorkloadOpType type,
                    uint64_t bytes,
                    const std::function<uint64_t(uint64_t)>& sent,
                    const std::function<uint64_t(uint64_t)>& reduced)
{
    for (uint32_t n : SIZES)
    {
        for (auto [channels, chunk] : SPLITS)
        {
            SCOPED_TRACE(WorkloadOpTypeName(type) + " " + Where(n, channels, chunk, bytes));
            Plans plans =
                PlanAndRun(Request(type, Iota(n), bytes, WorkloadAlgorithm::RING, channels, chunk));
            for (const auto& [rank, plan] : plans)
            {
                EXPECT_EQ(plan.name, "ring");
                EXPECT_FALSE(plan.hierarchical);
                Totals t = Count(plan);
                EXPECT_EQ(t.sent, sent(n));
                EXPECT_EQ(t.received, sent(n));
                EXPECT_EQ(t.reduced, reduced(n));
                EXPECT_LE(t.largest, chunk);
                EXPECT_EQ(t.sentTo.size(), 1u);
                EXPECT_EQ(t.sentTo.count((rank + 1) % n), 1u);
            }
        }
    }
}

} // namespace

TEST(CollectivePlan, RingAllGatherSendsNMinusOneShards)
{
    for (uint64_t bytes : {uint64_t(12345), uint64_t(65536)})
    {
        ExpectFlatRingBytes(
            WorkloadOpType::ALLGATHER,
            bytes,
            [bytes](uint64_t n) { return (n - 1) * bytes; },
            [](uint64_t n) { return uint64_t(0); });
    }
}

TEST(CollectivePlan, RingAllGatherUnchunkedTakesNMinusOneRounds)
{
    for (uint32_t n : SIZES)
    {
        uint32_t rounds = 0;
        Plans plans = PlanAndRun(Request(WorkloadOpType::ALLGATHER, Iota(n), 1000), &rounds);
        EXPECT_EQ(rounds, n - 1) << "n=" << n;
        EXPECT_EQ(Count(plans.at(0)).sends, n - 1);
        // Chunks travel independently: splitting does not add rounds.
        PlanAndRun(
            Request(WorkloadOpType::ALLGATHER, Iota(n), 1000, WorkloadAlgorithm::RING, 3, 100),
            &rounds);
        EXPECT_EQ(rounds, n - 1) << "n=" << n;
    }
}

TEST(CollectivePlan, OpticalRingsRunBothWays)
{
    // On optical rails half of every block goes each way round: a rank of an n-ring sends
    // half of the one-way ring's traffic to each neighbour, the totals are those of the
    // one-way ring and so are the logical rounds.
    for (uint32_t n : {3u, 4u, 5u, 8u})
    {
        for (WorkloadOpType type :
             {WorkloadOpType::ALLGATHER, WorkloadOpType::REDUCESCATTER, WorkloadOpType::ALLREDUCE})
        {
            const uint64_t bytes = 8000 * n; // even blocks and halves for every type
            CollectiveRequest request = Request(type, Iota(n), bytes);
            request.gpusPerServer = 1; // every hop crosses servers
            request.optical = true;
            uint32_t rounds = 0;
            Plans plans = PlanAndRun(request, &rounds);
            request.optical = false;
            uint32_t oneWayRounds = 0;
            Plans oneWay = PlanAndRun(request, &oneWayRounds);
            uint64_t perRank = Count(oneWay.at(0)).sent;
            for (const auto& [rank, plan] : plans)
            {
                Totals t = Count(plan);
                ASSERT_EQ(t.sentTo.size(), 2u) << "n=" << n;
                EXPECT_EQ(t.sentTo.at((rank + 1) % n), perRank / 2) << "n=" << n;
                EXPECT_EQ(t.sentTo.at((rank + n - 1) % n), perRank / 2) << "n=" << n;
                EXPECT_EQ(t.sent, perRank);
            }
            EXPECT_EQ(TotalSent(plans), TotalSent(oneWay));
            EXPECT_EQ(rounds, oneWayRounds) << "both ways take the rounds of one way";
        }
    }
    // Two members, or blocks of one byte, run one way.
    CollectiveRequest pair = Request(WorkloadOpType::ALLGATHER, Iota(2), 1000);
    pair.gpusPerServer = 1;
    pair.optical = true;
    EXPECT_EQ(Count(PlanAndRun(pair).at(0)).sentTo.size(), 1u);
    CollectiveRequest tiny = Request(WorkloadOpType::ALLGATHER, Iota(4), 1);
    tiny.gpusPerServer = 1;
    tiny.optical = true;
    EXPECT_EQ(Count(PlanAndRun(tiny).at(0)).sentTo.size(), 1u);
}

namespace
{

/// Expects two plans to hold the same tasks (kind, peer, bytes, deps) in the same order.
void
ExpectSameTasks(const CollectivePlan& a, const CollectivePlan& b)
{
    ASSERT_EQ(a.tasks.size(), b.tasks.size());
    for (std::size_t i = 0; i < a.tasks.size(); ++i)
    {
        SCOPED_TRACE("task " + std::to_string(i));
        EXPECT_EQ(a.tasks[i].kind, b.tasks[i].kind);
        EXPECT_EQ(a.tasks[i].peer, b.tasks[i].peer);
        EXPECT_EQ(a.tasks[i].bytes, b.tasks[i].bytes);
        EXPECT_EQ(a.tasks[i].deps, b.tasks[i].deps);
    }
}

} // namespace

TEST(CollectivePlan, OpticalRingsInsideOneServerRunOneWay)
{
    // Issue 11 (review fix11, A): a ring whose members share a server never touches a rail,
    // so optical rails must not change its plan. 4 GPUs per server, groups [0..3] and
    // [4..7]: the 1 MiB allreduce sends 2(n-1)S/n = 2 x 3 x 2^20 / 4 = 1572864 bytes to the
    // next member only, optical or not.
    for (uint32_t first : {0u, 4u})
    {
        std::vector<uint32_t> members = {first, first + 1, first + 2, first + 3};
        CollectiveRequest request = Request(WorkloadOpType::ALLREDUCE,
                                            members,
                                            1 << 20,
                                            WorkloadAlgorithm::AUTO,
                                            2,
                                            1 << 19);
        request.gpusPerServer = 4;
        request.optical = false;
        Plans electrical = PlanAndRun(request);
        request.optical = true;
        Plans optical = PlanAndRun(request);
        for (uint32_t m = 0; m < 4; ++m)
        {
            uint32_t rank = members[m];
            SCOPED_TRACE("rank " + std::to_string(rank));
            EXPECT_EQ(optical.at(rank).name, "ring");
            ExpectSameTasks(optical.at(rank), electrical.at(rank));
            Totals t = Count(optical.at(rank));
            ASSERT_EQ(t.sentTo.size(), 1u);
            EXPECT_EQ(t.sentTo.at(members[(m + 1) % 4]), 1572864u);
        }
    }
    // One member on another server makes the ring cross servers: it splits. Ranks
    // {0, 1, 2, 3, 4}, S = 10000: one way sends 2 x 4 x 10000 / 5 = 16000 to the next
    // member; both ways 8000 to each neighbour.
    CollectiveRequest crossing = Request(WorkloadOpType::ALLREDUCE, Iota(5), 10000);
    crossing.gpusPerServer = 4;
    crossing.optical = true;
    Plans plans = PlanAndRun(crossing);
    for (const auto& [rank, plan] : plans)
    {
        Totals t = Count(plan);
        ASSERT_EQ(t.sentTo.size(), 2u) << "rank " << rank;
        EXPECT_EQ(t.sentTo.at((rank + 1) % 5), 8000u) << "rank " << rank;
        EXPECT_EQ(t.sentTo.at((rank + 4) % 5), 8000u) << "rank " << rank;
    }
}

TEST(CollectivePlan, RingOrderIsSortedRanks)
{
    // Group order scrambled: the ring still goes 1 -> 3 -> 5 -> 7 -> 1.
    Plans plans = PlanAndRun(Request(WorkloadOpType::ALLGATHER, {7, 3, 5, 1}, 100));
    const std::map<uint32_t, uint32_t> next = {{1, 3}, {3, 5}, {5, 7}, {7, 1}};
    for (const auto& [rank, plan] : plans)
    {
        Totals t = Count(plan);
        ASSERT_EQ(t.sentTo.size(), 1u);
        EXPECT_EQ(t.sentTo.begin()->first, next.at(rank));
        EXPECT_EQ(t.sentTo.begin()->second, 300u);
    }
}

TEST(CollectivePlan, RingReduceScatterSendsAllBlocksButItsOwn)
{
    const uint64_t s = DIVISIBLE;
    auto nMinusOneOverN = [s](uint64_t n) { return (n - 1) * s / n; };
    ExpectFlatRingBytes(WorkloadOpType::REDUCESCATTER, s, nMinusOneOverN, nMinusOneOverN);
    // Odd size, scrambled group order: the member at group position g owns block g and
    // sends every other block once.
    const std::vector<uint32_t> members = {4, 0, 3, 1, 2};
    const uint64_t odd = 1000003;
    Plans plans = PlanAndRun(
        Request(WorkloadOpType::REDUCESCATTER, members, odd, WorkloadAlgorithm::RING, 3, 4096));
    for (uint32_t g = 0; g < members.size(); ++g)
    {
        EXPECT_EQ(Count(plans.at(members[g])).sent, odd - Share(odd, 5, g)) << "g=" << g;
    }
}

TEST(CollectivePlan, RingAllReduceSendsTwiceNMinusOneOverN)
{
    const uint64_t s = DIVISIBLE;
    ExpectFlatRingBytes(
        WorkloadOpType::ALLREDUCE,
        s,
        [s](uint64_t n) { return 2 * (n - 1) * s / n; },
        [s](uint64_t n) { return (n - 1) * s / n; });
}

TEST(CollectivePlan, RingAllReducePipelinesChunkByChunk)
{
    for (uint32_t n : SIZES)
    {
        // Unchunked: each reducescatter step is an exchange then a REDUCE (2 rounds), each
        // allgather step an exchange (1 round).
        uint32_t rounds = 0;
        PlanAndRun(Request(WorkloadOpType::ALLREDUCE, Iota(n), 4000), &rounds);
        EXPECT_EQ(rounds, 3 * (n - 1)) << "n=" << n;
        // Chunked: no more rounds, and each forwarded chunk waits for one task only.
        Plans plans = PlanAndRun(
            Request(WorkloadOpType::ALLREDUCE, Iota(n), 4000, WorkloadAlgorithm::RING, 2, 300),
            &rounds);
        EXPECT_EQ(rounds, 3 * (n - 1)) << "n=" << n;
        for (const auto& [rank, plan] : plans)
        {
            for (const auto& task : plan.tasks)
            {
                if (task.kind == CollectiveTask::SEND)
                {
                    ASSERT_LE(task.deps.size(), 1u);
                    if (!task.deps.empty())
                    {
                        EXPECT_EQ(plan.tasks[task.deps[0]].bytes, task.bytes);
                    }
                }
            }
        }
    }
}

TEST(CollectivePlan, OddSizesConserveBytes)
{
    // S not divisible by n * channels; no block is empty. Summed over the group:
    //   allgather n (n-1) S, reducescatter (n-1) S, allreduce 2 (n-1) S,
    //   alltoall sum_g (S - S_g) = (n-1) S, broadcast and reduce (n-1) S.
    const uint64_t s = 1000003;
    for (uint32_t n : SIZES)
    {
        bool pow2 = (n & (n - 1)) == 0;
        for (const auto& split : SPLITS)
        {
            uint32_t channels = split.first;
            uint64_t chunk = split.second;
            SCOPED_TRACE(Where(n, channels, chunk, s));
            auto total = [&](WorkloadOpType type, WorkloadAlgorithm algorithm) {
                return TotalSent(PlanAndRun(Request(type, Iota(n), s, algorithm, channels, chunk)));
            };
            EXPECT_EQ(total(WorkloadOpType::ALLGATHER, WorkloadAlgorithm::RING), n * (n - 1) * s);
            EXPECT_EQ(total(WorkloadOpType::REDUCESCATTER, WorkloadAlgorithm::RING), (n - 1) * s);
            EXPECT_EQ(total(WorkloadOpType::ALLREDUCE, WorkloadAlgorithm::RING), 2 * (n - 1) * s);
            EXPECT_EQ(total(WorkloadOpType::ALLREDUCE, WorkloadAlgorithm::TREE), 2 * (n - 1) * s);
            EXPECT_EQ(total(WorkloadOpType::ALLTOALL, WorkloadAlgorithm::RING), (n - 1) * s);
            EXPECT_EQ(total(WorkloadOpType::ALLTOALL, WorkloadAlgorithm::DIRECT), (n - 1) * s);
            EXPECT_EQ(total(WorkloadOpType::BROADCAST, WorkloadAlgorithm::RING), (n - 1) * s);
            EXPECT_EQ(total(WorkloadOpType::REDUCE, WorkloadAlgorithm::RING), (n - 1) * s);
            if (pow2)
            {
                auto hd = WorkloadAlgorithm::HALVING_DOUBLING;
                EXPECT_EQ(total(WorkloadOpType::ALLREDUCE, hd), 2 * (n - 1) * s);
                EXPECT_EQ(total(WorkloadOpType::ALLGATHER, hd), n * (n - 1) * s);
                EXPECT_EQ(total(WorkloadOpType::REDUCESCATTER, hd), (n - 1) * s);
            }
        }
    }
}

TEST(CollectivePlan, EmptyBlocksTravelAsOneByte)
{
    // S = 3 over 5 members: blocks 1, 1, 1, 0, 0. A reducescatter rank sends the four
    // blocks that are not its own, empty ones as 1 byte: 4 messages of 1 byte each.
    Plans plans = PlanAndRun(
        Request(WorkloadOpType::REDUCESCATTER, Iota(5), 3, WorkloadAlgorithm::RING, 4, 1));
    for (const auto& [rank, plan] : plans)
    {
        Totals t = Count(plan);
        EXPECT_EQ(t.sends, 4u);
        EXPECT_EQ(t.sent, 4u);
    }
    // S = 0: an allreduce still synchronises, with 2 (n-1) messages of 1 byte.
    plans = PlanAndRun(Request(WorkloadOpType::ALLREDUCE, Iota(4), 0));
    for (const auto& [rank, plan] : plans)
    {
        EXPECT_EQ(Count(plan).sends, 6u);
        EXPECT_EQ(Count(plan).sent, 6u);
    }
    // More channels than bytes: 3 channels of 1 byte, not 8.
    plans = PlanAndRun(Request(WorkloadOpType::ALLGATHER, Iota(2), 3, WorkloadAlgorithm::RING, 8));
    EXPECT_EQ(Count(plans.at(0)).sends, 3u);
    EXPECT_EQ(Count(plans.at(0)).sent, 3u);
}

namespace
{

/// A regular grid: servers x locals, ranks server * gpusPerServer + local.
CollectiveRequest
GridRequest(WorkloadOpType type,
            const std::vector<uint32_t>& servers,
            const std::vector<uint32_t>& locals,
            uint32_t gpusPerServer,
            uint64_t bytes,
            WorkloadAlgorithm algorithm = WorkloadAlgorithm::AUTO)
{
    std::vector<uint32_t> members;
    for (uint32_t s : servers)
    {
        for (uint32_t l : locals)
        {
            members.push_back(s * gpusPerServer + l);
        }
    }
    CollectiveRequest r = Request(type, members, bytes, algorithm, 2, 1000);
    r.gpusPerServer = gpusPerServer;
    r.optical = true; // AUTO: ring everywhere
    return r;
}

/// SEND bytes a rank sends inside its server and across servers.
std::pair<uint64_t, uint64_t>
IntraInter(uint32_t rank, const CollectivePlan& plan, uint32_t gpusPerServer)
{
    uint64_t intra = 0;
    uint64_t inter = 0;
    for (const auto& task : plan.tasks)
    {
        if (task.kind == CollectiveTask::SEND)
        {
            (task.peer / gpusPerServer == rank / gpusPerServer ? intra : inter) += task.bytes;
        }
    }
    return {intra, inter};
}

/// Divisible by m * k of every grid below.
const uint64_t GRID_BYTES = 24 * 1000;

/// The grids the hierarchical tests use: (servers, locals, gpusPerServer).
const std::vector<std::tuple<std::vector<uint32_t>, std::vector<uint32_t>, uint32_t>> GRIDS = {
    {{0, 1}, {0, 1, 2, 3}, 4}, // 2 servers x 4 GPUs
    {{0, 1, 2}, {1, 5}, 8},    // 3 servers x 2 GPUs (local 1 and 5), not contiguous
    {{3, 5, 6, 9}, {0, 7}, 8}, // 4 servers x 2 GPUs
};

} // namespace

TEST(CollectivePlan, HierarchicalAllReduceBytesPerLevel)
{
    const uint64_t s = GRID_BYTES;
    for (const auto& [servers, locals, gps] : GRIDS)
    {
        uint64_t k = servers.size();
        uint64_t m = locals.size();
        SCOPED_TRACE("k=" + std::to_string(k) + " m=" + std::to_string(m));
        Plans plans = PlanAndRun(GridRequest(WorkloadOpType::ALLREDUCE, servers, locals, gps, s));
        for (const auto& [rank, plan] : plans)
        {
            EXPECT_TRUE(plan.hierarchical);
            EXPECT_EQ(plan.name, "hierarchical-ring");
            EXPECT_EQ(plan.algorithm, WorkloadAlgorithm::RING);
            auto [intra, inter] = IntraInter(rank, plan, gps);
            EXPECT_EQ(intra, 2 * (m - 1) * s / m);
            EXPECT_EQ(inter, 2 * (k - 1) * s / (m * k));
            EXPECT_EQ(intra + inter, 2 * (m * k - 1) * s / (m * k));
            EXPECT_EQ(Count(plan).reduced, (m - 1) * s / m + (k - 1) * s / (m * k));
        }
        // Stages run one after the other: intra reducescatter (m-1 steps of exchange and
        // REDUCE), inter reducescatter, inter allgather, intra allgather. Chunking adds no
        // round, and every chunk crossing servers waits for what produced it.
        for (bool chunked : {false, true})
        {
            auto r = GridRequest(WorkloadOpType::ALLREDUCE, servers, locals, gps, s);
            if (!chunked)
            {
                r.channels = 1;
                r.chunkBytes = HUGE_CHUNK;
            }
            uint32_t rounds = 0;
            plans = PlanAndRun(r, &rounds);
            EXPECT_EQ(rounds, 3 * (m - 1) + 3 * (k - 1)) << "chunked " << chunked;
            for (const auto& [rank, plan] : plans)
            {
                for (const auto& task : plan.tasks)
                {
                    if (task.kind == CollectiveTask::SEND && task.peer / gps != rank / gps)
                    {
                        EXPECT_FALSE(task.deps.empty());
                    }
                    // Folding in another server's sum needs this server's sum first.
                    bool fromOtherServer = false;
                    bool afterLocalSum = false;
                    for (uint32_t dep : task.deps)
                    {
                        const auto& d = plan.tasks[dep];
                        fromOtherServer |=
                            d.kind == CollectiveTask::RECV && d.peer / gps != rank / gps;
                        afterLocalSum |= d.kind == CollectiveTask::REDUCE;
                    }
                    if (task.kind == CollectiveTask::REDUCE && fromOtherServer)
                    {
                        EXPECT_TRUE(afterLocalSum);
                    }
                }
            }
        }
        // Odd size: still 2 (n-1) S over the group.
        EXPECT_EQ(TotalSent(PlanAndRun(
                      GridRequest(WorkloadOpType::ALLREDUCE, servers, locals, gps, 1000003))),
                  2 * (m * k - 1) * 1000003);
    }
}

TEST(CollectivePlan, HierarchicalAllGatherAndReduceScatterBytesPerLevel)
{
    const uint64_t s = GRID_BYTES;
    for (const auto& [servers, locals, gps] : GRIDS)
    {
        uint64_t k = servers.size();
        uint64_t m = locals.size();
        SCOPED_TRACE("k=" + std::to_string(k) + " m=" + std::to_string(m));
        Plans plans = PlanAndRun(GridRequest(WorkloadOpType::ALLGATHER, servers, locals, gps, s));
        for (const auto& [rank, plan] : plans)
        {
            EXPECT_EQ(plan.name, "hierarchical-ring");
            auto [intra, inter] = IntraInter(rank, plan, gps);
            EXPECT_EQ(inter, (k - 1) * s);
            EXPECT_EQ(intra, (m - 1) * k * s);
        }
        plans = PlanAndRun(GridRequest(WorkloadOpType::REDUCESCATTER, servers, locals, gps, s));
        for (const auto& [rank, plan] : plans)
        {
            EXPECT_EQ(plan.name, "hierarchical-ring");
            auto [intra, inter] = IntraInter(rank, plan, gps);
            EXPECT_EQ(intra, (m - 1) * s / m);
            EXPECT_EQ(inter, (k - 1) * s / (m * k));
            EXPECT_EQ(Count(plan).reduced, intra + inter);
        }
        // Odd sizes, scrambled group order: the member at group position g still ends
        // with block g, so it sends S minus that block.
        auto r = GridRequest(WorkloadOpType::REDUCESCATTER, servers, locals, gps, 1000003);
        std::reverse(r.members.begin(), r.members.end());
        plans = PlanAndRun(r);
        for (uint32_t g = 0; g < r.members.size(); ++g)
        {
            EXPECT_EQ(Count(plans.at(r.members[g])).sent,
                      1000003 - Share(1000003, r.members.size(), g));
        }
        EXPECT_EQ(TotalSent(PlanAndRun(
                      GridRequest(WorkloadOpType::ALLGATHER, servers, locals, gps, 1000003))),
                  m * k * (m * k - 1) * 1000003);
    }
}

TEST(CollectivePlan, HierarchicalOnlyOnRegularGridsAndRings)
{
    auto flat = [](CollectiveRequest r) {
        Plans plans = PlanAndRun(r);
        return !plans.begin()->second.hierarchical && plans.begin()->second.name == "ring";
    };
    auto r = Request(WorkloadOpType::ALLREDUCE, {0, 1, 8}, 3000);
    r.gpusPerServer = 8;
    EXPECT_TRUE(flat(r)); // server 1 lacks local index 1
    r.members = {0, 8, 16};
    EXPECT_TRUE(flat(r)); // one GPU per server
    r.members = {0, 1, 2, 3};
    EXPECT_TRUE(flat(r)); // one server
    r.members = {0, 1, 8, 10};
    EXPECT_TRUE(flat(r)); // local sets {0, 1} and {0, 2}
    r.members = {0, 1, 8, 9};
    EXPECT_FALSE(flat(r)); // 2 x 2 grid, ring asked for
    r.optical = true;
    r.algorithm = WorkloadAlgorithm::AUTO;
    EXPECT_FALSE(flat(r));
    r.algorithm = WorkloadAlgorithm::HALVING_DOUBLING;
    EXPECT_FALSE(PlanAndRun(r).begin()->second.hierarchical);
    r.algorithm = WorkloadAlgorithm::TREE;
    EXPECT_FALSE(PlanAndRun(r).begin()->second.hierarchical);
    r.type = WorkloadOpType::ALLTOALL;
    r.algorithm = WorkloadAlgorithm::RING;
    EXPECT_FALSE(PlanAndRun(r).begin()->second.hierarchical);
}

TEST(CollectivePlan, AllToAllDirectAndPairwise)
{
    const uint64_t divisible = DIVISIBLE;
    for (uint32_t n : SIZES)
    {
        for (auto [channels, chunk] : SPLITS)
        {
            SCOPED_TRACE(Where(n, channels, chunk, divisible));
            for (auto algorithm : {WorkloadAlgorithm::DIRECT, WorkloadAlgorithm::RING})
            {
                uint32_t rounds = 0;
                Plans plans = PlanAndRun(Request(WorkloadOpType::ALLTOALL,
                                                 Iota(n),
                                                 divisible,
                                                 algorithm,
                                                 channels,
                                                 chunk),
                                         &rounds);
                // Direct: everything in one round; pairwise: one peer a round.
                EXPECT_EQ(rounds, algorithm == WorkloadAlgorithm::DIRECT ? 1 : n - 1);
                for (const auto& [rank, plan] : plans)
                {
                    EXPECT_EQ(plan.name,
                              algorithm == WorkloadAlgorithm::DIRECT ? "direct" : "pairwise");
                    Totals t = Count(plan);
                    EXPECT_EQ(t.sent, (n - 1) * divisible / n);
                    EXPECT_EQ(t.sentTo.size(), n - 1);
                    for (const auto& [peer, bytes] : t.sentTo)
                    {
                        EXPECT_EQ(bytes, divisible / n);
                        EXPECT_EQ(t.recvFrom.at(peer), divisible / n);
                    }
                    EXPECT_LE(t.largest, chunk);
                }
            }
        }
    }
    // Odd size, scrambled group: group position g receives block g from everyone.
    const std::vector<uint32_t> members = {6, 2, 9, 4, 0};
    for (auto algorithm : {WorkloadAlgorithm::DIRECT, WorkloadAlgorithm::RING})
    {
        Plans plans =
            PlanAndRun(Request(WorkloadOpType::ALLTOALL, members, 1000003, algorithm, 3, 4096));
        for (uint32_t g = 0; g < members.size(); ++g)
        {
            Totals t = Count(plans.at(members[g]));
            EXPECT_EQ(t.received, 4 * Share(1000003, 5, g));
            EXPECT_EQ(t.sent, 1000003 - Share(1000003, 5, g));
        }
    }
}

namespace
{

/// An optical alltoall left to the planner: ring-relay.
CollectiveRequest
RelayRequest(const std::vector<uint32_t>& members,
             uint64_t bytes,
             uint32_t channels = 1,
             uint64_t chunk = HUGE_CHUNK)
{
    auto r =
        Request(WorkloadOpType::ALLTOALL, members, bytes, WorkloadAlgorithm::AUTO, channels, chunk);
    r.optical = true;
    return r;
}

/// Bytes a rank keeps: those it receives and does not pass on (a passed-on SEND waits
/// for the RECV that brought its bytes, and for nothing else).
uint64_t
KeptBytes(const CollectivePlan& plan)
{
    uint64_t kept = 0;
    for (const auto& task : plan.tasks)
    {
        if (task.kind == CollectiveTask::RECV)
        {
            kept += task.bytes;
        }
        else if (task.kind == CollectiveTask::SEND && !task.deps.empty())
        {
            EXPECT_EQ(task.deps.size(), 1u);
            EXPECT_EQ(plan.tasks[task.deps[0]].kind, CollectiveTask::RECV);
            EXPECT_EQ(plan.tasks[task.deps[0]].bytes, task.bytes);
            kept -= task.bytes;
        }
    }
    return kept;
}

/// Checks that every member of a ring-relay plan talks to its sorted ring neighbours only.
void
ExpectRingNeighboursOnly(const Plans& plans)
{
    std::vector<uint32_t> ring;
    for (const auto& [rank, plan] : plans)
    {
        ring.push_back(rank); // a map: sorted
    }
    uint32_t n = ring.size();
    for (uint32_t i = 0; i < n; ++i)
    {
        std::set<uint32_t> neighbours = {ring[(i + 1) % n], ring[(i + n - 1) % n]};
        Totals t = Count(plans.at(ring[i]));
        std::set<uint32_t> to;
        std::set<uint32_t> from;
        for (const auto& [peer, bytes] : t.sentTo)
        {
            to.insert(peer);
        }
        for (const auto& [peer, bytes] : t.recvFrom)
        {
            from.insert(peer);
        }
        EXPECT_EQ(to, neighbours) << "rank " << ring[i];
        EXPECT_EQ(from, neighbours) << "rank " << ring[i];
    }
}

} // namespace

TEST(CollectivePlan, AllToAllRingRelayBytes)
{
    // S = 840 KiB, blocks B = S/n; a member sends, one way round, B times the sum of the
    // distances going that way (the middle n/2 of an even ring counting half), by hand:
    //   n = 2: everything clockwise, S/2 (both ways lead to the one peer);
    //   n = 3: B = S/3 each way;                   n = 4: B(1 + 2/2) = S/2 each way;
    //   n = 5: B(1 + 2) = 3S/5 each way;           n = 8: B(1 + 2 + 3 + 4/2) = S each way.
    // Closed forms: odd n S(n^2-1)/(8n) (n = 3: 8S/24, n = 5: 24S/40), even n Sn/8.
    const uint64_t s = DIVISIBLE;
    const std::map<uint32_t, uint64_t> oneWay = {{2, s / 2},
                                                 {3, s / 3},
                                                 {4, s / 2},
                                                 {5, 3 * s / 5},
                                                 {8, s}};
    for (uint32_t n : SIZES)
    {
        for (auto [channels, chunk] : SPLITS)
        {
            SCOPED_TRACE(Where(n, channels, chunk, s));
            uint32_t rounds = 0;
            Plans plans = PlanAndRun(RelayRequest(Iota(n), s, channels, chunk), &rounds);
            // A chunk moves on in the round after it arrived: the longest trip is n/2 hops.
            EXPECT_EQ(rounds, n / 2);
            if (n > 2)
            {
                ExpectRingNeighboursOnly(plans);
            }
            for (const auto& [rank, plan] : plans)
            {
                EXPECT_EQ(plan.name, "ring-relay");
                EXPECT_EQ(plan.algorithm, WorkloadAlgorithm::RING);
                EXPECT_FALSE(plan.hierarchical);
                Totals t = Count(plan);
                uint32_t next = (rank + 1) % n;
                uint32_t prev = (rank + n - 1) % n;
                if (n == 2)
                {
                    EXPECT_EQ(t.sent, s / 2);
                }
                else
                {
                    EXPECT_EQ(t.sentTo.at(next), oneWay.at(n));
                    EXPECT_EQ(t.sentTo.at(prev), oneWay.at(n));
                    EXPECT_EQ(t.recvFrom.at(next), oneWay.at(n));
                    EXPECT_EQ(t.recvFrom.at(prev), oneWay.at(n));
                }
                EXPECT_EQ(t.sent, n == 2 ? s / 2 : 2 * oneWay.at(n));
                EXPECT_EQ(t.received, t.sent);
                EXPECT_EQ(t.reduced, 0u);
                EXPECT_LE(t.largest, chunk);
                EXPECT_EQ(KeptBytes(plan), (n - 1) * s / n);
            }
        }
    }
}

TEST(CollectivePlan, AllToAllRingRelayDeliversEveryBlock)
{
    // Scrambled groups and a buffer that n does not divide: group position g owns block g
    // of Share(S, n, g) bytes and keeps it from each of the n - 1 others. n = 6 has odd
    // middle blocks (166667 bytes: 83334 go clockwise, 83333 counter-clockwise).
    const uint64_t s = 1000003;
    for (const std::vector<uint32_t>& members :
         {std::vector<uint32_t>{6, 2, 9, 4, 0}, std::vector<uint32_t>{7, 3, 11, 5, 1, 9}})
    {
        uint32_t n = members.size();
        for (auto [channels, chunk] : SPLITS)
        {
            SCOPED_TRACE(Where(n, channels, chunk, s));
            Plans plans = PlanAndRun(RelayRequest(members, s, channels, chunk));
            ExpectRingNeighboursOnly(plans);
            for (uint32_t g = 0; g < n; ++g)
            {
                EXPECT_EQ(KeptBytes(plans.at(members[g])), (n - 1) * Share(s, n, g));
            }
        }
    }
    // By hand, n = 6, rank 1: sorted ring 1 3 5 7 9 11; rank 7 (group position 0) owns
    // 166668 bytes, the others 166667; middle blocks (distance 3) split first half
    // clockwise (83334 of either size), second half counter-clockwise (83334 of 166668,
    // 83333 of 166667). Parts as (origin -> owner, distance):
    //   to 3 (clockwise): own 1->7 d3 83334, 1->5 d2 166667, 1->3 d1 166667; relayed
    //     11->5 d3 83334, 11->3 d2 166667, 9->3 d3 83334: 750003 bytes.
    //   to 11 (counter-clockwise): own 1->7 d3 83334, 1->9 d2 166667, 1->11 d1 166667;
    //     relayed 3->9 d3 83333, 3->11 d2 166667, 5->11 d3 83333: 750001 bytes.
    Plans plans = PlanAll(RelayRequest({7, 3, 11, 5, 1, 9}, s));
    EXPECT_EQ(Count(plans.at(1)).sentTo.at(3), 750003u);
    EXPECT_EQ(Count(plans.at(1)).sentTo.at(11), 750001u);
}

TEST(CollectivePlan, AllToAllRingRelayTinyBlocks)
{
    // 3 bytes over 8 members: blocks of 1, 1, 1, 0 ... bytes; middle blocks under 2 bytes go
    // whole clockwise and empty ones still travel as 1-byte messages: plans still match.
    Plans plans = PlanAndRun(RelayRequest(Iota(8), 3, 2, 1));
    ExpectRingNeighboursOnly(plans);
    for (const auto& [rank, plan] : plans)
    {
        EXPECT_EQ(Count(plan).largest, 1u);
    }
}

TEST(CollectivePlan, AllToAllRingRelayIsFlatOverServers)
{
    // Three servers of 8 GPUs, two GPUs each: sorted ring 0 1 8 9 16 17; 0-1, 8-9 and 16-17
    // are scale-up neighbours, 1-8, 9-16 and 17-0 cross the rails.
    auto r = RelayRequest({0, 1, 8, 9, 16, 17}, 6000, 2, 700);
    r.gpusPerServer = 8;
    Plans plans = PlanAndRun(r);
    ExpectRingNeighboursOnly(plans);
    EXPECT_FALSE(plans.begin()->second.hierarchical);
    EXPECT_EQ(plans.begin()->second.name, "ring-relay");
    // Electrical rails or an explicit ring: pairwise / direct as before.
    r.algorithm = WorkloadAlgorithm::RING;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "pairwise");
    r.algorithm = WorkloadAlgorithm::DIRECT;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "direct");
    r.algorithm = WorkloadAlgorithm::UNSPECIFIED;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "ring-relay");
    r.optical = false;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "direct");
}

TEST(CollectivePlan, PairwiseRoundWaitsForThePreviousRound)
{
    // Unchunked, n = 4: round i (1..3) sends to me + i and receives from me - i; its SEND
    // waits for exactly round i-1's SEND and RECV.
    Plans plans = PlanAll(Request(WorkloadOpType::ALLTOALL, {10, 20, 30, 40}, 400));
    const CollectivePlan& plan = plans.at(20);
    std::vector<const CollectiveTask*> sends;
    std::vector<uint32_t> sendIndex;
    for (uint32_t i = 0; i < plan.tasks.size(); ++i)
    {
        if (plan.tasks[i].kind == CollectiveTask::SEND)
        {
            sends.push_back(&plan.tasks[i]);
            sendIndex.push_back(i);
        }
    }
    ASSERT_EQ(sends.size(), 3u);
    EXPECT_EQ(sends[0]->peer, 30u);
    EXPECT_EQ(sends[1]->peer, 40u);
    EXPECT_EQ(sends[2]->peer, 10u);
    EXPECT_TRUE(sends[0]->deps.empty());
    for (int i = 1; i < 3; ++i)
    {
        ASSERT_EQ(sends[i]->deps.size(), 2u);
        const auto& a = plan.tasks[sends[i]->deps[0]];
        const auto& b = plan.tasks[sends[i]->deps[1]];
        EXPECT_EQ(sends[i]->deps[0], sendIndex[i - 1]);
        EXPECT_EQ(a.kind, CollectiveTask::SEND);
        EXPECT_EQ(b.kind, CollectiveTask::RECV);
        EXPECT_EQ(b.peer, std::vector<uint32_t>({10, 40})[i - 1]); // me - (i - 1)
    }
}

TEST(CollectivePlan, HalvingDoubling)
{
    const uint64_t divisible = DIVISIBLE;
    const auto hd = WorkloadAlgorithm::HALVING_DOUBLING;
    for (uint32_t n : {2u, 4u, 8u})
    {
        uint32_t log2n = n == 2 ? 1 : n == 4 ? 2 : 3;
        for (auto [channels, chunk] : SPLITS)
        {
            SCOPED_TRACE(Where(n, channels, chunk, divisible));
            Plans ar = PlanAndRun(
                Request(WorkloadOpType::ALLREDUCE, Iota(n), divisible, hd, channels, chunk));
            Plans ag = PlanAndRun(
                Request(WorkloadOpType::ALLGATHER, Iota(n), divisible, hd, channels, chunk));
            Plans rs = PlanAndRun(
                Request(WorkloadOpType::REDUCESCATTER, Iota(n), divisible, hd, channels, chunk));
            for (uint32_t rank = 0; rank < n; ++rank)
            {
                EXPECT_EQ(ar.at(rank).name, "halving-doubling");
                Totals t = Count(ar.at(rank));
                EXPECT_EQ(t.sent, 2 * (n - 1) * divisible / n);
                EXPECT_EQ(t.reduced, (n - 1) * divisible / n);
                EXPECT_LE(t.largest, chunk);
                // Partners are me XOR 2^j only; the first exchange (halving) moves S/2.
                for (const auto& [peer, bytes] : t.sentTo)
                {
                    uint32_t x = peer ^ rank;
                    EXPECT_EQ(x & (x - 1), 0u) << rank << " -> " << peer;
                    EXPECT_EQ(bytes, 2 * x * divisible / n); // S x / n each way, twice
                }
                // A strand's round waits for its previous round's SEND and REDUCE (or,
                // doubling, RECV); only the first halving round waits for nothing.
                uint64_t free = 0;
                for (const auto& task : ar.at(rank).tasks)
                {
                    if (task.kind != CollectiveTask::SEND)
                    {
                        continue;
                    }
                    free += task.deps.empty();
                    if (!task.deps.empty())
                    {
                        ASSERT_EQ(task.deps.size(), 2u);
                        EXPECT_EQ(ar.at(rank).tasks[task.deps[0]].kind, CollectiveTask::SEND);
                        EXPECT_NE(ar.at(rank).tasks[task.deps[1]].kind, CollectiveTask::SEND);
                    }
                }
                EXPECT_EQ(free, t.sends / (2 * log2n)) << "P strands in each of 2 log2 n rounds";
                EXPECT_EQ(Count(ag.at(rank)).sent, (n - 1) * divisible);
                EXPECT_EQ(Count(ag.at(rank)).reduced, 0u);
                EXPECT_EQ(Count(rs.at(rank)).sent, (n - 1) * divisible / n);
                EXPECT_EQ(Count(rs.at(rank)).reduced, (n - 1) * divisible / n);
            }
        }
        // Unchunked: log2 n halving rounds of exchange + REDUCE, log2 n doubling rounds.
        uint32_t rounds = 0;
        PlanAndRun(Request(WorkloadOpType::ALLREDUCE, Iota(n), 4096, hd), &rounds);
        EXPECT_EQ(rounds, 3 * log2n);
    }
}

TEST(CollectivePlan, DoubleBinaryTreeOfFive)
{
    // Hand-drawn, S = 2h. Tree A: 0 -> {1, 2}, 1 -> {3, 4}. Tree B (i at 4 - i):
    // 4 -> {3, 2}, 3 -> {1, 0}. Sent = h (children + 1 if not the root) per tree.
    const uint64_t h = 5000;
    const std::map<uint32_t, std::pair<uint64_t, uint64_t>> expected = {
        // rank: (sent, reduced)
        {0, {(2 + 0) * h + (0 + 1) * h, 2 * h}},
        {1, {(2 + 1) * h + (0 + 1) * h, 2 * h}},
        {2, {(0 + 1) * h + (0 + 1) * h, 0}},
        {3, {(0 + 1) * h + (2 + 1) * h, 2 * h}},
        {4, {(0 + 1) * h + (2 + 0) * h, 2 * h}},
    };
    for (auto [channels, chunk] : SPLITS)
    {
        SCOPED_TRACE(Where(5, channels, chunk, 2 * h));
        // Scrambled global ranks: indices are sorted positions.
        const std::vector<uint32_t> members = {70, 10, 50, 30, 90};
        Plans plans = PlanAndRun(Request(WorkloadOpType::ALLREDUCE,
                                         members,
                                         2 * h,
                                         WorkloadAlgorithm::TREE,
                                         channels,
                                         chunk));
        for (uint32_t i = 0; i < 5; ++i)
        {
            const CollectivePlan& plan = plans.at(10 + 20 * i);
            EXPECT_EQ(plan.name, "double-binary-tree");
            EXPECT_EQ(Count(plan).sent, expected.at(i).first) << "index " << i;
            EXPECT_EQ(Count(plan).reduced, expected.at(i).second) << "index " << i;
            EXPECT_LE(Count(plan).largest, chunk);
        }
        // Index 0 talks to 1 and 2 in tree A and to its parent 3 in tree B.
        const auto& to = Count(plans.at(10)).sentTo;
        EXPECT_EQ(to.at(30), h);
        EXPECT_EQ(to.at(50), h);
        EXPECT_EQ(to.at(70), h);
        EXPECT_EQ(to.count(90), 0u);
    }
}

TEST(CollectivePlan, DoubleBinaryTreeBytesAnySize)
{
    const uint64_t s = 6000;
    for (uint32_t n : SIZES)
    {
        Plans plans = PlanAndRun(
            Request(WorkloadOpType::ALLREDUCE, Iota(n), s, WorkloadAlgorithm::TREE, 2, 700));
        auto children = [n](uint32_t node) {
            return uint64_t(2 * node + 1 < n) + uint64_t(2 * node + 2 < n);
        };
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t b = n - 1 - i;
            uint64_t sent = s / 2 * (children(i) + (i > 0)) + s / 2 * (children(b) + (b > 0));
            EXPECT_EQ(Count(plans.at(i)).sent, sent) << "n=" << n << " i=" << i;
            EXPECT_EQ(Count(plans.at(i)).reduced, s / 2 * (children(i) + children(b)));
        }
    }
}

TEST(CollectivePlan, ChainBroadcastAndReduce)
{
    // Sorted 2, 4, 7, 9, 12; root 7. Broadcast chain 7 9 12 2 4; reduce chain 9 12 2 4 7.
    const std::vector<uint32_t> members = {9, 2, 7, 4, 12};
    const uint64_t s = 10000;
    for (auto [channels, chunk] : SPLITS)
    {
        SCOPED_TRACE(Where(5, channels, chunk, s));
        auto r = Request(WorkloadOpType::BROADCAST,
                         members,
                         s,
                         WorkloadAlgorithm::RING,
                         channels,
                         chunk);
        r.root = 7;
        uint32_t rounds = 0;
        Plans plans = PlanAndRun(r, &rounds);
        EXPECT_EQ(rounds, 4u); // chunks pipeline: still n-1 rounds
        const std::map<uint32_t, uint64_t> sent = {{7, s}, {9, s}, {12, s}, {2, s}, {4, 0}};
        for (const auto& [rank, plan] : plans)
        {
            EXPECT_EQ(plan.name, "chain");
            EXPECT_EQ(Count(plan).sent, sent.at(rank)) << rank;
            EXPECT_EQ(Count(plan).received, rank == 7 ? 0 : s) << rank;
            EXPECT_EQ(Count(plan).reduced, 0u);
        }
        EXPECT_EQ(Count(plans.at(7)).sentTo.at(9), s);

        r.type = WorkloadOpType::REDUCE;
        plans = PlanAndRun(r, &rounds);
        EXPECT_EQ(rounds, 8u); // 4 hops, each a RECV then a REDUCE
        for (const auto& [rank, plan] : plans)
        {
            EXPECT_EQ(plan.name, "chain");
            EXPECT_EQ(Count(plan).sent, rank == 7 ? 0 : s) << rank;
            EXPECT_EQ(Count(plan).reduced, rank == 9 ? 0 : s) << rank;
        }
        EXPECT_EQ(Count(plans.at(4)).sentTo.at(7), s);
    }
}

TEST(CollectivePlan, DisseminationBarrier)
{
    const std::map<uint32_t, uint32_t> rounds = {{2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}};
    for (const auto& [n, expected] : rounds)
    {
        auto r = Request(WorkloadOpType::BARRIER, Iota(n), 12345, WorkloadAlgorithm::AUTO);
        uint32_t ran = 0;
        Plans plans = PlanAndRun(r, &ran);
        EXPECT_EQ(ran, expected) << "n=" << n;
        for (const auto& [rank, plan] : plans)
        {
            EXPECT_EQ(plan.name, "dissemination");
            EXPECT_EQ(plan.algorithm, WorkloadAlgorithm::DIRECT);
            EXPECT_EQ(Count(plan).sends, expected);
            EXPECT_EQ(Count(plan).sent, expected); // 1 byte each
            EXPECT_EQ(Count(plan).sentTo.count((rank + 1) % n), 1u);
        }
    }
}

TEST(CollectivePlan, SingleMemberGetsAnEmptyPlan)
{
    for (auto type : {WorkloadOpType::ALLREDUCE,
                      WorkloadOpType::ALLGATHER,
                      WorkloadOpType::REDUCESCATTER,
                      WorkloadOpType::ALLTOALL,
                      WorkloadOpType::BROADCAST,
                      WorkloadOpType::REDUCE,
                      WorkloadOpType::BARRIER})
    {
        auto r = Request(type, {42}, 1000, WorkloadAlgorithm::AUTO);
        r.rank = 42;
        r.root = 42;
        CollectivePlan plan = CollectivePlanner::Plan(r);
        EXPECT_TRUE(plan.tasks.empty()) << WorkloadOpTypeName(type);
        EXPECT_FALSE(plan.name.empty());
    }
}

TEST(CollectivePlan, InvalidRequestsThrowWithAReason)
{
    auto reason = [](CollectiveRequest r) -> std::string {
        try
        {
            CollectivePlanner::Plan(r);
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "(no exception)";
    };
    auto expect = [&](const CollectiveRequest& r, const std::string& part) {
        std::string what = reason(r);
        EXPECT_NE(what.find(part), std::string::npos) << "'" << what << "' lacks '" << part << "'";
        EXPECT_EQ(what.find('\n'), std::string::npos);
    };
    auto r = Request(WorkloadOpType::ALLREDUCE, {0, 1, 2}, 100);
    r.rank = 5;
    expect(r, "rank 5 is not a member");
    r = Request(WorkloadOpType::ALLREDUCE, {0, 1, 1}, 100);
    expect(r, "rank 1 is twice");
    r = Request(WorkloadOpType::BROADCAST, {0, 1, 2}, 100);
    r.root = 7;
    expect(r, "root 7 is not a member");
    expect(Request(WorkloadOpType::COMPUTE, {0, 1}, 100), "compute is not a collective");
    expect(Request(WorkloadOpType::SEND, {0, 1}, 100), "send is not a collective");
    expect(Request(WorkloadOpType::ALLREDUCE, {}, 100), "no members");
    expect(Request(WorkloadOpType::ALLREDUCE, {0, 1, 2}, 100, WorkloadAlgorithm::HALVING_DOUBLING),
           "power-of-two group, not 3");
    expect(Request(WorkloadOpType::ALLGATHER, Iota(6), 100, WorkloadAlgorithm::HALVING_DOUBLING),
           "power-of-two group, not 6");
    expect(Request(WorkloadOpType::ALLGATHER, {0, 1}, 100, WorkloadAlgorithm::TREE),
           "tree does not apply to allgather");
    expect(Request(WorkloadOpType::ALLREDUCE, {0, 1}, 100, WorkloadAlgorithm::DIRECT),
           "direct does not apply to allreduce");
    expect(Request(WorkloadOpType::ALLTOALL, {0, 1}, 100, WorkloadAlgorithm::TREE),
           "tree does not apply to alltoall");
    for (auto algorithm :
         {WorkloadAlgorithm::TREE, WorkloadAlgorithm::DIRECT, WorkloadAlgorithm::HALVING_DOUBLING})
    {
        auto b = Request(WorkloadOpType::BROADCAST, {0, 1}, 100, algorithm);
        expect(b, "does not apply to broadcast");
        b.type = WorkloadOpType::REDUCE;
        expect(b, "does not apply to reduce");
    }
    expect(Request(WorkloadOpType::BARRIER, {0, 1}, 0, WorkloadAlgorithm::RING),
           "barrier takes no algorithm");
    r = Request(WorkloadOpType::ALLREDUCE, {0, 1}, 100);
    r.channels = 0;
    expect(r, "channels");
    r = Request(WorkloadOpType::ALLREDUCE, {0, 1}, 100);
    r.chunkBytes = 0;
    expect(r, "chunkBytes");
    // Invalid even for a group of one: the algorithm never applies.
    r = Request(WorkloadOpType::BROADCAST, {3}, 100, WorkloadAlgorithm::TREE);
    r.rank = 3;
    r.root = 3;
    expect(r, "tree does not apply to broadcast");
}

TEST(CollectivePlan, ChooseRule)
{
    auto choose = [](WorkloadOpType type, uint32_t n, uint64_t bytes, bool optical) {
        auto r = Request(type, Iota(n), bytes, WorkloadAlgorithm::AUTO);
        r.optical = optical;
        return CollectivePlanner::Choose(r);
    };
    const uint64_t mib = 1 << 20;
    for (auto type : {WorkloadOpType::ALLREDUCE,
                      WorkloadOpType::ALLGATHER,
                      WorkloadOpType::REDUCESCATTER,
                      WorkloadOpType::ALLTOALL,
                      WorkloadOpType::BROADCAST,
                      WorkloadOpType::REDUCE})
    {
        EXPECT_EQ(choose(type, 8, 1024, true), WorkloadAlgorithm::RING);
    }
    // Allreduce: the ring on both kinds of rails, whatever the size (issue 11, item 4).
    for (uint64_t bytes : {uint64_t(1), uint64_t(1024), mib, mib + 1, uint64_t(1) << 34})
    {
        for (uint32_t n : {2u, 3u, 4u, 8u, 64u})
        {
            EXPECT_EQ(choose(WorkloadOpType::ALLREDUCE, n, bytes, false), WorkloadAlgorithm::RING);
            EXPECT_EQ(choose(WorkloadOpType::ALLREDUCE, n, bytes, true), WorkloadAlgorithm::RING);
        }
    }
    EXPECT_EQ(choose(WorkloadOpType::ALLTOALL, 8, 1024, false), WorkloadAlgorithm::DIRECT);
    EXPECT_EQ(choose(WorkloadOpType::ALLGATHER, 8, 1024, false), WorkloadAlgorithm::RING);
    EXPECT_EQ(choose(WorkloadOpType::BROADCAST, 8, 1024, false), WorkloadAlgorithm::RING);
    EXPECT_EQ(choose(WorkloadOpType::BARRIER, 8, 0, false), WorkloadAlgorithm::DIRECT);
    EXPECT_EQ(choose(WorkloadOpType::BARRIER, 8, 0, true), WorkloadAlgorithm::DIRECT);
    EXPECT_THROW(choose(WorkloadOpType::COMPUTE, 8, 0, true), std::invalid_argument);

    // Plan follows Choose for AUTO and UNSPECIFIED; an explicit algorithm is kept.
    auto r = Request(WorkloadOpType::ALLREDUCE, Iota(8), 1024, WorkloadAlgorithm::UNSPECIFIED);
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "ring");
    r.algorithm = WorkloadAlgorithm::TREE;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "double-binary-tree");
    r.algorithm = WorkloadAlgorithm::RING;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "ring");
    r.optical = true;
    r.algorithm = WorkloadAlgorithm::AUTO;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "ring");
    r.type = WorkloadOpType::ALLTOALL;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "ring-relay");
    EXPECT_EQ(CollectivePlanner::Plan(r).algorithm, WorkloadAlgorithm::RING);
    r.algorithm = WorkloadAlgorithm::RING; // explicit: the pairwise exchange as before
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "pairwise");
    r.algorithm = WorkloadAlgorithm::AUTO;
    r.optical = false;
    EXPECT_EQ(CollectivePlanner::Plan(r).name, "direct");
}

TEST(CollectivePlan, APlanBeyondMaxTasksIsRefused)
{
    // Ring allreduce of S = 2^20 bytes on 2 ranks, one channel: a reducescatter step and an
    // allgather step of S/2 each. In 1-byte chunks that is 2^19 chunks of send, receive and
    // reduce, then 2^19 of send and receive: 2.5 x 2^20 tasks, refused; in 1 MiB chunks, a
    // handful.
    auto r = Request(WorkloadOpType::ALLREDUCE, {0, 1}, uint64_t(1) << 20, WorkloadAlgorithm::RING);
    r.chunkBytes = 1;
    try
    {
        CollectivePlanner::Plan(r);
        FAIL() << "a plan of millions of tasks was built";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("needs more than 1048576 sends, receives and "
                                             "reductions"),
                  std::string::npos)
            << e.what();
    }
    r.chunkBytes = 1 << 20;
    EXPECT_LT(CollectivePlanner::Plan(r).tasks.size(), 16u);
}

TEST(CollectivePlan, MergedRingStepsKeepEveryPeersBytes)
{
    // AggregateSteps: one SEND and one RECV per neighbour carrying what the chunked plan
    // moves to and from it, one REDUCE of all its reduced bytes after the RECVs, and the
    // members' merged plans still pair up (a -> b sends = b <- a receives).
    for (bool optical : {false, true})
    {
        for (uint32_t n : {2u, 3u, 5u, 8u})
        {
            for (WorkloadOpType type : {WorkloadOpType::ALLGATHER,
                                        WorkloadOpType::REDUCESCATTER,
                                        WorkloadOpType::ALLREDUCE})
            {
                CollectiveRequest request =
                    Request(type, Iota(n), 1001 * n + 7, WorkloadAlgorithm::RING, 2, 100);
                request.optical = optical;
                std::map<std::pair<uint32_t, uint32_t>, uint64_t> sent;
                std::map<std::pair<uint32_t, uint32_t>, uint64_t> received;
                for (const auto& [rank, chunked] : PlanAll(request))
                {
                    ASSERT_TRUE(CollectivePlanner::CanAggregate(chunked));
                    CollectivePlan merged = CollectivePlanner::AggregateSteps(chunked);
                    EXPECT_TRUE(merged.aggregated);
                    EXPECT_EQ(merged.name, "ring");
                    EXPECT_FALSE(CollectivePlanner::CanAggregate(merged));
                    Totals before = Count(chunked);
                    Totals after = Count(merged);
                    EXPECT_EQ(after.sentTo, before.sentTo);
                    EXPECT_EQ(after.recvFrom, before.recvFrom);
                    EXPECT_EQ(after.reduced, before.reduced);
                    // Channels and chunks cut the same bytes finer: merging the uncut plan
                    // (what the communicator does) gives the same tasks.
                    CollectiveRequest uncut = request;
                    uncut.rank = rank;
                    uncut.channels = 1;
                    uncut.chunkBytes = HUGE_CHUNK;
                    CollectivePlan fromUncut =
                        CollectivePlanner::AggregateSteps(CollectivePlanner::Plan(uncut));
                    ASSERT_EQ(fromUncut.tasks.size(), merged.tasks.size());
                    for (std::size_t i = 0; i < merged.tasks.size(); ++i)
                    {
                        EXPECT_EQ(fromUncut.tasks[i].kind, merged.tasks[i].kind);
                        EXPECT_EQ(fromUncut.tasks[i].peer, merged.tasks[i].peer);
                        EXPECT_EQ(fromUncut.tasks[i].bytes, merged.tasks[i].bytes);
                    }
                    // A ring member talks to its two neighbours at most, once each way.
                    EXPECT_EQ(after.sends, before.sentTo.size());
                    EXPECT_LE(after.sends, 2u);
                    for (const CollectiveTask& task : merged.tasks)
                    {
                        EXPECT_EQ(task.deps.empty(), task.kind != CollectiveTask::REDUCE);
                        if (task.kind == CollectiveTask::SEND)
                        {
                            sent[{rank, task.peer}] += task.bytes;
                        }
                        else if (task.kind == CollectiveTask::RECV)
                        {
                            received[{task.peer, rank}] += task.bytes;
                        }
                    }
                }
                EXPECT_EQ(sent, received) << "n=" << n << " optical=" << optical;
            }
        }
    }
}

TEST(CollectivePlan, MergedRingAllGatherClosedForm)
{
    // One way round, a member of an n-ring allgather of S sends (n-1)S to the next member
    // and receives (n-1)S from the previous one, in one message each.
    const uint64_t bytes = 3000;
    for (uint32_t n : {2u, 4u, 7u})
    {
        CollectiveRequest request =
            Request(WorkloadOpType::ALLGATHER, Iota(n), bytes, WorkloadAlgorithm::RING, 2, 512);
        request.rank = 1;
        CollectivePlan merged = CollectivePlanner::AggregateSteps(CollectivePlanner::Plan(request));
        std::map<uint32_t, uint64_t> next{{2 % n, (n - 1) * bytes}};
        std::map<uint32_t, uint64_t> previous{{0, (n - 1) * bytes}};
        EXPECT_EQ(Count(merged).sentTo, next) << "n=" << n;
        EXPECT_EQ(Count(merged).recvFrom, previous) << "n=" << n;
        EXPECT_EQ(merged.tasks.size(), 2u);
    }
}

TEST(CollectivePlan, OnlyFlatRingsMerge)
{
    CollectiveRequest grid =
        Request(WorkloadOpType::ALLREDUCE, Iota(8), 8000, WorkloadAlgorithm::RING, 1, 512);
    grid.gpusPerServer = 4; // two servers of four: hierarchical
    EXPECT_FALSE(CollectivePlanner::CanAggregate(CollectivePlanner::Plan(grid)));
    CollectiveRequest optical =
        Request(WorkloadOpType::ALLTOALL, Iota(6), 6000, WorkloadAlgorithm::AUTO);
    optical.optical = true; // ring-relay
    EXPECT_FALSE(CollectivePlanner::CanAggregate(CollectivePlanner::Plan(optical)));

    struct Case
    {
        WorkloadOpType type;
        WorkloadAlgorithm algorithm;
    };

    for (Case c : {Case{WorkloadOpType::ALLREDUCE, WorkloadAlgorithm::HALVING_DOUBLING},
                   Case{WorkloadOpType::ALLREDUCE, WorkloadAlgorithm::TREE},
                   Case{WorkloadOpType::ALLTOALL, WorkloadAlgorithm::RING},
                   Case{WorkloadOpType::ALLTOALL, WorkloadAlgorithm::DIRECT},
                   Case{WorkloadOpType::BROADCAST, WorkloadAlgorithm::RING},
                   Case{WorkloadOpType::BARRIER, WorkloadAlgorithm::AUTO}})
    {
        CollectivePlan plan = CollectivePlanner::Plan(Request(c.type, Iota(8), 8000, c.algorithm));
        EXPECT_FALSE(CollectivePlanner::CanAggregate(plan)) << plan.name;
    }
    EXPECT_TRUE(CollectivePlanner::CanAggregate(
        CollectivePlanner::Plan(Request(WorkloadOpType::REDUCESCATTER, Iota(8), 8000))));
}

// The registry lists every explicit algorithm once, in the enum's order, with the names the
// DAG format uses; the help and error texts are built from this list.
TEST(CollectiveAlgorithmRegistry, ListsTheExplicitAlgorithmsInTheEnumOrder)
{
    EXPECT_EQ(CollectiveAlgorithmRegistry::Names(", ", " or "),
              "ring, direct, halving-doubling or tree");
    EXPECT_EQ(CollectiveAlgorithmRegistry::Names("|", "|"), "ring|direct|halving-doubling|tree");
    EXPECT_EQ(CollectiveAlgorithmRegistry::Find(WorkloadAlgorithm::AUTO), nullptr);
    EXPECT_EQ(CollectiveAlgorithmRegistry::Find(WorkloadAlgorithm::UNSPECIFIED), nullptr);
    for (const CollectiveAlgorithm& algorithm : CollectiveAlgorithmRegistry::All())
    {
        EXPECT_EQ(CollectiveAlgorithmRegistry::Find(algorithm.id), &algorithm);
        EXPECT_NE(algorithm.planner, nullptr) << algorithm.Name();
    }
}

// Where each algorithm applies, hand-copied from the table the planner documents (allreduce:
// ring, halving-doubling, tree; allgather, reducescatter: ring, halving-doubling; alltoall:
// ring, direct; broadcast, reduce: ring; barrier: none), and halving-doubling's group rule
// against sizes picked by hand: 1, 2, 4 and 8 are powers of two, 3, 6 and 12 are not.
TEST(CollectiveAlgorithmRegistry, AppliesWhereThePlannerDocumentsIt)
{
    using T = WorkloadOpType;
    using A = WorkloadAlgorithm;
    const std::map<A, std::set<T>> expected = {
        {A::RING,
         {T::ALLREDUCE, T::ALLGATHER, T::REDUCESCATTER, T::ALLTOALL, T::BROADCAST, T::REDUCE}},
        {A::DIRECT, {T::ALLTOALL}},
        {A::HALVING_DOUBLING, {T::ALLREDUCE, T::ALLGATHER, T::REDUCESCATTER}},
        {A::TREE, {T::ALLREDUCE}},
    };
    const T types[] = {T::ALLREDUCE,
                       T::ALLGATHER,
                       T::REDUCESCATTER,
                       T::ALLTOALL,
                       T::BROADCAST,
                       T::REDUCE,
                       T::BARRIER};
    for (const auto& [id, applies] : expected)
    {
        const CollectiveAlgorithm* algorithm = CollectiveAlgorithmRegistry::Find(id);
        ASSERT_NE(algorithm, nullptr);
        for (T type : types)
        {
            EXPECT_EQ(algorithm->Applies(type), applies.count(type) > 0)
                << algorithm->Name() << " " << WorkloadOpTypeName(type);
            // The planner's check agrees (a group of 4 passes every group rule).
            EXPECT_EQ(CollectivePlanner::CheckAlgorithm(type, id, 4).empty(),
                      applies.count(type) > 0);
        }
    }
    const CollectiveAlgorithm* hd = CollectiveAlgorithmRegistry::Find(A::HALVING_DOUBLING);
    for (uint32_t members : {1u, 2u, 4u, 8u})
    {
        EXPECT_EQ(hd->groupRule(members), "") << members;
    }
    for (uint32_t members : {3u, 6u, 12u})
    {
        EXPECT_EQ(hd->groupRule(members),
                  "halving-doubling needs a power-of-two group, not " + std::to_string(members) +
                      " members");
    }
    for (A id : {A::RING, A::DIRECT, A::TREE})
    {
        EXPECT_EQ(CollectiveAlgorithmRegistry::Find(id)->groupRule, nullptr);
    }
}

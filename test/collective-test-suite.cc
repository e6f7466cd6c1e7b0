/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The collective engine and the rank runtime on small fabrics: ring collectives, all-to-all
 * (direct, and ring-relay on rings of circuits) and send/recv against their closed forms on
 * one electrical switch and on pre-set optical circuits, a two-stage 1F1B pipeline against its
 * hand-computed makespan, byte conservation, determinism, and the report of a run that cannot
 * finish.
 */

#include "job-test-bed.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <cmath>
#include <sstream>

using namespace ns3;
using namespace ns3::tests;

namespace
{

WorkloadOp
Collective(uint32_t rank, uint32_t id, WorkloadOpType type, std::string group, uint64_t bytes)
{
    WorkloadOp op;
    op.rank = rank;
    op.id = id;
    op.type = type;
    op.group = group;
    op.bytes = bytes;
    return op;
}

WorkloadOp
Compute(uint32_t rank, uint32_t id, double us, std::vector<uint32_t> deps = {})
{
    WorkloadOp op;
    op.rank = rank;
    op.id = id;
    op.type = WorkloadOpType::COMPUTE;
    op.durationUs = us;
    op.deps = deps;
    return op;
}

WorkloadOp
PointToPoint(uint32_t rank,
             uint32_t id,
             WorkloadOpType type,
             uint32_t peer,
             uint64_t bytes,
             std::vector<uint32_t> deps = {},
             std::string stream = "")
{
    WorkloadOp op;
    op.rank = rank;
    op.id = id;
    op.type = type;
    op.peer = peer;
    op.tag = 1;
    op.bytes = bytes;
    op.deps = deps;
    op.stream = stream;
    return op;
}

/// Every rank of a group runs one collective of \p type on it.
std::vector<WorkloadOp>
OnEveryRank(uint32_t ranks, WorkloadOpType type, uint64_t bytes, WorkloadAlgorithm algorithm)
{
    std::vector<WorkloadOp> ops;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        ops.push_back(Collective(r, 0, type, "all", bytes));
        ops.back().algorithm = algorithm;
    }
    return ops;
}

WorkloadDag::GroupMap
AllRanks(uint32_t ranks)
{
    std::vector<uint32_t> members(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        members[r] = r;
    }
    return {{"all", members}};
}

} // namespace

/// Ring AllGather, ReduceScatter and AllReduce take (n-1)S/B, (n-1)S/(nB), 2(n-1)S/(nB), in
/// the packet model (within 2%) and in the flow model (within 1%: its fair shares end both
/// channels' steps together, where the packet model's round robin ends one a frame earlier,
/// so a step of one chunk per channel exposes a little more of the last frame's trip).
class RingClosedFormTestCase : public TestCase
{
  public:
    /// \param network "packet" or "flow"
    explicit RingClosedFormTestCase(const std::string& network)
        : TestCase("ring collectives on one switch take their closed-form time (" + network + ")"),
          m_network(network),
          m_tolerance(network == "flow" ? 0.01 : 0.02)
    {
    }

  private:
    /// Runs one collective on n ranks; returns (completion ns, bytes sent by all ranks).
    std::pair<double, uint64_t> Run(WorkloadOpType type, uint32_t n, uint64_t bytes)
    {
        JobBed bed(
            Spec(n, RailKind::EPS),
            WorkloadDag(n, AllRanks(n), OnEveryRank(n, type, bytes, WorkloadAlgorithm::RING)),
            1,
            m_network);
        bed.Run();
        NS_TEST_EXPECT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        NS_TEST_EXPECT_MSG_EQ(bed.BytesSent(), bed.BytesReceived(), "bytes conserved");
        return {bed.LastEndNs(0), bed.BytesSent()};
    }

    void DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t s = 4 << 20; // 4 MiB, a whole number of frames in every chunk
        const double frame = FrameNs(100e9);
        const double path = frame + SWITCH_NS + 2 * LINK_NS; // last frame's extra trip
        // AllGather: every NIC sends (n-1) S back to back while receiving as much.
        auto [ag, agBytes] = Run(WorkloadOpType::ALLGATHER, n, s);
        double agExpected = (n - 1) * (s / MTU) * frame + path;
        NS_TEST_ASSERT_MSG_EQ_TOL(ag, agExpected, m_tolerance * agExpected, "ring allgather");
        NS_TEST_ASSERT_MSG_EQ(agBytes, uint64_t(n) * (n - 1) * s, "allgather moves n(n-1)S");
        // ReduceScatter: n-1 steps of S/n.
        auto [rs, rsBytes] = Run(WorkloadOpType::REDUCESCATTER, n, s);
        double rsExpected = (n - 1) * (s / n / MTU) * frame + path;
        NS_TEST_ASSERT_MSG_EQ_TOL(rs, rsExpected, m_tolerance * rsExpected, "ring reducescatter");
        NS_TEST_ASSERT_MSG_EQ(rsBytes, uint64_t(n - 1) * s, "reducescatter moves (n-1)S");
        // AllReduce = ReduceScatter + AllGather of S/n blocks.
        auto [ar, arBytes] = Run(WorkloadOpType::ALLREDUCE, n, s);
        double arExpected = 2 * (n - 1) * (s / n / MTU) * frame + path;
        NS_TEST_ASSERT_MSG_EQ_TOL(ar, arExpected, m_tolerance * arExpected, "ring allreduce");
        NS_TEST_ASSERT_MSG_EQ(arBytes, uint64_t(2) * (n - 1) * s, "allreduce moves 2(n-1)S");
    }

    std::string m_network; //!< Network model
    double m_tolerance;    //!< Relative tolerance of the closed forms
};

/// With AggregateRings (merged steps) the ring collectives take the same closed forms:
/// one message per edge carries the n-1 steps back to back, as the chunks kept the links
/// busy. Every member ends at the same instant (the finish rendezvous), and a member that
/// starts late by D delays the whole ring by D in both granularities, because its block
/// must still go round.
class MergedRingStepsTestCase : public TestCase
{
  public:
    /// \param network "packet" or "flow"
    explicit MergedRingStepsTestCase(const std::string& network)
        : TestCase("merged ring steps take the closed-form time, end together and wait for "
                   "a late member (" +
                   network + ")"),
          m_network(network)
    {
    }

  private:
    static constexpr uint32_t N = 4;
    static constexpr uint64_t S = 4 << 20; // 4 MiB: whole frames in every block

    /// Runs one collective, member 0 starting after \p lateUs; returns its end (ns) after
    /// checking that every member finished at that instant, if merged, with every byte.
    double Run(WorkloadOpType type, bool merged, double lateUs = 0)
    {
        std::vector<WorkloadOp> ops;
        for (uint32_t r = 0; r < N; ++r)
        {
            ops.push_back(Compute(r, 0, r == 0 ? lateUs : 0));
            ops.push_back(Collective(r, 1, type, "all", S));
            ops.back().deps = {0};
        }
        JobBed bed(Spec(N, RailKind::EPS), WorkloadDag(N, AllRanks(N), ops), 1, m_network, merged);
        bed.Run();
        NS_TEST_EXPECT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        NS_TEST_EXPECT_MSG_EQ(bed.BytesSent(), bed.BytesReceived(), "bytes conserved");
        for (uint32_t r = 1; merged && r < N; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(bed.EndNs(r, 1), bed.EndNs(0, 1), "members end together");
        }
        return bed.LastEndNs(1);
    }

    void DoRun() override
    {
        const double frame = FrameNs(100e9);
        const double path = frame + SWITCH_NS + 2 * LINK_NS; // last frame's extra trip

        struct Case
        {
            WorkloadOpType type;
            double frames; // per NIC, back to back
        };

        for (Case c : {Case{WorkloadOpType::ALLGATHER, double((N - 1) * (S / MTU))},
                       Case{WorkloadOpType::REDUCESCATTER, double((N - 1) * (S / N / MTU))},
                       Case{WorkloadOpType::ALLREDUCE, double(2 * (N - 1) * (S / N / MTU))}})
        {
            double expected = c.frames * frame + path;
            NS_TEST_EXPECT_MSG_EQ_TOL(Run(c.type, true),
                                      expected,
                                      0.005 * expected,
                                      WorkloadOpTypeName(c.type) << " merged");
        }
        const double late = 1000; // us
        double expected = (N - 1) * (S / MTU) * frame + path + late * 1e3;
        NS_TEST_EXPECT_MSG_EQ_TOL(Run(WorkloadOpType::ALLGATHER, true, late),
                                  expected,
                                  0.005 * expected,
                                  "merged allgather waits for the late member");
        NS_TEST_EXPECT_MSG_EQ_TOL(Run(WorkloadOpType::ALLGATHER, false, late),
                                  expected,
                                  0.02 * expected,
                                  "chunked allgather waits for it as long");
    }

    std::string m_network; //!< Network model
};

/// A merged ring whose third member never starts: the two others wait at the start
/// rendezvous, send nothing, and say how many members they wait for.
class MergedRingStuckTestCase : public TestCase
{
  public:
    MergedRingStuckTestCase()
        : TestCase("a merged ring missing a member reports the members it waits for")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<WorkloadOp> ops{Collective(0, 0, WorkloadOpType::ALLGATHER, "all", 3000),
                                    Collective(1, 0, WorkloadOpType::ALLGATHER, "all", 3000),
                                    PointToPoint(2, 0, WorkloadOpType::RECV, 1, 100),
                                    Collective(2, 1, WorkloadOpType::ALLGATHER, "all", 3000)};
        ops.back().deps = {0};
        JobBed bed(Spec(3, RailKind::EPS), WorkloadDag(3, AllRanks(3), ops), 1, "flow", true);
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.AllFinished(), false, "the ring cannot run");
        NS_TEST_ASSERT_MSG_EQ(bed.BytesSent(), 0, "nobody sent before the members met");
        for (uint32_t rank : {0, 1})
        {
            std::vector<std::string> waits = bed.communicators[rank]->DescribeBlocked();
            NS_TEST_ASSERT_MSG_EQ(waits.size(), 1, "one call");
            NS_TEST_ASSERT_MSG_EQ(waits[0],
                                  "g:all#0 (allgather, ring, steps aggregated): 2 of 2 steps "
                                  "left; waits for 1 of 3 members to start it (rank 2)",
                                  "what it waits for");
        }
    }
};

/// Direct AllToAll: each NIC sends (n-1)S/n, or with a lone GPU on the last server the PXN
/// proxies' share; Send/Recv: one message on an idle path.
class AllToAllAndSendRecvTestCase : public TestCase
{
  public:
    /// \param network "packet" or "flow"
    explicit AllToAllAndSendRecvTestCase(const std::string& network)
        : TestCase("direct all-to-all and send-recv take their closed-form time (" + network + ")"),
          m_network(network),
          m_tolerance(network == "flow" ? 0.01 : 0.02)
    {
    }

  private:
    void DoRun() override
    {
        const double frame = FrameNs(100e9);
        const double path = frame + SWITCH_NS + 2 * LINK_NS;
        {
            const uint32_t n = 4;
            const uint64_t s = 4 << 20;
            JobBed bed(
                Spec(n, RailKind::EPS),
                WorkloadDag(n,
                            AllRanks(n),
                            OnEveryRank(n, WorkloadOpType::ALLTOALL, s, WorkloadAlgorithm::DIRECT)),
                1,
                m_network);
            bed.Run();
            double expected = (n - 1) * (s / n / MTU) * frame + path;
            NS_TEST_ASSERT_MSG_EQ_TOL(bed.LastEndNs(0),
                                      expected,
                                      m_tolerance * expected,
                                      "alltoall");
            NS_TEST_ASSERT_MSG_EQ(bed.BytesSent(), uint64_t(n - 1) * s, "(n-1)S/n per rank");
        }
        {
            // 9 ranks, 2 GPUs per server: rank 8 is alone on the last server. Its port receives
            // 8 blocks (4 from rail 0, 4 relayed there by PXN), and GPUs 0, 2, 4 and 6 send 8
            // (4 of their own, 4 for their neighbour), so 8 blocks of 128 frames bound it. At
            // packet level DCQCN throttles that 8-to-1 incast (issue 27): ECN marking off.
            const uint32_t n = 9;
            const uint64_t s = n * (512 << 10);
            Config::SetDefault("ns3::EpsSwitch::EcnEnabled", BooleanValue(false));
            JobBed bed(
                Spec(5, RailKind::EPS, 2),
                WorkloadDag(n,
                            AllRanks(n),
                            OnEveryRank(n, WorkloadOpType::ALLTOALL, s, WorkloadAlgorithm::DIRECT)),
                1,
                m_network);
            bed.Run();
            Config::SetDefault("ns3::EpsSwitch::EcnEnabled", BooleanValue(true));
            double expected = 8 * 128 * frame + path;
            NS_TEST_ASSERT_MSG_EQ_TOL(bed.LastEndNs(0),
                                      expected,
                                      m_tolerance * expected,
                                      "alltoall, 9 ranks on 5 servers of 2 GPUs");
        }
        {
            // 1 MiB: 256 frames, then the last one's trip; the receive ends on arrival.
            const uint64_t s = 1 << 20;
            JobBed bed(Spec(2, RailKind::EPS),
                       WorkloadDag(2,
                                   {},
                                   {PointToPoint(0, 0, WorkloadOpType::SEND, 1, s),
                                    PointToPoint(1, 0, WorkloadOpType::RECV, 0, s)}),
                       1,
                       m_network);
            bed.Run();
            NS_TEST_ASSERT_MSG_EQ_TOL(bed.EndNs(1, 0), 256 * frame + path, 1.0, "recv");
            NS_TEST_ASSERT_MSG_GT(bed.EndNs(0, 0),
                                  bed.EndNs(1, 0),
                                  "the send ends when acknowledged, after the receive");
        }
    }

    std::string m_network; //!< Network model
    double m_tolerance;    //!< Relative tolerance of the closed forms
};

/// Collectives whose next step opens a queue pair to a new peer from inside the callback of
/// an acknowledgement (dissemination barrier, halving-doubling, pairwise all-to-all): they
/// once read a queue pair the transport had just moved (issue 11, item 1). Each completes
/// in its closed-form time with every byte delivered.
class NewPeerFromAcknowledgementTestCase : public TestCase
{
  public:
    NewPeerFromAcknowledgementTestCase()
        : TestCase("collectives that open queue pairs from acknowledgements complete on time")
    {
    }

  private:
    /// Runs one collective on n one-GPU servers with one 100G port each; returns its end, ns.
    double Run(WorkloadOpType type, uint32_t n, uint64_t bytes, WorkloadAlgorithm algorithm)
    {
        JobBed bed(Spec(n, RailKind::EPS),
                   WorkloadDag(n, AllRanks(n), OnEveryRank(n, type, bytes, algorithm)));
        bed.Run();
        NS_TEST_EXPECT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        NS_TEST_EXPECT_MSG_EQ(bed.BytesSent(), bed.BytesReceived(), "bytes conserved");
        return bed.LastEndNs(0);
    }

    void DoRun() override
    {
        const double frame = FrameNs(100e9);
        const double path = frame + SWITCH_NS + 2 * LINK_NS; // a full frame's extra trip
        const uint64_t s = 4 << 20;
        const double sFrames = s / MTU;
        // Halving-doubling: every round exchanges with one partner, full duplex, so each
        // NIC sends its bytes back to back; each round adds at most one frame's trip.
        // Allreduce sends 2(n-1)S/n in 2 log2(n) rounds.
        for (uint32_t n : {2u, 4u, 8u})
        {
            double rounds = 2 * std::log2(n);
            double expected = 2.0 * (n - 1) / n * sFrames * frame + rounds * path;
            double end = Run(WorkloadOpType::ALLREDUCE, n, s, WorkloadAlgorithm::HALVING_DOUBLING);
            NS_TEST_EXPECT_MSG_EQ_TOL(end, expected, 0.02 * expected, "hd allreduce n=" << n);
        }
        // Allgather of S shards sends (n-1)S, reducescatter (n-1)S/n, in log2(n) rounds.
        double ag = Run(WorkloadOpType::ALLGATHER, 4, s, WorkloadAlgorithm::HALVING_DOUBLING);
        double agExpected = 3 * sFrames * frame + 2 * path;
        NS_TEST_EXPECT_MSG_EQ_TOL(ag, agExpected, 0.02 * agExpected, "hd allgather n=4");
        double rs = Run(WorkloadOpType::REDUCESCATTER, 4, s, WorkloadAlgorithm::HALVING_DOUBLING);
        double rsExpected = 0.75 * sFrames * frame + 2 * path;
        NS_TEST_EXPECT_MSG_EQ_TOL(rs, rsExpected, 0.02 * rsExpected, "hd reducescatter n=4");
        // Pairwise all-to-all on 3: two rounds of S/3 each way.
        double a2a = Run(WorkloadOpType::ALLTOALL, 3, 3 * s, WorkloadAlgorithm::RING);
        double a2aExpected = 2 * sFrames * frame + 2 * path;
        NS_TEST_EXPECT_MSG_EQ_TOL(a2a, a2aExpected, 0.02 * a2aExpected, "pairwise alltoall n=3");
        // Dissemination barrier on 3: ceil(log2 3) = 2 rounds; a round ends when its 1-byte
        // message is acknowledged: a 63-byte frame there and a 62-byte ACK back, each
        // serialized at the sender and again at the switch (store and forward).
        auto wire = [](double bytes) { return bytes * 8 / 100e9 * 1e9; };
        double trip = SWITCH_NS + 2 * LINK_NS;
        double roundTrip = 2 * wire(FRAME_OVERHEAD + 1) + 2 * wire(FRAME_OVERHEAD) + 2 * trip;
        double barrier = Run(WorkloadOpType::BARRIER, 3, 0, WorkloadAlgorithm::UNSPECIFIED);
        NS_TEST_EXPECT_MSG_EQ_TOL(barrier, 2 * roundTrip, 2.0, "barrier n=3: two round trips");
    }
};

/// AUTO runs the same allreduce algorithm on electrical and optical rails (the ring), and on
/// electrical rails it is not slower than the double binary tree NCCL would pick for 1 MiB
/// on 4-8 ranks: here the tree's inner nodes receive from two children at once and DCQCN
/// slows them (issue 11, item 4). The algorithm that ran is recorded for the outputs.
class AutoAlgorithmTestCase : public TestCase
{
  public:
    AutoAlgorithmTestCase()
        : TestCase("auto allreduce is the ring on both rails, and no slower than the tree")
    {
    }

  private:
    /// Runs a 1 MiB allreduce on n one-GPU servers; returns its end (ns) and algorithm.
    std::pair<double, std::string> Run(uint32_t n, RailKind kind, WorkloadAlgorithm algorithm)
    {
        const uint64_t s = 1 << 20;
        JobBed bed(
            Spec(n, kind, 1, kind == RailKind::OCS ? 2 : 1),
            WorkloadDag(n, AllRanks(n), OnEveryRank(n, WorkloadOpType::ALLREDUCE, s, algorithm)));
        bed.Run();
        NS_TEST_EXPECT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        const auto& records = bed.recorder.GetTimeline().GetRecords();
        std::string name = records.empty() ? "" : records.front().algorithm;
        return {bed.LastEndNs(0), name};
    }

    void DoRun() override
    {
        for (uint32_t n : {4u, 8u})
        {
            auto automatic = Run(n, RailKind::EPS, WorkloadAlgorithm::UNSPECIFIED);
            auto ring = Run(n, RailKind::EPS, WorkloadAlgorithm::RING);
            auto tree = Run(n, RailKind::EPS, WorkloadAlgorithm::TREE);
            auto optical = Run(n, RailKind::OCS, WorkloadAlgorithm::UNSPECIFIED);
            NS_TEST_EXPECT_MSG_EQ(automatic.second, "ring", "auto on eps, n=" << n);
            NS_TEST_EXPECT_MSG_EQ(optical.second, "ring", "auto on ocs, n=" << n);
            NS_TEST_EXPECT_MSG_EQ(tree.second, "double-binary-tree", "recorded, n=" << n);
            NS_TEST_EXPECT_MSG_EQ_TOL(automatic.first, ring.first, 1.0, "auto = ring, n=" << n);
            NS_TEST_EXPECT_MSG_LT(automatic.first, tree.first, "ring beats the tree, n=" << n);
            // The ring's closed form: 2(n-1)/n of S in full frames, within 5% (steps' latency).
            double expected = 2.0 * (n - 1) / n * (1 << 20) / MTU * FrameNs(100e9);
            NS_TEST_EXPECT_MSG_EQ_TOL(automatic.first, expected, 0.05 * expected, "ring, n=" << n);
        }
    }
};

/// On pre-set ring circuits (2 ports per GPU: one to each neighbour) half of every block goes
/// each way round, so both ports carry half the data: (n-1)S / (2B).
class OpticalRingCollectiveTestCase : public TestCase
{
  public:
    OpticalRingCollectiveTestCase()
        : TestCase("ring allgather on pre-set optical ring circuits uses both ports")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t s = 4 << 20;
        JobBed bed(
            Spec(n, RailKind::OCS, 1, 2),
            WorkloadDag(n,
                        AllRanks(n),
                        OnEveryRank(n, WorkloadOpType::ALLGATHER, s, WorkloadAlgorithm::AUTO)));
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        // Two 100 G ports per GPU, each carrying (n-1) S / 2; fibers in and out.
        double expected = (n - 1) * (s / 2 / MTU) * FrameNs(100e9) + 2 * LINK_NS;
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.LastEndNs(0), expected, 0.02 * expected, "optical ring");
        for (uint32_t gpu = 0; gpu < n; ++gpu)
        {
            NS_TEST_ASSERT_MSG_EQ(
                DynamicCast<RailFabric>(bed.fabric)->GetTransport(gpu)->GetCounters().timeouts,
                0,
                "no timeouts on circuits");
        }
    }
};

/// AUTO alltoall on pre-set optical ring circuits is ring-relay: blocks hop along the ring the
/// shorter way, so each port carries, each way, B = S/n times the sum of the distances going
/// that way (collective-plan.h): B(1 + 2/2) = S/2 for n = 4, B(1 + 2) = 3S/5 for n = 5.
class OpticalRingRelayAllToAllTestCase : public TestCase
{
  public:
    OpticalRingRelayAllToAllTestCase()
        : TestCase("auto all-to-all on pre-set optical ring circuits relays over the ring")
    {
    }

  private:
    /**
     * Runs the alltoall on n one-GPU servers with 2 ports and checks its time against the
     * busiest port's one-way bytes, and that every rank sent perRank bytes.
     */
    void Check(uint32_t n, uint64_t s, uint64_t oneWay, uint64_t perRank)
    {
        JobBed bed(
            Spec(n, RailKind::OCS, 1, 2),
            WorkloadDag(n,
                        AllRanks(n),
                        OnEveryRank(n, WorkloadOpType::ALLTOALL, s, WorkloadAlgorithm::AUTO)));
        std::string name;
        bed.communicators[0]->TraceConnectWithoutContext(
            "CallStart",
            Callback<void, const std::string&, const CollectivePlan&>(
                [&name](const std::string&, const CollectivePlan& plan) { name = plan.name; }));
        bed.Run();
        std::string where = "n=" + std::to_string(n);
        NS_TEST_ASSERT_MSG_EQ(bed.AllFinished(), true, where + ": every rank finished");
        NS_TEST_ASSERT_MSG_EQ(name, "ring-relay", where + ": AUTO plans ring-relay");
        // The busiest port sends oneWay bytes back to back; fibers in and out.
        double expected = (oneWay / MTU) * FrameNs(100e9) + 2 * LINK_NS;
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.LastEndNs(0), expected, 0.02 * expected, where);
        NS_TEST_ASSERT_MSG_EQ(bed.BytesSent(), n * perRank, where + ": bytes sent");
        NS_TEST_ASSERT_MSG_EQ(bed.BytesReceived(), bed.BytesSent(), where + ": bytes conserved");
        for (uint32_t gpu = 0; gpu < n; ++gpu)
        {
            NS_TEST_ASSERT_MSG_EQ(
                DynamicCast<RailFabric>(bed.fabric)->GetTransport(gpu)->GetCounters().timeouts,
                0,
                "no timeouts on circuits");
        }
    }

    void DoRun() override
    {
        // n = 4, S = 4 MiB: S/2 = 2 MiB each way per port; a rank sends Sn/4 = S.
        Check(4, 4 << 20, 2 << 20, 4 << 20);
        // n = 5, S = 20 MiB (B = 4 MiB): 3B = 12 MiB each way; a rank sends 6B = 24 MiB.
        Check(5, 20 << 20, 12 << 20, 24 << 20);
    }
};

/// Two stages, four micro-batches, 1F1B, forward 1 ms and backward 2 ms: the hand-computed
/// schedule ends at 15 ms plus four activation/gradient transfers on the critical path.
class PipelineMakespanTestCase : public TestCase
{
  public:
    PipelineMakespanTestCase()
        : TestCase("a 2-stage 1F1B pipeline with 4 micro-batches has the hand-computed makespan")
    {
    }

  private:
    void DoRun() override
    {
        // Stage 0 (rank 0): F0 F1 B0 F2 B1 F3 B2 B3; stage 1 (rank 1): F0 B0 F1 B1 ... B3.
        // Activations go 0 -> 1 after each F on stage 0, gradients 1 -> 0 after each B
        // on stage 1. Sends and receives have streams of their own (as Megatron posts
        // them), so only data dependencies order them.
        // With c the time of one transfer, the schedule (ms) is: stage 1 F0 starts at
        // 1+c, B0 ends 4+c; stage 0 B0 4+2c..6+2c, F2 ..7+2c; stage 1 F1 4+c..5+c, B1
        // ..7+c; stage 0 B1 7+2c..9+2c, F3 ..10+2c; stage 1 F2 7+3c..8+3c, B2 ..10+3c;
        // stage 0 B2 10+4c..12+4c; stage 1 F3 10+3c..11+3c, B3 ..13+3c; stage 0 B3
        // 13+4c..15+4c. Makespan 15 ms + 4c.
        const uint64_t s = 64 * 1024; // 16 frames
        const double c = 16 * FrameNs(100e9) + FrameNs(100e9) + SWITCH_NS + 2 * LINK_NS;
        std::vector<WorkloadOp> ops;
        const double f = 1000;
        const double b = 2000;
        // One stage's ops in its 1F1B order: a receive before each step of the kind it
        // receives (F on stage 1, B on stage 0), the compute, a send after the other kind.
        auto stage =
            [&ops, f, b, s](uint32_t rank, const std::vector<std::string>& order, char receives) {
                uint32_t peer = 1 - rank;
                uint32_t id = 0;
                std::map<std::string, uint32_t> ids;
                for (const std::string& step : order)
                {
                    std::vector<uint32_t> deps;
                    if (step[0] == receives)
                    {
                        deps.push_back(id);
                        ops.push_back(
                            PointToPoint(rank, id++, WorkloadOpType::RECV, peer, s, {}, "recv"));
                    }
                    ids[step] = id;
                    ops.push_back(Compute(rank, id++, step[0] == 'F' ? f : b, deps));
                    if (step[0] != receives)
                    {
                        ops.push_back(PointToPoint(rank,
                                                   id++,
                                                   WorkloadOpType::SEND,
                                                   peer,
                                                   s,
                                                   {ids[step]},
                                                   "send"));
                    }
                }
                return ids;
            };
        auto s0 = stage(0, {"F0", "F1", "B0", "F2", "B1", "F3", "B2", "B3"}, 'B');
        stage(1, {"F0", "B0", "F1", "B1", "F2", "B2", "F3", "B3"}, 'F');
        WorkloadDag dag(2, {}, ops);
        JobBed bed(Spec(2, RailKind::EPS), dag);
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.AllFinished(), true, "both stages finished");
        double expected = 15e6 + 4 * c;
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.EndNs(0, s0["B3"]), expected, 50.0, "1F1B makespan");
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.recorder.GetMakespan() * 1e9, expected, 50.0, "recorder");
    }
};

namespace
{
/// A DAG of every collective type on 2 servers x 4 GPUs (hierarchical rings, PXN, trees).
WorkloadDag
MixedDag()
{
    const uint32_t n = 8;
    WorkloadDag::GroupMap groups = AllRanks(n);
    groups["rail1"] = {1, 5};
    groups["cross"] = {0, 5}; // two rails: PXN
    groups["pow2"] = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<WorkloadOp> ops;
    for (uint32_t r = 0; r < n; ++r)
    {
        uint32_t id = 0;
        auto add = [&](WorkloadOpType type,
                       std::string group,
                       uint64_t bytes,
                       WorkloadAlgorithm algorithm = WorkloadAlgorithm::UNSPECIFIED) {
            WorkloadOp op = Collective(r, id, type, group, bytes);
            op.algorithm = algorithm;
            if (id > 0)
            {
                op.deps = {id - 1};
            }
            ++id;
            ops.push_back(op);
        };
        add(WorkloadOpType::ALLREDUCE, "all", 1 << 20);
        add(WorkloadOpType::ALLGATHER, "all", 300001);
        add(WorkloadOpType::REDUCESCATTER, "pow2", 1 << 20, WorkloadAlgorithm::HALVING_DOUBLING);
        add(WorkloadOpType::ALLREDUCE, "all", 100000, WorkloadAlgorithm::TREE);
        add(WorkloadOpType::ALLTOALL, "all", 800000, WorkloadAlgorithm::RING);
        add(WorkloadOpType::BROADCAST, "all", 500000);
        add(WorkloadOpType::BARRIER, "all", 0);
        if (r == 1 || r == 5)
        {
            add(WorkloadOpType::ALLREDUCE, "rail1", 1 << 20);
        }
        if (r == 0 || r == 5)
        {
            add(WorkloadOpType::REDUCE, "cross", 1 << 20);
            ops.back().root = 5;
        }
        ops.push_back(Compute(r, id, 10.0 + r, {id - 1}));
    }
    return WorkloadDag(n, groups, ops);
}
} // namespace

/// Every collective type completes; bytes are conserved; the same run gives the same output.
class ConservationAndDeterminismTestCase : public TestCase
{
  public:
    ConservationAndDeterminismTestCase()
        : TestCase("every collective type completes, conserves bytes and is deterministic")
    {
    }

  private:
    std::string RunOnce(uint64_t& sent, uint64_t& received, double& makespan)
    {
        JobBed bed(Spec(2, RailKind::EPS, 4), MixedDag(), 2);
        bed.Run();
        NS_TEST_EXPECT_MSG_EQ(bed.AllFinished(), true, "every rank finished both replays");
        sent = bed.BytesSent();
        received = bed.BytesReceived();
        makespan = bed.recorder.GetMakespan();
        std::ostringstream csv;
        bed.recorder.GetTimeline().WriteCsv(csv);
        return csv.str();
    }

    void DoRun() override
    {
        uint64_t sent1;
        uint64_t received1;
        uint64_t sent2;
        uint64_t received2;
        double makespan1;
        double makespan2;
        std::string first = RunOnce(sent1, received1, makespan1);
        std::string second = RunOnce(sent2, received2, makespan2);
        NS_TEST_ASSERT_MSG_EQ(sent1, received1, "bytes delivered = bytes sent");
        NS_TEST_ASSERT_MSG_GT(sent1, 0, "traffic");
        NS_TEST_ASSERT_MSG_EQ((first == second), true, "identical timelines");
        NS_TEST_ASSERT_MSG_EQ(sent1, sent2, "identical bytes");
        NS_TEST_ASSERT_MSG_EQ(makespan1, makespan2, "identical makespan");
        // 2 replays x 8 ranks x (7 collectives + compute) + rail1 and cross: 4 ops.
        NS_TEST_ASSERT_MSG_EQ(std::count(first.begin(), first.end(), '\n') - 1,
                              2 * (8 * 7 + 4),
                              "one record per communication op and replay");
    }
};

/// A receive without its send: the run stops and says who waits for what.
class StuckRunTestCase : public TestCase
{
  public:
    StuckRunTestCase()
        : TestCase("a receive without a send leaves a report of what blocks")
    {
    }

  private:
    void DoRun() override
    {
        WorkloadDag dag(2,
                        {},
                        {Compute(0, 0, 5.0),
                         PointToPoint(1, 0, WorkloadOpType::RECV, 0, 65536),
                         Compute(1, 1, 5.0, {0})});
        JobBed bed(Spec(2, RailKind::EPS), dag);
        bed.Run();
        auto rank0 = DynamicCast<RankRuntime>(bed.runtimes.Get(0));
        auto rank1 = DynamicCast<RankRuntime>(bed.runtimes.Get(1));
        NS_TEST_ASSERT_MSG_EQ(rank0->IsFinished(), true, "rank 0 has nothing to wait for");
        NS_TEST_ASSERT_MSG_EQ(rank1->IsFinished(), false, "rank 1 waits forever");
        std::vector<std::string> lines = rank1->DescribeBlocked();
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 2, "a summary and the running op");
        NS_TEST_ASSERT_MSG_EQ(lines[0], "iteration 0: 2 ops left, 1 not started", "summary");
        NS_TEST_ASSERT_MSG_EQ(lines[1],
                              "op 0 recv from rank 0 tag 1 (65536 bytes) has not finished",
                              "the op");
        std::vector<std::string> waits = bed.communicators[1]->DescribeBlocked();
        NS_TEST_ASSERT_MSG_EQ(waits.size(), 1, "one call");
        NS_TEST_ASSERT_MSG_EQ(waits[0],
                              "p:0>1:1#0 (recv, p2p): 1 of 1 steps left; waits for 1 message(s) "
                              "from rank 0",
                              "what it waits for");
        NS_TEST_ASSERT_MSG_EQ(bed.communicators[0]->DescribeBlocked().empty(), true, "rank 0");
    }
};

/// A reduction whose duration passes the simulator's clock (int64 ns) stops the run with a
/// one-line error; it used to wrap to a negative time and end before it started.
class ReductionPastTheClockTestCase : public TestCase
{
  public:
    ReductionPastTheClockTestCase()
        : TestCase("a reduction longer than the simulator's clock is a one-line error")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t s = 1 << 20;
        JobBed bed(
            Spec(2, RailKind::EPS),
            WorkloadDag(2,
                        AllRanks(2),
                        OnEveryRank(2, WorkloadOpType::ALLREDUCE, s, WorkloadAlgorithm::RING)));
        for (const auto& communicator : bed.communicators)
        {
            communicator->SetAttribute("ReductionBandwidth", DoubleValue(1e-6)); // bytes/s
        }
        std::string error;
        try
        {
            bed.Run(); // the event ends the run (HorizonGuard::StopRun): nothing leaks
        }
        catch (const std::runtime_error& e)
        {
            error = e.what();
        }
        // A ring on 2 ranks over 2 channels reduces S / 4 = 262144 bytes per step:
        // 262144 / 1e-6 = 2.62144e11 s, beyond 2^63 ns = 9.22e9 s.
        NS_TEST_ASSERT_MSG_EQ(error.rfind("rank ", 0), 0, error);
        NS_TEST_ASSERT_MSG_NE(error.find(": reduction of 262144 bytes: a duration of 2.62144e+11 s "
                                         "at "),
                              std::string::npos,
                              error);
        NS_TEST_ASSERT_MSG_NE(error.find(" s ends past the simulator's time range (2^63 ns, about "
                                         "292 years)"),
                              std::string::npos,
                              error);
        NS_TEST_ASSERT_MSG_EQ(error.find('\n'), std::string::npos, "one line");
    }
};

/// Coalesced frames (60 KiB on rails and scale-up links, padded to the real frames'
/// overhead) give the iteration time of 4 KiB frames within 1% on a small LLM job.
class CoalescedFramesTestCase : public TestCase
{
  public:
    CoalescedFramesTestCase()
        : TestCase("coalesced frames match real 4 KiB frames within 1% on an LLM job")
    {
    }

  private:
    double Run(uint32_t frameBytes)
    {
        WorkloadGeneratorConfig config;
        config.model.layers = 2;
        config.model.hidden = 1024;
        config.model.ffn = 4096;
        config.model.heads = 8;
        config.model.kvHeads = 8;
        config.seqLen = 512;
        config.tp = 2;
        config.pp = 2;
        config.dp = 2;
        config.gpusPerServer = 2;
        // Gathers only in the first forward: with "always" the root's backward gather shares
        // a NIC with the gradient's receive, and coalesced frames, queued and marked as one
        // unit, come out 1.2% faster there; this case checks the wire time of each frame.
        config.reshard = WorkloadGeneratorConfig::RESHARD_AFTER_BACKWARD_ONLY;
        WorkloadDag dag = WorkloadGenerator(config).Generate();
        RailFabricSpec spec = Spec(4, RailKind::EPS, 2);
        spec.railFrameBytes = frameBytes;
        spec.scaleUpFrameBytes = frameBytes;
        JobBed bed(spec, dag);
        bed.Run();
        NS_TEST_EXPECT_MSG_EQ(bed.AllFinished(), true, "finished");
        NS_TEST_EXPECT_MSG_EQ(bed.BytesSent(), bed.BytesReceived(), "bytes conserved");
        return bed.recorder.GetMakespan();
    }

    void DoRun() override
    {
        double real = Run(4096);
        double coalesced = Run(61440);
        NS_TEST_ASSERT_MSG_GT(real, 0.0, "the job ran");
        NS_TEST_ASSERT_MSG_EQ_TOL(coalesced, real, 0.01 * real, "iteration time within 1%");
    }
};

/// Iteration accounting: ops labelled with iterations may overlap, or leave an iteration
/// empty; every iteration is reported, none lasts less than 0.
class IterationAccountingTestCase : public TestCase
{
  public:
    IterationAccountingTestCase()
        : TestCase("iterations are reported densely and never negative")
    {
    }

  private:
    void DoRun() override
    {
        // Rank 0: a 1000 us op of iteration 0 and, on another stream, a 10 us op of
        // iteration 1; then 5 us of iteration 3 after the first. Iteration 2 has no op.
        // Replay 0 ends its iterations at 1000, 10, -, 1005 us: times 1000, 0, 0, 5 us.
        // Replay 1 starts at 1005 us: 2005, 1015, -, 2010: times 1000, 0, 0, 5 us.
        WorkloadOp a = Compute(0, 0, 1000.0);
        a.stream = "a";
        WorkloadOp b = Compute(0, 1, 10.0);
        b.stream = "b";
        b.iteration = 1;
        WorkloadOp c = Compute(0, 2, 5.0, {0});
        c.stream = "a";
        c.iteration = 3;
        JobBed bed(Spec(2, RailKind::EPS), WorkloadDag(2, {}, {a, b, c}), 2);
        bed.Run();
        std::vector<double> times = bed.recorder.GetIterationTimes();
        const std::vector<double> expected = {1000e-6, 0, 0, 5e-6, 1000e-6, 0, 0, 5e-6};
        NS_TEST_ASSERT_MSG_EQ(times.size(), expected.size(), "2 replays x 4 iterations");
        for (std::size_t k = 0; k < expected.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(times[k], expected[k], 1e-12, "iteration " << k);
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.recorder.GetMakespan(), 2010e-6, 1e-12, "makespan");
    }
};

/// A generated pass with blocking FSDP gathers (gatherPrefetch 0, as the measured job ran)
/// alternates gather and compute: gather + compute + gather + compute; prefetching one unit
/// ahead hides the second gather behind the first compute.
class BlockingGathersTestCase : public TestCase
{
  public:
    BlockingGathersTestCase()
        : TestCase("a pass with blocking FSDP gathers takes gather + compute + gather + compute")
    {
    }

  private:
    /// \return the op of \p rank labelled \p label
    static const WorkloadOp& Op(const WorkloadDag& dag, uint32_t rank, const std::string& label)
    {
        for (const auto& op : dag.GetOps(rank))
        {
            if (op.label == label)
            {
                return op;
            }
        }
        NS_ABORT_MSG("no op " << label);
    }

    /**
     * Runs the job with \p prefetch; returns how long stage 1's backward took: from the end
     * of its forward to the end of block 1's backward (ns), and sets \p head and \p block to
     * the compute times of the head's and the block's backward (ns).
     */
    double Run(uint32_t prefetch, double& head, double& block)
    {
        // 2 layers on 2 stages, FSDP 2, one micro-batch, 2 GPUs per server: ranks pp + 2 dp,
        // so stage 1's FSDP group {1, 3} crosses the servers on rail 1 alone, and PP stays
        // inside a server. Stage 1's backward has 2 units: its root (norm + head, which the
        // head's backward needs) and block 1. Both shards are 32,768 bytes: a block has
        // attention 2 x 64^2 + 2 x 64 x 32 (2 KV heads of 16) = 12,288, MLP 3 x 64 x 106 =
        // 20,352 and norms 128 parameters = 32,768; the root 64 + 511 x 64 = 32,768; FSDP 2
        // in bf16. An MFU of 0.001 makes each backward compute a few us, as long as a gather.
        WorkloadGeneratorConfig c;
        c.model.name = "small";
        c.model.layers = 2;
        c.model.hidden = 64;
        c.model.heads = 4;
        c.model.kvHeads = 2;
        c.model.ffn = 106;
        c.model.vocab = 511;
        c.seqLen = 16;
        c.mfu = 0.001;
        c.pp = 2;
        c.dp = 2;
        c.microBatches = 1;
        c.gpusPerServer = 2;
        c.gatherPrefetch = prefetch;
        WorkloadDag dag = WorkloadGenerator(c).Generate();
        NS_TEST_EXPECT_MSG_EQ(Op(dag, 1, "fsdp.allgather.root.bwd.mb0").bytes, 32768, "root");
        NS_TEST_EXPECT_MSG_EQ(Op(dag, 1, "fsdp.allgather.block1.bwd.mb0").bytes, 32768, "block");
        JobBed bed(Spec(2, RailKind::EPS, 2), dag);
        bed.Run();
        NS_TEST_EXPECT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        auto end = [&](const std::string& label) { return bed.EndNs(1, Op(dag, 1, label).id); };
        auto ns = [&](const std::string& label) { return Op(dag, 1, label).durationUs * 1e3; };
        head = ns("compute.bwd.head.mb0");
        block = ns("compute.block1.mlp.bwd.mb0") + ns("compute.block1.attn.bwd.mb0");
        return end("compute.block1.attn.bwd.mb0") - end("compute.fwd.head.mb0");
    }

    void DoRun() override
    {
        // A 2-rank ring AllGather of S = 32,768 bytes: each GPU sends 8 frames (two channels
        // of 4, one after the other on the queue pair) back to back at 100 G, the last one
        // arrives a path later (switch store and forward), and the gather ends when the
        // peer's ACK of it is back: 62 bytes on the wire at each end, the links and the
        // switch. The peer's ACK of its first channel (4 frames + a path) comes after this
        // GPU queued its last frame (2 frames ahead of the wire), so it delays no data.
        const double frame = FrameNs(100e9);
        const double ack = FRAME_OVERHEAD * 8 / 100e9 * 1e9;
        const double gather =
            8 * frame + (frame + SWITCH_NS + 2 * LINK_NS) + (2 * ack + SWITCH_NS + 2 * LINK_NS);
        NS_TEST_ASSERT_MSG_EQ_TOL(gather, 4003.68, 0.005, "8 x 332.64 + 832.64 + 509.92 ns");
        double head = 0;
        double block = 0;
        // Blocking: gather the root, the head's backward, gather block 1, its backward.
        double blocking = Run(0, head, block);
        NS_TEST_ASSERT_MSG_GT(head, gather, "the head's backward is longer than a gather");
        NS_TEST_EXPECT_MSG_EQ_TOL(blocking, gather + head + gather + block, 1.0, "N = 0");
        // One unit ahead: block 1's gather runs during the head's backward.
        double prefetched = Run(1, head, block);
        NS_TEST_EXPECT_MSG_EQ_TOL(prefetched, gather + head + block, 1.0, "N = 1");
    }
};

/// The collective engine and rank runtime suite.
class CollectiveTestSuite : public TestSuite
{
  public:
    CollectiveTestSuite()
        : TestSuite("photonic-rails-collective", SYSTEM)
    {
        for (const char* network : {"packet", "flow"})
        {
            AddTestCase(new RingClosedFormTestCase(network), TestCase::QUICK);
            AddTestCase(new AllToAllAndSendRecvTestCase(network), TestCase::QUICK);
            AddTestCase(new MergedRingStepsTestCase(network), TestCase::QUICK);
        }
        AddTestCase(new AutoAlgorithmTestCase, TestCase::QUICK);
        AddTestCase(new NewPeerFromAcknowledgementTestCase, TestCase::QUICK);
        AddTestCase(new PipelineMakespanTestCase, TestCase::QUICK);
        AddTestCase(new ConservationAndDeterminismTestCase, TestCase::QUICK);
        AddTestCase(new StuckRunTestCase, TestCase::QUICK);
        AddTestCase(new MergedRingStuckTestCase, TestCase::QUICK);
        AddTestCase(new ReductionPastTheClockTestCase, TestCase::QUICK);
        AddTestCase(new IterationAccountingTestCase, TestCase::QUICK);
        AddTestCase(new CoalescedFramesTestCase, TestCase::QUICK);
        AddTestCase(new OpticalRingCollectiveTestCase, TestCase::QUICK);
        AddTestCase(new OpticalRingRelayAllToAllTestCase, TestCase::QUICK);
        AddTestCase(new BlockingGathersTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
static CollectiveTestSuite g_collectiveTestSuite;

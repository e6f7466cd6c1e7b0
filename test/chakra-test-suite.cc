/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Chakra execution traces written by other tools (ASTRA-sim's examples, copied in
 * test/data/chakra-samples) replayed on small electrical fabrics against their closed forms:
 * the single-collective microbenchmarks, a ring all-reduce written as sends, receives and
 * reductions, and a 2-D trace whose process groups are a server's GPUs and a rail.
 */

#include "job-test-bed.h"

#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <string>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// A sample's path in the module's test/data/chakra-samples.
std::string
Sample(const std::string& relative)
{
    return std::string(PR_SOURCE_DIR) + "/test/data/chakra-samples/" + relative;
}

/// The samples' comm_size: 1 MiB.
constexpr double S = 1 << 20;

} // namespace

/**
 * Each microbenchmark on one 100 G electrical rail (one GPU per server) ends at its ring
 * closed form plus the last frame's trip: all-reduce 2(n-1) steps of S/n, all-gather n-1
 * steps of S, reduce-scatter and all-to-all n-1 steps (or peers) of S/n.
 */
class ChakraMicrobenchmarkTestCase : public TestCase
{
  public:
    ChakraMicrobenchmarkTestCase()
        : TestCase("Chakra microbenchmarks take their closed-form times")
    {
    }

  private:
    void Check(const std::string& type, uint32_t n, double steps, double stepBytes)
    {
        std::string prefix = type + "/" + std::to_string(n) + "npus_1MB/" + type;
        ChakraReadOptions options;
        options.gpusPerServer = 1;
        WorkloadDag dag = ChakraReader::Read(Sample("microbenchmarks/" + prefix), options);
        NS_TEST_ASSERT_MSG_EQ(dag.GetRankCount(), n, prefix);
        NS_TEST_ASSERT_MSG_EQ(dag.GetOps(0)[0].bytes, uint64_t(S), prefix << ": comm_size");
        JobBed bed(Spec(n, RailKind::EPS), dag);
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.AllFinished(), true, prefix);
        NS_TEST_EXPECT_MSG_EQ(bed.BytesSent(), bed.BytesReceived(), prefix << ": bytes");
        const double frame = FrameNs(100e9);
        double expected = steps * (stepBytes / MTU) * frame + frame + SWITCH_NS + 2 * LINK_NS;
        NS_TEST_EXPECT_MSG_EQ_TOL(bed.LastEndNs(dag.GetOps(0)[0].id),
                                  expected,
                                  0.02 * expected,
                                  prefix);
    }

    void DoRun() override
    {
        for (uint32_t n : {4u, 8u})
        {
            Check("all_reduce", n, 2 * (n - 1), S / n);
            Check("all_gather", n, n - 1, S);
            Check("reduce_scatter", n, n - 1, S / n);
            Check("all_to_all", n, n - 1, S / n);
        }
    }
};

/**
 * The ring all-reduce written as point-to-point: per rank a chain of 14 (send, receive)
 * pairs of 131,072 B and 7 reductions of 7 us, all ranks in step. A send completes when its
 * last frame is acknowledged (RDMA semantics) and the receive waits for it, so a step is 32
 * frames, the last one's trip (T + 500 ns) and the ACK's way back (a 62-byte frame
 * serialized at the NIC and at the switch, + 500 ns): 14 (33 T + 2 A + 1000 ns) + 7 x 7 us.
 */
class ChakraRingSendRecvTestCase : public TestCase
{
  public:
    ChakraRingSendRecvTestCase()
        : TestCase("Chakra ring all-reduce as sends and receives: its chain's closed form")
    {
    }

  private:
    void DoRun() override
    {
        ChakraReadOptions options;
        WorkloadDag dag =
            ChakraReader::Read(Sample("ring-allreduce-sendrecv-8npus/custom_allreduce"), options);
        uint32_t n = dag.GetRankCount();
        NS_TEST_ASSERT_MSG_EQ(n, 8, "ranks");
        uint32_t sends = 0;
        uint32_t recvs = 0;
        uint32_t reductions = 0;
        for (const WorkloadOp& op : dag.GetOps(3))
        {
            sends += op.type == WorkloadOpType::SEND && op.peer == 4 ? 1 : 0;
            recvs += op.type == WorkloadOpType::RECV && op.peer == 2 ? 1 : 0;
            reductions += op.type == WorkloadOpType::COMPUTE && op.durationUs == 7.0 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(sends, 14, "sends to the next rank");
        NS_TEST_ASSERT_MSG_EQ(recvs, 14, "receives from the previous rank");
        NS_TEST_ASSERT_MSG_EQ(reductions, 7, "reductions");
        JobBed bed(Spec(n, RailKind::EPS), dag);
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        NS_TEST_EXPECT_MSG_EQ(bed.BytesSent(), bed.BytesReceived(), "bytes conserved");
        NS_TEST_EXPECT_MSG_EQ(bed.BytesSent(), uint64_t(n) * 14 * 131072, "14 messages per rank");
        const double frame = FrameNs(100e9);
        const double ack = FRAME_OVERHEAD * 8 / 100e9 * 1e9;
        double step = (131072 / MTU + 1) * frame + 2 * ack + 2 * (SWITCH_NS + 2 * LINK_NS);
        double expected = 14 * step + 7 * 7000;
        NS_TEST_EXPECT_MSG_EQ_TOL(bed.LastEndNs(dag.GetOps(0).end()[-1].id),
                                  expected,
                                  0.02 * expected,
                                  "ring all-reduce");
    }
};

/**
 * The 2-D sample on 4 servers x 4 GPUs: a row all-reduce inside each server (scale-up,
 * 800 Gb/s), 100 us of compute, a column all-reduce on each rail (4 ranks at 100 G): the
 * two rings' 2(n-1)/n S/B plus the compute.
 */
class ChakraProcessGroupTestCase : public TestCase
{
  public:
    ChakraProcessGroupTestCase()
        : TestCase("Chakra process groups: rows are servers, columns are rails")
    {
    }

  private:
    void DoRun() override
    {
        ChakraReadOptions options;
        options.commGroupsFile = Sample("process-groups-2d-16npus/comm_group.json");
        options.gpusPerServer = 4;
        WorkloadDag dag = ChakraReader::Read(Sample("process-groups-2d-16npus/trace"), options);
        NS_TEST_ASSERT_MSG_EQ(dag.GetRankCount(), 16, "ranks");
        const WorkloadOp& row = dag.GetOps(5)[0];
        const WorkloadOp& column = dag.GetOps(5)[2];
        NS_TEST_ASSERT_MSG_EQ((*dag.FindGroup(row.group) == std::vector<uint32_t>{4, 5, 6, 7}),
                              true,
                              "rank 5's row is its server");
        NS_TEST_ASSERT_MSG_EQ((*dag.FindGroup(column.group) == std::vector<uint32_t>{1, 5, 9, 13}),
                              true,
                              "rank 5's column is its rail");
        JobBed bed(Spec(4, RailKind::EPS, 4), dag);
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        const double frame = FrameNs(100e9);
        double rowNs = 2.0 * 3 / 4 * S * 8 / 800e9 * 1e9;
        double columnNs = 2.0 * 3 * (S / 4 / MTU) * frame + frame + SWITCH_NS + 2 * LINK_NS;
        double expected = rowNs + 100e3 + columnNs;
        NS_TEST_EXPECT_MSG_EQ_TOL(bed.LastEndNs(column.id), expected, 0.02 * expected, "2-D");
        NS_TEST_EXPECT_MSG_EQ_TOL(bed.EndNs(5, row.id), rowNs, 0.1 * rowNs, "row all-reduce");
    }
};

/// The Chakra trace suite.
class ChakraTestSuite : public TestSuite
{
  public:
    ChakraTestSuite()
        : TestSuite("photonic-rails-chakra", SYSTEM)
    {
        AddTestCase(new ChakraMicrobenchmarkTestCase, TestCase::QUICK);
        AddTestCase(new ChakraRingSendRecvTestCase, TestCase::QUICK);
        AddTestCase(new ChakraProcessGroupTestCase, TestCase::QUICK);
    }
};

static ChakraTestSuite g_chakraTestSuite; //!< Static variable for test initialization

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Chakra execution traces written by other tools (ASTRA-sim's examples, copied in
 * test/data/chakra-samples) replayed on small electrical fabrics against their closed forms:
 * the single-collective microbenchmarks, a ring all-reduce written as sends, receives and
 * reductions, and a 2-D trace whose process groups are a server's GPUs and a rail.
 */

#include "chakra-et.pb.h"
#include "job-test-bed.h"

#include "ns3/chakra-trace-file.h"
#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <cstdio>
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
 * A trace as PyTorch's converter writes it (four ranks, each: c10d::allreduce_ recorded twice
 * on the CPU as COMM_COLL nodes without comm_type, the NCCL kernel of 1 MiB after the first,
 * 10 us of compute after the kernel), on one 100 G electrical rail: the launches take no
 * time, so the all-reduce ends at the microbenchmark's closed form, 2(n-1) steps of S/n plus
 * the last frame's trip, and the compute 10 us later.
 */
class ChakraPyTorchLaunchesTestCase : public TestCase
{
  public:
    ChakraPyTorchLaunchesTestCase()
        : TestCase("a PyTorch-converted trace: CPU launches take no time, the kernels are the "
                   "collectives")
    {
    }

  private:
    /// A node of \p type, after \p data.
    static ChakraProtoMsg::Node Node(uint64_t id,
                                     ChakraProtoMsg::NodeType type,
                                     const std::string& name,
                                     std::vector<uint64_t> data)
    {
        ChakraProtoMsg::Node node;
        node.set_id(id);
        node.set_name(name);
        node.set_type(type);
        for (uint64_t d : data)
        {
            node.add_data_deps(d);
        }
        return node;
    }

    /// Adds attribute \p name to \p node: an int64, or a bool if \p isBool.
    static void Attr(ChakraProtoMsg::Node& node,
                     const std::string& name,
                     int64_t value,
                     bool isBool)
    {
        auto* attr = node.add_attr();
        attr->set_name(name);
        if (isBool)
        {
            attr->set_bool_val(value != 0);
        }
        else
        {
            attr->set_int64_val(value);
        }
    }

    void DoRun() override
    {
        const uint32_t n = 4;
        std::string prefix = CreateTempDirFilename("pytorch");
        for (uint32_t rank = 0; rank < n; ++rank)
        {
            ChakraTraceOutput out(prefix + "." + std::to_string(rank) + ".et", false);
            out.Write(ChakraProtoMsg::GlobalMetadata());
            auto first = Node(1, ChakraProtoMsg::COMM_COLL_NODE, "c10d::allreduce_(0)", {});
            auto second = Node(2, ChakraProtoMsg::COMM_COLL_NODE, "c10d::allreduce_(1)", {1});
            for (auto* launch : {&first, &second})
            {
                Attr(*launch, "is_cpu_op", 1, true);
                launch->set_duration_micros(85);
            }
            auto kernel = Node(3, ChakraProtoMsg::COMM_COLL_NODE, "ncclKernel_AllReduce", {1});
            Attr(kernel, "comm_type", 0, false);
            Attr(kernel, "comm_size", int64_t(S), false);
            auto compute = Node(4, ChakraProtoMsg::COMP_NODE, "after", {3});
            compute.set_duration_micros(10);
            for (const auto& node : {first, second, kernel, compute})
            {
                out.Write(node);
            }
            out.Close();
        }
        ChakraReadOptions options;
        options.gpusPerServer = 1;
        ChakraReadReport report;
        WorkloadDag dag = ChakraReader::Read(prefix, options, &report);
        for (uint32_t rank = 0; rank < n; ++rank)
        {
            std::remove((prefix + "." + std::to_string(rank) + ".et").c_str());
        }
        NS_TEST_ASSERT_MSG_EQ(report.collectiveStubs, 2 * n, "two launches per rank");
        JobBed bed(Spec(n, RailKind::EPS), dag);
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.AllFinished(), true, "every rank finished");
        NS_TEST_EXPECT_MSG_EQ(bed.BytesSent(), bed.BytesReceived(), "bytes conserved");
        const double frame = FrameNs(100e9);
        double allReduce = 2 * (n - 1) * (S / n / MTU) * frame + frame + SWITCH_NS + 2 * LINK_NS;
        NS_TEST_EXPECT_MSG_EQ_TOL(bed.LastEndNs(dag.GetOps(0)[2].id),
                                  allReduce,
                                  0.02 * allReduce,
                                  "the kernel's all-reduce");
        NS_TEST_EXPECT_MSG_EQ_TOL(bed.LastEndNs(dag.GetOps(0)[3].id) -
                                      bed.LastEndNs(dag.GetOps(0)[2].id),
                                  10000.0,
                                  1.0,
                                  "then the compute");
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
        AddTestCase(new ChakraPyTorchLaunchesTestCase, TestCase::QUICK);
        AddTestCase(new ChakraProcessGroupTestCase, TestCase::QUICK);
    }
};

static ChakraTestSuite g_chakraTestSuite; //!< Static variable for test initialization

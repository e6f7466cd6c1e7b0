/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The Chakra reader and writer without a simulation: the samples other tools wrote, traces
 * of odd but legal shapes written here with protobuf, every refusal as one line naming the
 * file and node, truncations and byte flips (an error, never a crash), and the round trip
 * of a generated job through the writer and the reader.
 */

#include "chakra-et.pb.h"

#include "ns3/chakra-comm-groups.h"
#include "ns3/chakra-reader.h"
#include "ns3/chakra-trace-file.h"
#include "ns3/chakra-writer.h"
#include "ns3/workload-error.h"
#include "ns3/workload-estimator.h"
#include "ns3/workload-generator.h"
#include "ns3/workload-model-spec.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <unistd.h>

using namespace ns3;
namespace fs = std::filesystem;

namespace
{

const std::string SAMPLES = PR_SOURCE_DIR "/test/data/chakra-samples/";

/// A fresh folder of this test's own, removed at the end.
class TempDir
{
  public:
    TempDir()
        : m_path(fs::temp_directory_path() /
                 ("pr-chakra-" + std::to_string(getpid()) + "-" + std::to_string(s_count++)))
    {
        fs::remove_all(m_path);
        fs::create_directories(m_path);
    }

    ~TempDir()
    {
        std::error_code ignored;
        fs::remove_all(m_path, ignored);
    }

    std::string operator/(const std::string& name) const
    {
        return (m_path / name).string();
    }

  private:
    fs::path m_path;
    static inline int s_count = 0;
};

using ChakraProtoMsg::Node;

Node
MakeNode(uint64_t id, ChakraProtoMsg::NodeType type, std::vector<uint64_t> data = {})
{
    Node node;
    node.set_id(id);
    node.set_name("n" + std::to_string(id));
    node.set_type(type);
    for (uint64_t d : data)
    {
        node.add_data_deps(d);
    }
    return node;
}

void
IntAttr(Node& node, const std::string& name, int64_t value)
{
    auto* a = node.add_attr();
    a->set_name(name);
    a->set_int64_val(value);
}

Node
Compute(uint64_t id, uint64_t us, std::vector<uint64_t> data = {})
{
    Node node = MakeNode(id, ChakraProtoMsg::COMP_NODE, data);
    node.set_duration_micros(us);
    return node;
}

Node
Collective(uint64_t id, int64_t commType, int64_t bytes, std::vector<uint64_t> data = {})
{
    Node node = MakeNode(id, ChakraProtoMsg::COMM_COLL_NODE, data);
    IntAttr(node, "comm_type", commType);
    IntAttr(node, "comm_size", bytes);
    return node;
}

Node
PointToPoint(uint64_t id, bool send, int64_t peer, int64_t bytes, int64_t tag = 0)
{
    Node node =
        MakeNode(id, send ? ChakraProtoMsg::COMM_SEND_NODE : ChakraProtoMsg::COMM_RECV_NODE);
    IntAttr(node, send ? "comm_dst" : "comm_src", peer);
    IntAttr(node, "comm_size", bytes);
    IntAttr(node, "comm_tag", tag);
    return node;
}

/// Writes one rank's file.
void
WriteRank(const std::string& prefix,
          uint32_t rank,
          const std::vector<Node>& nodes,
          bool gzip = false)
{
    ChakraTraceOutput out(prefix + "." + std::to_string(rank) + ".et", gzip);
    ChakraProtoMsg::GlobalMetadata metadata; // empty: a zero-length message
    out.Write(metadata);
    for (const Node& node : nodes)
    {
        out.Write(node);
    }
    out.Close();
}

/// The message of the error reading \p prefix gives ("" if it reads).
std::string
ReadError(const std::string& prefix, const ChakraReadOptions& options = {})
{
    try
    {
        ChakraReader::Read(prefix, options);
    }
    catch (const WorkloadFormatError& e)
    {
        EXPECT_EQ(e.GetErrors().size(), 1u);
        return e.GetErrors().front().ToString();
    }
    return "";
}

#define EXPECT_READ_ERROR(prefix, fragment)                                                        \
    do                                                                                             \
    {                                                                                              \
        std::string message = ReadError(prefix);                                                   \
        EXPECT_NE(message.find(fragment), std::string::npos) << message;                           \
    } while (false)

} // namespace

TEST(ChakraReader, MicrobenchmarkSamples)
{
    for (std::string type : {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"})
    {
        for (uint32_t n : {4u, 8u})
        {
            std::string prefix =
                SAMPLES + "microbenchmarks/" + type + "/" + std::to_string(n) + "npus_1MB/" + type;
            ChakraReadReport report;
            WorkloadDag dag = ChakraReader::Read(prefix, {}, &report);
            ASSERT_EQ(dag.GetRankCount(), n) << prefix;
            EXPECT_EQ(report.nodes, n);
            for (uint32_t r = 0; r < n; ++r)
            {
                ASSERT_EQ(dag.GetOps(r).size(), 1u);
                EXPECT_EQ(dag.GetOps(r)[0].bytes, 1048576u);
                EXPECT_EQ(dag.GetOps(r)[0].group, "all");
            }
            EXPECT_EQ(dag.FindGroup("all")->size(), n);
            std::string name = type;
            name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
            EXPECT_EQ(WorkloadOpTypeName(dag.GetOps(0)[0].type), name);
        }
    }
}

TEST(ChakraReader, RingSendRecvSample)
{
    WorkloadDag dag =
        ChakraReader::Read(SAMPLES + "ring-allreduce-sendrecv-8npus/custom_allreduce", {});
    ASSERT_EQ(dag.GetRankCount(), 8u);
    for (uint32_t r = 0; r < 8; ++r)
    {
        auto ops = dag.GetOps(r);
        ASSERT_EQ(ops.size(), 35u);
        for (std::size_t i = 1; i < ops.size(); ++i)
        {
            // One chain: every node waits for the one before it.
            EXPECT_EQ(ops[i].deps, std::vector<uint32_t>{ops[i - 1].id});
        }
        for (const WorkloadOp& op : ops)
        {
            if (op.type == WorkloadOpType::SEND)
            {
                EXPECT_EQ(op.peer, (r + 1) % 8);
            }
            if (op.type == WorkloadOpType::RECV)
            {
                EXPECT_EQ(op.peer, (r + 7) % 8);
            }
        }
    }
}

// The estimator's sends are eager, as the communicator's: the ring written as sends that
// each rank issues before its receive runs (it deadlocked as a rendezvous), 14 messages and
// 7 reductions of 7 us in a chain: 14 (S/B + alpha) + 49 us.
TEST(ChakraReader, RingSampleEstimate)
{
    WorkloadDag dag =
        ChakraReader::Read(SAMPLES + "ring-allreduce-sendrecv-8npus/custom_allreduce", {});
    WorkloadEstimatorConfig c;
    c.gpusPerServer = 1;
    c.scaleOutGbps = 200;
    c.latencyUs = 10;
    double expected = 14 * (131072 * 8 / 200e9 + 10e-6) + 7 * 7e-6;
    EXPECT_NEAR(WorkloadEstimator(c).Run(dag).makespanS, expected, 1e-12);
    // As a rendezvous (Opus's requests) every rank's first send waits for a receive that
    // comes after the peer's own send: the check before an Opus run refuses it.
    c.rendezvousPointToPoint = true;
    EXPECT_THROW(WorkloadEstimator(c).Run(dag), std::runtime_error);
}

TEST(ChakraReader, ProcessGroupSample)
{
    std::string prefix = SAMPLES + "process-groups-2d-16npus/trace";
    EXPECT_READ_ERROR(prefix, "give the comm-group JSON (--commGroups)");
    ChakraReadOptions options;
    options.commGroupsFile = SAMPLES + "process-groups-2d-16npus/comm_group.json";
    WorkloadDag dag = ChakraReader::Read(prefix, options);
    // pg_name "1.0" names group "1", as ASTRA-sim's stoi reads it.
    EXPECT_EQ(dag.GetOps(5)[0].group, "pg1");
    EXPECT_EQ(*dag.FindGroup("pg1"), (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(dag.GetOps(5)[1].durationUs, 100.0);
    EXPECT_EQ(*dag.FindGroup(dag.GetOps(5)[2].group), (std::vector<uint32_t>{1, 5, 9, 13}));
}

TEST(ChakraReader, InvolvedDimIsServerOrRail)
{
    TempDir dir;
    auto dims = [](Node node, std::vector<bool> values) {
        auto* a = node.add_attr();
        a->set_name("involved_dim");
        for (bool v : values)
        {
            a->mutable_bool_list()->add_values(v);
        }
        return node;
    };
    for (uint32_t r = 0; r < 8; ++r)
    {
        WriteRank(dir / "t",
                  r,
                  {dims(Collective(1, 0, 64), {true, false}),
                   dims(Collective(2, 0, 64, {1}), {false, true}),
                   dims(Collective(3, 0, 64, {2}), {true, false, true}),
                   dims(Collective(4, 0, 64, {3}), {true, true})});
    }
    ChakraReadOptions options;
    options.gpusPerServer = 4;
    ChakraReadReport report;
    WorkloadDag dag = ChakraReader::Read(dir / "t", options, &report);
    EXPECT_EQ(dag.GetOps(5)[0].group, "server1");
    EXPECT_EQ(*dag.FindGroup("server1"), (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(dag.GetOps(5)[1].group, "rail1");
    EXPECT_EQ(*dag.FindGroup("rail1"), (std::vector<uint32_t>{1, 5}));
    EXPECT_EQ(dag.GetOps(5)[2].group, "all");
    EXPECT_EQ(dag.GetOps(5)[3].group, "all");
    EXPECT_EQ(report.involvedDimAllRanks, 8u); // the [true, false, true] of each rank
    // Without a server size nothing maps: every rank, every collective but all-true counted.
    ChakraReader::Read(dir / "t", {}, &report);
    EXPECT_EQ(report.involvedDimAllRanks, 24u);
}

TEST(ChakraReader, OddButLegalShapes)
{
    TempDir dir;
    // Ids from 100, not contiguous, written out of order with forward references; gzip on
    // rank 1; dangling, self and cyclic ctrl_deps.
    for (uint32_t r = 0; r < 2; ++r)
    {
        Node last = Compute(900, 5, {300});
        last.add_ctrl_deps(12345); // not in the file
        last.add_ctrl_deps(900);   // itself
        Node middle = Collective(300, 0, 4096, {100});
        Node first = Compute(100, 10);
        Node a = Compute(500, 1);
        a.add_ctrl_deps(700);
        Node b = Compute(700, 1);
        b.add_ctrl_deps(500); // with a's: a cycle of ctrl_deps
        b.add_ctrl_deps(100); // honoured
        WriteRank(dir / "odd", r, {last, middle, a, b, first}, r == 1);
    }
    ChakraReadReport report;
    WorkloadDag dag = ChakraReader::Read(dir / "odd", {}, &report);
    EXPECT_EQ(report.gzipFiles, 1u);
    EXPECT_EQ(report.ctrlDepsDangling, 2u);
    EXPECT_EQ(report.ctrlDepsSelf, 2u);
    EXPECT_EQ(report.ctrlDepsCycle, 2u);    // a's on b, per rank: dropped
    EXPECT_EQ(report.ctrlDepsHonoured, 4u); // b's on a (a went first) and on 100, per rank
    // Issue order: 100, 300, 900 (free), then the cycle broken at its smallest id: 500, 700.
    // Not ascending: renumbered, the Chakra ids kept in the labels.
    EXPECT_EQ(report.renumberedRanks, 2u);
    std::vector<std::string> labels;
    for (const WorkloadOp& op : dag.GetOps(1))
    {
        labels.push_back(op.label);
    }
    EXPECT_EQ(labels, (std::vector<std::string>{"n100", "n300", "n900", "n500", "n700"}));
    EXPECT_EQ(dag.GetOps(1)[4].deps, (std::vector<uint32_t>{3, 0})); // on 500 and 100
    EXPECT_EQ(dag.GetOps(1)[2].deps, std::vector<uint32_t>{1});      // 900 on 300
    EXPECT_EQ(dag.GetOps(1)[1].stream, "c300");
    EXPECT_EQ(dag.GetOps(1)[0].stream, "compute");
}

TEST(ChakraReader, RenumbersWhenIdsAreNotInDependencyOrder)
{
    TempDir dir;
    for (uint32_t r = 0; r < 2; ++r)
    {
        // Node 5 waits for node 9: issue order is 9, 5, so ids become 0, 1.
        WriteRank(dir / "t", r, {Collective(5, 2, 1024, {9}), Compute(9, 3)});
    }
    ChakraReadReport report;
    WorkloadDag dag = ChakraReader::Read(dir / "t", {}, &report);
    EXPECT_EQ(report.renumberedRanks, 2u);
    EXPECT_EQ(dag.GetOps(0)[0].type, WorkloadOpType::COMPUTE);
    EXPECT_EQ(dag.GetOps(0)[0].id, 0u);
    EXPECT_EQ(dag.GetOps(0)[1].deps, std::vector<uint32_t>{0});
    EXPECT_EQ(dag.GetOps(0)[1].stream, "c5"); // the Chakra id stays in the stream's name
}

TEST(ChakraReader, PointToPointPairsBySize)
{
    TempDir dir;
    // Two sizes with one tag, received in the other order: paired by (src, dst, tag, size).
    WriteRank(dir / "t", 0, {PointToPoint(1, true, 1, 100), PointToPoint(2, true, 1, 200)});
    WriteRank(dir / "t", 1, {PointToPoint(1, false, 0, 200), PointToPoint(2, false, 0, 100)});
    ChakraReadReport report;
    WorkloadDag dag = ChakraReader::Read(dir / "t", {}, &report);
    EXPECT_EQ(report.sizeSplitTags, 1u);
    EXPECT_EQ(dag.GetOps(0)[1].tag, dag.GetOps(1)[0].tag); // the 200-byte pair
    EXPECT_EQ(dag.GetOps(0)[0].tag, dag.GetOps(1)[1].tag); // the 100-byte pair
    EXPECT_NE(dag.GetOps(0)[0].tag, dag.GetOps(0)[1].tag);
}

TEST(ChakraReader, NumOpsAndMetadataGroups)
{
    TempDir dir;
    for (uint32_t r = 0; r < 4; ++r)
    {
        Node meta = MakeNode(1, ChakraProtoMsg::METADATA_NODE);
        meta.mutable_inputs()->set_values(
            R"([[{"pg_name": "0", "ranks": []}, {"pg_name": "7", "ranks": [0, 2]},)"
            R"( {"pg_name": "8", "ranks": [1, 3]}]])");
        Node flops = MakeNode(2, ChakraProtoMsg::COMP_NODE, {1});
        IntAttr(flops, "num_ops", 2000000000000); // 2 TFLOP
        Node coll = Collective(3, 0, 4096, {2});
        auto* pg = coll.add_attr();
        pg->set_name("pg_name");
        pg->set_string_val(r % 2 == 0 ? "7" : "8");
        WriteRank(dir / "t", r, {meta, flops, coll});
    }
    ChakraReadOptions options;
    options.computeTflops = 100;
    ChakraReadReport report;
    WorkloadDag dag = ChakraReader::Read(dir / "t", options, &report);
    EXPECT_EQ(report.computeFromNumOps, 4u);
    EXPECT_EQ(report.zeroTimeNodes, 4u);
    EXPECT_DOUBLE_EQ(dag.GetOps(0)[1].durationUs, 20000.0); // 2e12 / 1e14 s
    EXPECT_EQ(*dag.FindGroup("pg7"), (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(report.groupsFrom, "METADATA nodes");
    EXPECT_READ_ERROR(dir / "t", "no GPU to time it");
}

TEST(ChakraReader, RefusalsNameFileAndNode)
{
    TempDir dir;
    auto both = [&](const std::string& name, std::vector<Node> r0, std::vector<Node> r1) {
        WriteRank(dir / name, 0, r0);
        WriteRank(dir / name, 1, r1);
        return dir / name;
    };
    EXPECT_READ_ERROR(both("dep", {Compute(1, 1, {7})}, {}), "node 1: data_deps names node 7");
    EXPECT_READ_ERROR(both("cycle", {Compute(1, 1, {2}), Compute(2, 1, {1})}, {}),
                      "node 1: its data_deps lead back to it");
    EXPECT_READ_ERROR(both("dup", {Compute(1, 1), Compute(1, 2)}, {}),
                      "node 1: the id is used twice");
    EXPECT_READ_ERROR(both("gather", {Collective(4, 3, 64)}, {Collective(4, 3, 64)}),
                      "gather.0.et: node 4: COMM_COLL GATHER: the collective engine cannot run it");
    EXPECT_READ_ERROR(both("mismatch", {Collective(1, 0, 64)}, {Collective(1, 2, 64)}),
                      "collective 1 of group 'all' on rank 1 is allgather of 64 B, but on rank 0");
    EXPECT_READ_ERROR(
        both("count", {Collective(1, 0, 64), Collective(2, 0, 64, {1})}, {Collective(1, 0, 64)}),
        "rank 1 issues 1 collectives on group 'all', rank 0 issues 2");
    EXPECT_READ_ERROR(both("unmatched", {PointToPoint(3, true, 1, 64)}, {}),
                      "unmatched.0.et: node 3: rank 0 sends 1 message(s) of 64 B to 1 with tag 0, "
                      "and rank 1 receives 0");
    EXPECT_READ_ERROR(both("peer", {PointToPoint(3, true, 9, 64)}, {}),
                      "node 3: comm_dst 9 is not a rank of the trace (0-1)");
    EXPECT_READ_ERROR(both("zero", {Collective(1, 0, 0)}, {Collective(1, 0, 0)}),
                      "node 1: comm_size 0 is outside [1, 2^40] bytes");
    EXPECT_READ_ERROR(dir / "none", "no Chakra trace here");
    WriteRank(dir / "gap", 0, {});
    WriteRank(dir / "gap", 2, {});
    EXPECT_READ_ERROR(dir / "gap", "rank 1 is missing");
    // Truncated: the file and the byte offset of the message cut short.
    std::string file = SAMPLES + "process-groups-2d-16npus/trace.0.et";
    WriteRank(dir / "cut", 0, {});
    fs::copy_file(file, dir / "cut.0.et", fs::copy_options::overwrite_existing);
    fs::resize_file(dir / "cut.0.et", 200);
    // By hand: metadata 1 + 7 bytes, nodes of 1 + 104 and 1 + 34: the third starts at 148.
    EXPECT_READ_ERROR(dir / "cut", "cut.0.et: byte 148: truncated node (105 bytes announced)");
}

// What the hostile review found: each was a crash, a silent acceptance or a misleading line.
TEST(ChakraReader, ReviewFindings)
{
    TempDir dir;
    // METADATA JSON nested 50,000 lists deep (a recursion overflowed the stack).
    Node deep = MakeNode(1, ChakraProtoMsg::METADATA_NODE);
    deep.mutable_inputs()->set_values(std::string(50000, '[') + std::string(50000, ']'));
    WriteRank(dir / "deep", 0, {deep});
    EXPECT_EQ(ReadError(dir / "deep"), "");
    // A length prefix of 2^32 + 5 before a 5-byte node (read as 5 when cut to 32 bits).
    {
        WriteRank(dir / "long", 0, {});
        std::string node = Compute(5, 10).SerializeAsString();
        std::ofstream out(dir / "long.0.et", std::ios::binary | std::ios::app);
        uint64_t length = (uint64_t(1) << 32) + node.size();
        while (length >= 0x80)
        {
            out.put(char(0x80 | (length & 0x7f)));
            length >>= 7;
        }
        out.put(char(length));
        out << node;
    }
    EXPECT_READ_ERROR(dir / "long",
                      "long.0.et: byte 1: a node of " +
                          std::to_string((uint64_t(1) << 32) + Compute(5, 10).ByteSizeLong()) +
                          " bytes announced");
    // Two METADATA nodes giving one group other ranks.
    for (uint32_t r = 0; r < 3; ++r)
    {
        Node meta = MakeNode(1, ChakraProtoMsg::METADATA_NODE);
        meta.mutable_inputs()->set_values(r == 0 ? R"([{"pg_name": "a", "ranks": [0, 1]}])"
                                                 : R"([{"pg_name": "a", "ranks": [0, 2]}])");
        WriteRank(dir / "meta", r, {meta});
    }
    EXPECT_READ_ERROR(dir / "meta", "meta.1.et: node 1: process group 'a' has other ranks");
    // Negative num_ops (it gave a zero-time compute).
    Node negative = MakeNode(1, ChakraProtoMsg::COMP_NODE);
    IntAttr(negative, "num_ops", -1);
    WriteRank(dir / "flops", 0, {negative});
    EXPECT_READ_ERROR(dir / "flops", "node 1: attribute 'num_ops': must be a finite number >= 0");
    // A gzip file without its trailer (it was read as complete).
    WriteRank(dir / "gz", 0, {Compute(1, 1)}, true);
    fs::resize_file(dir / "gz.0.et", fs::file_size(dir / "gz.0.et") - 6);
    EXPECT_READ_ERROR(dir / "gz", "of the compressed file: truncated gzip data");
    // comm_dst -1 is a bad rank, not a missing one.
    WriteRank(dir / "dst", 0, {PointToPoint(1, true, -1, 64)});
    WriteRank(dir / "dst", 1, {});
    EXPECT_READ_ERROR(dir / "dst", "node 1: comm_dst -1 is not a rank of the trace (0-1)");
    // A duplicate member in the comm-group JSON names the JSON.
    std::ofstream(dir / "groups.json") << R"({"0": [0, 0]})";
    ChakraReadOptions options;
    options.commGroupsFile = dir / "groups.json";
    std::string message = ReadError(dir / "dst", options);
    EXPECT_NE(message.find("groups.json: group '0' names rank 0 twice"), std::string::npos)
        << message;
}

// What the second review found.
TEST(ChakraReader, SecondReviewFindings)
{
    TempDir dir;
    auto stringAttr = [](Node node, const std::string& name, const std::string& value) {
        auto* a = node.add_attr();
        a->set_name(name);
        a->set_string_val(value);
        return node;
    };
    // pr_stream_dep on a node of another stream is a real dependency: kept.
    Node coll = Collective(2, 0, 64, {1});
    IntAttr(coll, "pr_stream_dep", 1);
    WriteRank(dir / "sd", 0, {Compute(1, 10), coll});
    WriteRank(dir / "sd", 1, {Compute(1, 10), coll});
    EXPECT_EQ(ChakraReader::Read(dir / "sd", {}).GetOps(0)[1].deps, std::vector<uint32_t>{1});
    // pr_iteration beyond the validator's bound, pr_root outside the group.
    Node late = Compute(1, 1);
    IntAttr(late, "pr_iteration", int64_t(1) << 40);
    WriteRank(dir / "it", 0, {late});
    EXPECT_READ_ERROR(dir / "it",
                      "it.0.et: node 1: attribute 'pr_iteration' 1099511627776 is "
                      "more than 1000000");
    Node bcast = Collective(1, 5, 64);
    IntAttr(bcast, "pr_root", 7);
    WriteRank(dir / "root", 0, {bcast});
    WriteRank(dir / "root", 1, {bcast});
    EXPECT_READ_ERROR(dir / "root", "node 1: attribute 'pr_root' 7 is not a member of group 'all'");
    // pg_name: an integer written another way names its group, nothing else does.
    std::ofstream(dir / "g.json") << R"({"1": [0, 1]})";
    ChakraReadOptions options;
    options.commGroupsFile = dir / "g.json";
    for (std::string name : {"1.0", "01", "1.9", "0x1", " 1"})
    {
        Node pg = stringAttr(Collective(1, 0, 64), "pg_name", name);
        WriteRank(dir / "pg", 0, {pg});
        WriteRank(dir / "pg", 1, {pg});
        bool integral = name == "1.0" || name == "01";
        EXPECT_EQ(ReadError(dir / "pg", options).empty(), integral) << name;
    }
    // Concatenated gzip members, then garbage: the offset is the garbage's in the file.
    {
        WriteRank(dir / "gzm", 0, {Compute(1, 1)}, true);
        std::ifstream in(dir / "gzm.0.et", std::ios::binary);
        std::string member((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        in.close();
        std::ofstream(dir / "gzm.0.et", std::ios::binary) << member << member << "GARBAGE";
    }
    std::string message = ReadError(dir / "gzm");
    std::size_t at = message.find("byte ");
    ASSERT_NE(at, std::string::npos) << message;
    std::ifstream size(dir / "gzm.0.et", std::ios::binary | std::ios::ate);
    uint64_t garbageAt = uint64_t(size.tellg()) - 7;
    uint64_t offset = std::stoull(message.substr(at + 5));
    EXPECT_GE(offset, garbageAt) << message; // where zlib saw it: within the garbage
    EXPECT_LE(offset, garbageAt + 7) << message;
    EXPECT_NE(message.find("of the compressed file: corrupt gzip data"), std::string::npos);
}

// Issue 34, item 7: comm_type -1 was reported as missing ("without comm_type"); a value that
// is given but names no CollectiveCommType (0 to 9) is now called what it is.
TEST(ChakraReader, CommTypeMissingOrInvalid)
{
    TempDir dir;
    for (int64_t commType : {int64_t(-1), int64_t(10)})
    {
        std::string name = "type" + std::to_string(commType);
        WriteRank(dir / name, 0, {Collective(1, commType, 64)});
        EXPECT_EQ(ReadError(dir / name),
                  dir / name + ".0.et: node 1: COMM_COLL node with an invalid comm_type " +
                      std::to_string(commType) + " (Chakra's CollectiveCommType is 0 to 9)");
    }
    Node untyped = MakeNode(1, ChakraProtoMsg::COMM_COLL_NODE);
    IntAttr(untyped, "comm_size", 64);
    WriteRank(dir / "untyped", 0, {untyped});
    EXPECT_EQ(ReadError(dir / "untyped"),
              dir / "untyped" + ".0.et: node 1: COMM_COLL node without comm_type");
}

namespace
{

/// A CPU-side collective launch as PyTorch's converter writes it: COMM_COLL, is_cpu_op, no
/// comm_type or comm_size, its CPU time as duration.
Node
LaunchStub(uint64_t id, const std::string& name, std::vector<uint64_t> data = {})
{
    Node node = MakeNode(id, ChakraProtoMsg::COMM_COLL_NODE, data);
    node.set_name(name);
    node.set_duration_micros(85);
    auto* cpu = node.add_attr();
    cpu->set_name("is_cpu_op");
    cpu->set_bool_val(true);
    return node;
}

/**
 * One rank of a PyTorch-converted all-reduce of \p bytes: c10d::allreduce_ recorded twice
 * on the CPU (the second after the first; the first names itself in ctrl_deps, as the
 * converter's output does), the NCCL kernel on the GPU after the first, then 10 us of
 * compute.
 */
std::vector<Node>
PyTorchAllReduce(int64_t bytes)
{
    Node first = LaunchStub(1, "c10d::allreduce_(0)");
    first.add_ctrl_deps(1);
    Node second = LaunchStub(2, "c10d::allreduce_(1)", {1});
    Node kernel = Collective(3, 0, bytes, {1});
    kernel.set_name("ncclKernel_AllReduce_RING_LL_Sum_float");
    kernel.add_ctrl_deps(2);
    return {first, second, kernel, Compute(4, 10, {3})};
}

} // namespace

// Issue 31, item 4: in traces converted from PyTorch, a collective's CPU launches are
// COMM_COLL nodes without comm_type; the GPU kernel that depends on them is the collective.
// The launches are zero-time CPU steps (counted); the kernel is read as before; the job takes
// what the same trace without launches takes (the network-free estimator).
TEST(ChakraReader, PyTorchLaunchesAreZeroTimeCpuSteps)
{
    TempDir dir;
    const int64_t bytes = 1 << 20;
    for (uint32_t rank = 0; rank < 4; ++rank)
    {
        WriteRank(dir / "pytorch", rank, PyTorchAllReduce(bytes));
        WriteRank(dir / "plain", rank, {Collective(3, 0, bytes), Compute(4, 10, {3})});
    }
    ChakraReadReport report;
    WorkloadDag dag = ChakraReader::Read(dir / "pytorch", {}, &report);
    EXPECT_EQ(report.collectiveStubs, 8u);
    for (uint32_t rank = 0; rank < 4; ++rank)
    {
        auto ops = dag.GetOps(rank);
        ASSERT_EQ(ops.size(), 4u);
        for (std::size_t i : {0, 1})
        {
            EXPECT_EQ(ops[i].type, WorkloadOpType::COMPUTE) << ops[i].label;
            EXPECT_EQ(ops[i].durationUs, 0.0) << ops[i].label;
            EXPECT_EQ(ops[i].stream, "cpu") << ops[i].label;
        }
        EXPECT_EQ(ops[2].type, WorkloadOpType::ALLREDUCE);
        EXPECT_EQ(ops[2].bytes, uint64_t(bytes));
        EXPECT_EQ(ops[3].durationUs, 10.0);
    }
    std::vector<std::string> lines = report.Lines();
    EXPECT_NE(std::find(lines.begin(),
                        lines.end(),
                        "8 CPU-side collective launches (COMM_COLL without comm_type, e.g. "
                        "c10d::allreduce_) kept as zero-time CPU steps: their GPU kernels "
                        "carry the collectives"),
              lines.end());
    WorkloadEstimatorConfig config;
    config.gpusPerServer = 1;
    WorkloadDag plain = ChakraReader::Read(dir / "plain", {});
    double withLaunches = WorkloadEstimator(config).Run(dag).makespanS;
    EXPECT_DOUBLE_EQ(withLaunches, WorkloadEstimator(config).Run(plain).makespanS);
    EXPECT_GT(withLaunches, 10e-6); // the all-reduce and the compute after it
}

// A launch whose kernel is missing, or a GPU-side COMM_COLL without comm_type, is refused as
// any COMM_COLL without comm_type.
TEST(ChakraReader, LaunchesWithoutAKernelAreRefused)
{
    TempDir dir;
    WriteRank(dir / "alone", 0, {LaunchStub(1, "c10d::allreduce_(0)"), Compute(2, 10, {1})});
    EXPECT_EQ(ReadError(dir / "alone"),
              dir / "alone" + ".0.et: node 1: COMM_COLL node without comm_type");
    Node gpu = MakeNode(1, ChakraProtoMsg::COMM_COLL_NODE);
    WriteRank(dir / "gpu", 0, {gpu, Collective(2, 0, 64, {1})});
    EXPECT_EQ(ReadError(dir / "gpu"),
              dir / "gpu" + ".0.et: node 1: COMM_COLL node without comm_type");
    // The kernel is a GPU node: a CPU node with comm_type after a launch is not one.
    Node cpuKernel = Collective(2, 0, 64, {1});
    auto* cpu = cpuKernel.add_attr();
    cpu->set_name("is_cpu_op");
    cpu->set_bool_val(true);
    WriteRank(dir / "cpuKernel", 0, {LaunchStub(1, "c10d::allreduce_(0)"), cpuKernel});
    EXPECT_EQ(ReadError(dir / "cpuKernel"),
              dir / "cpuKernel" + ".0.et: node 1: COMM_COLL node without comm_type");
    // A comm_type given as the one value that reads as "not given" is refused as given.
    Node lowest = LaunchStub(1, "c10d::allreduce_(0)");
    IntAttr(lowest, "comm_type", INT64_MIN);
    WriteRank(dir / "lowest", 0, {lowest, Collective(2, 0, 64, {1})});
    EXPECT_EQ(ReadError(dir / "lowest"),
              dir / "lowest" + ".0.et: node 1: attribute 'comm_type': " +
                  std::to_string(INT64_MIN) + " names no CollectiveCommType (0 to 9)");
}

// Issue 33, item 3: a key given twice in a comm-group file or in a METADATA node's JSON
// was taken silently (the later ranks won); refused as in every JSON input.
TEST(ChakraReader, DuplicateKeysInGroupJsonAreRefused)
{
    TempDir dir;
    WriteRank(dir / "t", 0, {Collective(1, 0, 64)});
    WriteRank(dir / "t", 1, {Collective(1, 0, 64)});
    std::ofstream(dir / "g.json") << R"({"1": [0, 1], "1": [0]})";
    ChakraReadOptions options;
    options.commGroupsFile = dir / "g.json";
    const std::string rule =
        "a key may appear once per object (the earlier value would be silently dropped)";
    EXPECT_EQ(ReadError(dir / "t", options),
              dir / "g.json" + ": field '1': duplicate key '1': " + rule);
    Node meta = MakeNode(1, ChakraProtoMsg::METADATA_NODE);
    meta.mutable_inputs()->set_values(R"([{"pg_name": "7", "ranks": [0, 1], "ranks": [0]}])");
    WriteRank(dir / "m", 0, {meta, Collective(2, 0, 64, {1})});
    WriteRank(dir / "m", 1, {meta, Collective(2, 0, 64, {1})});
    EXPECT_EQ(ReadError(dir / "m"),
              dir / "m" + ".0.et: node 1: field '[0].ranks': duplicate key 'ranks': " + rule);
    // Metadata that is not JSON declares no group, as before.
    EXPECT_TRUE(ChakraCommGroups::ParseMetadata("not json", "m").empty());
}

TEST(ChakraWriter, RefusesAPrefixWithOddRankFiles)
{
    TempDir dir;
    std::ofstream(dir / "t.01.et") << "x";
    WorkloadOp op;
    op.durationUs = 1;
    op.stream = "compute";
    EXPECT_THROW(ChakraWriter::Write(WorkloadDag(1, {}, {op}), dir / "t"), std::runtime_error);
    EXPECT_FALSE(fs::exists(dir / "t.0.et"));
}

TEST(ChakraWriter, RemovesRanksOfALargerEarlierTrace)
{
    TempDir dir;
    WorkloadOp op;
    op.durationUs = 1;
    op.stream = "compute";
    WorkloadOp other = op;
    other.rank = 1;
    ChakraWriter::Write(WorkloadDag(2, {}, {op, other}), dir / "t");
    std::vector<std::string> removed;
    ChakraWriter::Write(WorkloadDag(1, {}, {op}), dir / "t", false, &removed);
    EXPECT_EQ(removed, std::vector<std::string>{dir / "t.1.et"});
    EXPECT_EQ(ChakraReader::Read(dir / "t", {}).GetRankCount(), 1u);
}

/// Reading \p prefix gives a DAG or a WorkloadFormatError, nothing else.
void
ExpectErrorOrDag(const std::string& prefix, const ChakraReadOptions& options)
{
    try
    {
        ChakraReader::Read(prefix, options);
    }
    catch (const WorkloadFormatError&)
    {
    }
}

TEST(ChakraReader, TruncationsAndByteFlipsNeverCrash)
{
    TempDir dir;
    std::string sample = SAMPLES + "process-groups-2d-16npus/";
    ChakraReadOptions options;
    options.commGroupsFile = sample + "comm_group.json";
    options.gpusPerServer = 4;
    for (uint32_t r = 0; r < 16; ++r)
    {
        fs::copy_file(sample + "trace." + std::to_string(r) + ".et",
                      dir / ("t." + std::to_string(r) + ".et"));
    }
    std::ifstream in(sample + "trace.3.et", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto put = [&](const std::string& content) {
        std::ofstream out(dir / "t.3.et", std::ios::binary | std::ios::trunc);
        out << content;
    };
    for (std::size_t size = 0; size < bytes.size(); ++size)
    {
        put(bytes.substr(0, size));
        EXPECT_NE(ReadError(dir / "t", options), "") << "truncated at " << size;
    }
    std::mt19937 random(7);
    for (int flip = 0; flip < 3000; ++flip)
    {
        std::string damaged = bytes;
        damaged[random() % damaged.size()] ^= char(1 + random() % 255);
        put(damaged);
        ExpectErrorOrDag(dir / "t", options);
    }
    // The same file gzip-compressed: every truncation is an error, flips never crash.
    {
        ChakraTraceInput plain(sample + "trace.3.et");
        ChakraTraceOutput gzip(dir / "t.3.et", true);
        ChakraProtoMsg::GlobalMetadata metadata;
        plain.ReadMetadata(metadata);
        gzip.Write(metadata);
        for (Node node; plain.ReadNode(node);)
        {
            gzip.Write(node);
        }
        gzip.Close();
    }
    ASSERT_EQ(ReadError(dir / "t", options), "");
    std::ifstream zin(dir / "t.3.et", std::ios::binary);
    std::string zipped((std::istreambuf_iterator<char>(zin)), std::istreambuf_iterator<char>());
    zin.close();
    for (std::size_t size = 0; size < zipped.size(); ++size)
    {
        put(zipped.substr(0, size));
        EXPECT_NE(ReadError(dir / "t", options), "") << "gzip truncated at " << size;
    }
    for (int flip = 0; flip < 1000; ++flip)
    {
        std::string damaged = zipped;
        damaged[random() % damaged.size()] ^= char(1 + random() % 255);
        put(damaged);
        ExpectErrorOrDag(dir / "t", options);
    }
}

TEST(ChakraWriter, GeneratedJobRoundTrips)
{
    TempDir dir;
    WorkloadGeneratorConfig c;
    c.model = WorkloadModelSpec::Preset("llama3-8b");
    c.model.layers = 2;
    c.tp = 4;
    c.pp = 2;
    c.dp = 2;
    c.dpMode = WorkloadGeneratorConfig::FSDP;
    c.microBatches = 2;
    c.gpusPerServer = 4;
    c.iterations = 2;
    WorkloadDag dag = WorkloadGenerator(c).GenerateValid();
    for (bool gzip : {false, true})
    {
        std::string prefix = dir / (gzip ? "z" : "p");
        std::vector<std::string> files = ChakraWriter::Write(dag, prefix, gzip);
        ASSERT_EQ(files.size(), dag.GetRankCount() + 1);
        ChakraReadOptions options;
        options.commGroupsFile = ChakraWriter::CommGroupsFile(prefix);
        ChakraReadReport report;
        WorkloadDag back = ChakraReader::Read(prefix, options, &report);
        EXPECT_TRUE(back == dag) << (gzip ? "gzip" : "plain");
        EXPECT_EQ(report.renumberedRanks, 0u);
        EXPECT_EQ(report.gzipFiles, gzip ? dag.GetRankCount() : 0u);
    }
}

TEST(ChakraWriter, WritesWhatAstraSimReads)
{
    TempDir dir;
    WorkloadOp compute;
    compute.rank = 0;
    compute.id = 0;
    compute.durationUs = 2.5;
    compute.stream = "compute";
    WorkloadOp second = compute;
    second.id = 1;
    WorkloadOp reduce;
    reduce.rank = 0;
    reduce.id = 2;
    reduce.type = WorkloadOpType::REDUCESCATTER;
    reduce.group = "dp";
    reduce.bytes = 1 << 20;
    reduce.stream = "comm";
    WorkloadDag dag(1, {{"dp", {0}}}, {compute, second, reduce});
    ChakraWriter::Write(dag, dir / "w");
    ChakraTraceInput in(dir / "w.0.et");
    ChakraProtoMsg::GlobalMetadata metadata;
    in.ReadMetadata(metadata);
    EXPECT_EQ(metadata.version(), "0.0.4");
    Node node;
    ASSERT_TRUE(in.ReadNode(node));
    EXPECT_EQ(node.type(), ChakraProtoMsg::COMP_NODE);
    EXPECT_EQ(node.duration_micros(), 3u); // whole microseconds; the exact value rides along
    ASSERT_TRUE(in.ReadNode(node));
    EXPECT_EQ(std::vector<uint64_t>(node.data_deps().begin(), node.data_deps().end()),
              std::vector<uint64_t>{0}); // the stream's order, as a data dependency
    ASSERT_TRUE(in.ReadNode(node));
    EXPECT_EQ(node.type(), ChakraProtoMsg::COMM_COLL_NODE);
    std::map<std::string, std::string> attrs;
    for (const auto& a : node.attr())
    {
        attrs[a.name()] = a.has_string_val() ? a.string_val() : std::to_string(a.int64_val());
    }
    EXPECT_EQ(attrs["comm_type"], "7");
    EXPECT_EQ(attrs["comm_size"], "1048576");
    EXPECT_EQ(attrs["pg_name"], "0");
    EXPECT_FALSE(in.ReadNode(node));
    EXPECT_EQ(ChakraCommGroups::ReadFile(dir / "w.comm_group.json").at("0"),
              std::vector<uint32_t>{0});
}

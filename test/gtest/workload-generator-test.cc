// The LLM training generator: the paper's numbers, pipeline schedules, placement, a
// hand-countable small case, structural checks of every parallelism, and FSDP2 under
// pipelining as the measured job ran it (reshard policies, prefetch depth, where the
// reductions go, the --job presets).
#include "ns3/strict-command-line.h"
#include "ns3/workload-estimator.h"
#include "ns3/workload-generator-flags.h"
#include "ns3/workload-generator.h"
#include "ns3/workload-json.h"
#include "ns3/workload-phase-log.h"
#include "ns3/workload-pipeline-schedule.h"
#include "ns3/workload-validator.h"
#include "ns3/workload-windows.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const double MIB = 1024.0 * 1024.0;

bool
StartsWith(const std::string& text, const std::string& prefix)
{
    return text.compare(0, prefix.size(), prefix) == 0;
}

bool
EndsWith(const std::string& text, const std::string& suffix)
{
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The paper's job: Llama3-8B, 4 nodes x 4 A100, TP=4, FSDP=2, PP=2 (1F1B), mbs 2, seq 8192.
WorkloadGeneratorConfig
PaperConfig()
{
    WorkloadGeneratorConfig c;
    c.model = WorkloadModelSpec::Preset("llama3-8b");
    c.gpu = WorkloadGpuSpec::Preset("a100");
    c.tp = 4;
    c.pp = 2;
    c.dp = 2;
    c.dpMode = WorkloadGeneratorConfig::FSDP;
    c.schedule = WorkloadPipelineSchedule::ONE_F_ONE_B;
    c.microBatchSize = 2;
    c.microBatches = 4;
    c.seqLen = 8192;
    c.gpusPerServer = 4;
    c.recompute = true;
    return c;
}

/// A tiny Llama-like model whose numbers are easy to count by hand.
WorkloadGeneratorConfig
TinyConfig()
{
    WorkloadGeneratorConfig c;
    c.model.name = "tiny";
    c.model.layers = 4;
    c.model.hidden = 64;
    c.model.heads = 4;
    c.model.kvHeads = 4;
    c.model.ffn = 128;
    c.model.vocab = 100;
    c.seqLen = 16;
    c.microBatches = 2;
    c.gpusPerServer = 2;
    return c;
}

std::vector<const WorkloadOp*>
Select(const WorkloadDag& dag, uint32_t rank, const std::string& prefix, const std::string& suffix)
{
    std::vector<const WorkloadOp*> ops;
    for (const auto& op : dag.GetOps(rank))
    {
        if (StartsWith(op.label, prefix) && EndsWith(op.label, suffix))
        {
            ops.push_back(&op);
        }
    }
    return ops;
}

uint64_t
Bytes(const std::vector<const WorkloadOp*>& ops)
{
    uint64_t sum = 0;
    for (const auto* op : ops)
    {
        sum += op->bytes;
    }
    return sum;
}

/// The pipeline sends and receives of a rank, as "send.fwd.mb0"-like strings in issue (id)
/// order.
std::vector<std::string>
PipelineOps(const WorkloadDag& dag, uint32_t rank)
{
    std::vector<std::string> out;
    for (const auto& op : dag.GetOps(rank))
    {
        if (IsWorkloadPointToPoint(op.type))
        {
            out.push_back(op.label.substr(3) + "@" + std::to_string(op.peer));
        }
    }
    return out;
}

} // namespace

// ---- the paper's numbers ----------------------------------------------------------------

TEST(WorkloadGenerator, PaperFsdpAllGatherPhaseIs17CollectivesOf957MiB)
{
    WorkloadDag dag = WorkloadGenerator(PaperConfig()).Generate();
    ASSERT_TRUE(WorkloadValidator::Validate(dag, "paper").empty());
    // Per block 218,112,000 parameters (hand count in workload-model-spec-test), sharded over
    // TP=4 then FSDP=2, in bf16: 218,112,000 / 8 x 2 = 54,528,000 bytes = 52.0 MiB.
    const uint64_t block = 218112000ull / 8 * 2;
    EXPECT_EQ(block, 54528000ull);
    EXPECT_NEAR(block / MIB, 52.0, 0.05);
    // Stage 0 = 16 blocks + the root unit holding the 128256 x 4096 embedding.
    const uint64_t root = 128256ull * 4096 / 8 * 2; // 131,334,144 bytes
    std::vector<const WorkloadOp*> phase = Select(dag, 0, "fsdp.allgather.", ".fwd.mb0");
    ASSERT_EQ(phase.size(), 17u);                                   // 16 blocks + 1 root unit
    EXPECT_EQ(phase.front()->label, "fsdp.allgather.root.fwd.mb0"); // root first
    EXPECT_EQ(phase.front()->bytes, root);
    for (std::size_t i = 1; i < phase.size(); ++i)
    {
        EXPECT_EQ(phase[i]->label, "fsdp.allgather.block" + std::to_string(i - 1) + ".fwd.mb0");
        EXPECT_EQ(phase[i]->bytes, block);
        EXPECT_EQ(phase[i]->type, WorkloadOpType::ALLGATHER);
        EXPECT_EQ(phase[i]->group, "dp0");
    }
    // 16 x 54,528,000 + 131,334,144 = 1,003,782,144 bytes = 957.28 MiB ("957.3").
    EXPECT_EQ(Bytes(phase), 16 * block + root);
    EXPECT_NEAR(Bytes(phase) / MIB, 957.3, 0.05);
    // Stage 1 (rank 4): 16 blocks + norm and head (4096 + 128256 x 4096) -> also 957.3 MiB.
    std::vector<const WorkloadOp*> stage1 = Select(dag, 4, "fsdp.allgather.", ".fwd.mb0");
    ASSERT_EQ(stage1.size(), 17u);
    EXPECT_EQ(Bytes(stage1), 16 * block + (4096 + 128256ull * 4096) / 8 * 2);
    EXPECT_NEAR(Bytes(stage1) / MIB, 957.3, 0.05);
    // Stage 0 runs F0 F1 B0 F2 B1 F3 B2 B3. Reshard "always" freed every unit after F1, so
    // B0 gathers all 17 again: the root first (issued before the gradient's receive), then
    // the blocks in reverse.
    std::vector<const WorkloadOp*> backward = Select(dag, 0, "fsdp.allgather.", ".bwd.mb0");
    ASSERT_EQ(backward.size(), 17u);
    EXPECT_EQ(backward[0]->label, "fsdp.allgather.root.bwd.mb0");
    EXPECT_EQ(backward[1]->label, "fsdp.allgather.block15.bwd.mb0");
    EXPECT_EQ(backward[16]->label, "fsdp.allgather.block0.bwd.mb0");
    const WorkloadOp* recv = Select(dag, 0, "pp.recv.bwd", ".mb0").front();
    EXPECT_LT(backward[0]->id, recv->id);
    EXPECT_EQ(backward[0]->deps, recv->deps); // gated like the receive
    // B3 follows B2, which kept the parameters (not the chunk's last backward): none.
    EXPECT_TRUE(Select(dag, 0, "fsdp.allgather.", ".bwd.mb3").empty());
}

TEST(WorkloadGenerator, PaperReduceScatterPhaseIs3829MiBOfFp32Gradients)
{
    WorkloadDag dag = WorkloadGenerator(PaperConfig()).Generate();
    std::vector<const WorkloadOp*> rs = Select(dag, 0, "fsdp.reducescatter.", "");
    ASSERT_EQ(rs.size(), 17u); // once per iteration, after the last micro-batch's backward
    // Input = the TP shard's full gradient in fp32: (16 x 218,112,000 + 525,336,576) / 4 x 4
    // = 4,015,128,576 bytes = 3829.12 MiB.
    const uint64_t expected = (16 * 218112000ull + 128256ull * 4096) / 4 * 4;
    EXPECT_EQ(Bytes(rs), expected);
    EXPECT_NEAR(Bytes(rs) / MIB, 3829.1, 0.05);
    // 4x the AllGather phase: fp32 instead of bf16 (2x) and unsharded over FSDP=2 (2x).
    EXPECT_EQ(Bytes(rs), 4 * Bytes(Select(dag, 0, "fsdp.allgather.", ".fwd.mb0")));
    for (const auto* op : rs)
    {
        EXPECT_EQ(op->type, WorkloadOpType::REDUCESCATTER);
        EXPECT_TRUE(EndsWith(op->label, "root") || op->label.find(".block") != std::string::npos);
        // All issued once the last backward (B3) has ended: its last op is the embedding's.
        EXPECT_EQ(
            op->deps,
            (std::vector<uint32_t>{Select(dag, 0, "compute.bwd.embedding", ".mb3").front()->id}));
    }
    // Optimizer step: three 4-byte AllReduces after every ReduceScatter (and the grad norm).
    std::vector<const WorkloadOp*> ar = Select(dag, 0, "optimizer.allreduce.", "");
    ASSERT_EQ(ar.size(), 3u);
    EXPECT_EQ(Bytes(ar), 12u);
    EXPECT_GT(ar.front()->id, rs.back()->id);
}

TEST(WorkloadGenerator, PaperComputeTimesFollowFlopsOverPeakTimesMfu)
{
    WorkloadDag dag = WorkloadGenerator(PaperConfig()).Generate();
    std::vector<const WorkloadOp*> attn = Select(dag, 0, "compute.block0.attn.fwd", ".mb0");
    ASSERT_EQ(attn.size(), 1u);
    // Tokens T = 2 x 8192 = 16384. Projections 2 T x 41,943,040; causal attention
    // 4 h T S / 2 = 2 x 4096 x 16384 x 8192. Sum / TP 4 = 6.1848e11 FLOPs; at 312 TFLOP/s x
    // MFU 0.4 = 124.8 TFLOP/s: 4955.73 us.
    const double flops = (2.0 * 16384 * 41943040 + 2.0 * 4096 * 16384 * 8192) / 4;
    EXPECT_NEAR(attn.front()->durationUs, flops / 124.8e12 * 1e6, 0.001);
    EXPECT_NEAR(attn.front()->durationUs, 4955.73, 0.01);
    // Backward is twice the forward; with full recomputation the forward runs again first.
    std::vector<const WorkloadOp*> bwd = Select(dag, 0, "compute.block0.attn.bwd", ".mb0");
    ASSERT_EQ(bwd.size(), 1u);
    EXPECT_NEAR(bwd.front()->durationUs, 2 * attn.front()->durationUs, 0.002);
    EXPECT_EQ(Select(dag, 0, "compute.block0.attn.recompute", ".mb0").size(), 1u);
    // PP send: the micro-batch's activations, sequence-sharded over TP:
    // 2 x 8192 x 4096 x 2 bytes / 4 = 32 MiB (a send + recv phase is the paper's 64 MiB).
    std::vector<const WorkloadOp*> send = Select(dag, 0, "pp.send.fwd", ".mb0");
    ASSERT_EQ(send.size(), 1u);
    EXPECT_EQ(send.front()->bytes, 2ull * 8192 * 4096 * 2 / 4);
    EXPECT_EQ(send.front()->peer, 4); // same rail, next stage
}

TEST(WorkloadGenerator, FoldingTpAddsItsTimeToCompute)
{
    WorkloadGeneratorConfig c = PaperConfig();
    c.foldTp = true;
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    for (const auto& op : dag.GetAllOps())
    {
        ASSERT_NE(op.group.substr(0, 2), "tp") << op.label;
    }
    EXPECT_EQ(dag.FindGroup("tp0"), nullptr);
    // AllGather + ReduceScatter of T x h x 2 bytes = 134,217,728 bytes each moving 3/4 of it at
    // 300 GB/s: 2 x 0.75 x 134217728 / 300e9 s = 671.09 us on top of 4955.73 us.
    std::vector<const WorkloadOp*> attn = Select(dag, 0, "compute.block0.attn.fwd", ".mb0");
    ASSERT_EQ(attn.size(), 1u);
    EXPECT_NEAR(attn.front()->durationUs, 4955.73 + 2 * 0.75 * 134217728 / 300e9 * 1e6, 0.01);
}

// ---- pipeline schedules -----------------------------------------------------------------

TEST(WorkloadGenerator, OneFOneBEmitsSendsAndRecvsInScheduleOrder)
{
    WorkloadDag dag = WorkloadGenerator(PaperConfig()).Generate(); // pp 2, 4 micro-batches
    // Stage 0 (rank 0): warm-up F0; steady (F1,B0) (F2,B1) (F3,B2); cool-down B3. It sends
    // activations after each forward and receives gradients before each backward.
    std::vector<std::string> stage0 = {"send.fwd.mb0@4",
                                       "send.fwd.mb1@4",
                                       "recv.bwd.mb0@4",
                                       "send.fwd.mb2@4",
                                       "recv.bwd.mb1@4",
                                       "send.fwd.mb3@4",
                                       "recv.bwd.mb2@4",
                                       "recv.bwd.mb3@4"};
    EXPECT_EQ(PipelineOps(dag, 0), stage0);
    // Stage 1 (rank 4): no warm-up; F0 B0 F1 B1 ... receiving activations, sending gradients.
    std::vector<std::string> stage1 = {"recv.fwd.mb0@0",
                                       "send.bwd.mb0@0",
                                       "recv.fwd.mb1@0",
                                       "send.bwd.mb1@0",
                                       "recv.fwd.mb2@0",
                                       "send.bwd.mb2@0",
                                       "recv.fwd.mb3@0",
                                       "send.bwd.mb3@0"};
    EXPECT_EQ(PipelineOps(dag, 4), stage1);
}

TEST(WorkloadGenerator, OneFOneBMiddleStagesOfAFourStagePipeline)
{
    WorkloadGeneratorConfig c = TinyConfig();
    c.pp = 4;
    c.microBatches = 6;
    c.gpusPerServer = 1;
    WorkloadGenerator generator(c);
    WorkloadDag dag = generator.Generate();
    ASSERT_TRUE(WorkloadValidator::Validate(dag, "pp4").empty());
    // Stage 1 of 4: warm-up P - s - 1 = 2 forwards, then alternate, then drain.
    std::vector<std::string> actions =
        {"F0", "F1", "F2", "B0", "F3", "B1", "F4", "B2", "F5", "B3", "B4", "B5"};
    std::vector<std::string> expected;
    for (const auto& a : actions)
    {
        std::string mb = ".mb" + a.substr(1);
        if (a[0] == 'F')
        {
            expected.push_back("recv.fwd" + mb + "@0");
            expected.push_back("send.fwd" + mb + "@2");
        }
        else
        {
            expected.push_back("recv.bwd" + mb + "@2");
            expected.push_back("send.bwd" + mb + "@0");
        }
    }
    EXPECT_EQ(PipelineOps(dag, 1), expected);
    // Per micro-batch every stage boundary carries exactly one activation and one gradient.
    for (uint32_t rank = 0; rank < 4; ++rank)
    {
        std::size_t expectedCount = (rank == 0 || rank == 3) ? 2 * 6 : 4 * 6;
        EXPECT_EQ(PipelineOps(dag, rank).size(), expectedCount);
    }
}

TEST(WorkloadPipelineSchedule, GpipeRunsAllForwardsFirst)
{
    WorkloadPipelineSchedule s(WorkloadPipelineSchedule::GPIPE, 2, 3, 1);
    std::vector<std::string> text;
    for (const auto& a : s.GetActions(1))
    {
        text.push_back(a.ToString());
    }
    EXPECT_EQ(text, (std::vector<std::string>{"F0", "F1", "F2", "B0", "B1", "B2"}));
}

TEST(WorkloadPipelineSchedule, InterleavedMatchesMegatronByHand)
{
    // P = 2, v = 2, M = 4: 8 virtual micro-batches. Forward k: chunk (k mod 4) / 2, micro-batch
    // (k / 4) * 2 + k mod 2; backward chunks reversed. Warm-up: stage 0 (2-0-1)*2 + 1*2 = 4,
    // stage 1: 0 + 2 = 2.
    WorkloadPipelineSchedule s(WorkloadPipelineSchedule::INTERLEAVED_1F1B, 2, 4, 2);
    auto text = [&s](uint32_t stage) {
        std::vector<std::string> out;
        for (const auto& a : s.GetActions(stage))
        {
            out.push_back(a.ToString());
        }
        return out;
    };
    EXPECT_EQ(text(0),
              (std::vector<std::string>{"F0",
                                        "F1",
                                        "F0.c1",
                                        "F1.c1",
                                        "F2",
                                        "B0.c1",
                                        "F3",
                                        "B1.c1",
                                        "F2.c1",
                                        "B0",
                                        "F3.c1",
                                        "B1",
                                        "B2.c1",
                                        "B3.c1",
                                        "B2",
                                        "B3"}));
    EXPECT_EQ(text(1),
              (std::vector<std::string>{"F0",
                                        "F1",
                                        "F0.c1",
                                        "B0.c1",
                                        "F1.c1",
                                        "B1.c1",
                                        "F2",
                                        "B0",
                                        "F3",
                                        "B1",
                                        "F2.c1",
                                        "B2.c1",
                                        "F3.c1",
                                        "B3.c1",
                                        "B2",
                                        "B3"}));
    EXPECT_THROW(WorkloadPipelineSchedule(WorkloadPipelineSchedule::INTERLEAVED_1F1B, 2, 3, 2),
                 std::invalid_argument); // M must be a multiple of P
}

TEST(WorkloadGenerator, EverySchedulesReplaysWithoutDeadlock)
{
    for (auto kind : {WorkloadPipelineSchedule::GPIPE,
                      WorkloadPipelineSchedule::ONE_F_ONE_B,
                      WorkloadPipelineSchedule::INTERLEAVED_1F1B})
    {
        WorkloadGeneratorConfig c = TinyConfig();
        c.model.layers = 8;
        c.pp = 4;
        c.dp = 2;
        c.tp = 2;
        c.microBatches = 8;
        c.schedule = kind;
        c.virtualStages = kind == WorkloadPipelineSchedule::INTERLEAVED_1F1B ? 2 : 1;
        c.iterations = 2;
        c.recompute = true;
        c.gpusPerServer = 4;
        WorkloadDag dag = WorkloadGenerator(c).Generate();
        ASSERT_TRUE(WorkloadValidator::Validate(dag, "schedules").empty())
            << WorkloadPipelineSchedule::KindName(kind);
        WorkloadEstimatorConfig e;
        e.gpusPerServer = 4;
        e.repetitions = 2;
        WorkloadEstimate estimate;
        ASSERT_NO_THROW(estimate = WorkloadEstimator(e).Run(dag))
            << WorkloadPipelineSchedule::KindName(kind);
        std::size_t comms = 0;
        for (const auto& op : dag.GetAllOps())
        {
            comms += op.type == WorkloadOpType::COMPUTE ? 0 : 1;
        }
        EXPECT_EQ(estimate.timeline.GetRecords().size(), 2 * comms); // every comm op ran
        EXPECT_EQ(estimate.iterationTimesS.size(), 4u);              // 2 iterations x 2 replays
    }
}

// ---- a hand-countable small case ----------------------------------------------------------

TEST(WorkloadGenerator, TinyFsdpPipelineCountsByHand)
{
    // 4 layers, PP 2, FSDP 2, 2 micro-batches, 1F1B, TP 1. Ranks r = pp + 2 dp.
    WorkloadGeneratorConfig c = TinyConfig();
    c.pp = 2;
    c.dp = 2;
    WorkloadGenerator generator(c);
    WorkloadDag dag = generator.Generate();
    ASSERT_TRUE(WorkloadValidator::Validate(dag, "tiny").empty());
    EXPECT_EQ(dag.GetRankCount(), 4u);
    WorkloadDag::GroupMap groups = {{"dp0", {0, 2}},
                                    {"dp1", {1, 3}},
                                    {"pp0", {0, 1}},
                                    {"pp1", {2, 3}}};
    EXPECT_EQ(dag.GetGroups(), groups);
    // Units of stage 0: root (embedding), block0, block1; reshard "always". Stage 0 runs
    // F0 F1 B0 B1:
    //   F0, F1: AG root, block0, block1 + embedding + 2 x (attn, mlp) computes + send = 9
    //   B0 (after a forward: all sharded): AG root + recv + AG block1, block0 + 4 computes
    //       + embedding bwd = 9
    //   B1 (after B0, which kept them gathered): recv + 4 computes + embedding bwd = 6
    // Once: 3 ReduceScatters (block1, block0, root), the grad norm on dp and on pp, 3
    // optimizer AllReduces, 1 step = 9. 9 + 9 + 9 + 6 + 9 = 42 ops, 5 + 5 + 5 + 5 + 1 = 21
    // of them computes.
    std::map<WorkloadOpType, std::size_t> count;
    for (const auto& op : dag.GetOps(0))
    {
        ++count[op.type];
    }
    EXPECT_EQ(dag.GetOps(0).size(), 42u);
    EXPECT_EQ(count[WorkloadOpType::ALLGATHER], 9u);
    EXPECT_EQ(count[WorkloadOpType::COMPUTE], 21u);
    EXPECT_EQ(count[WorkloadOpType::SEND], 2u);
    EXPECT_EQ(count[WorkloadOpType::RECV], 2u);
    EXPECT_EQ(count[WorkloadOpType::REDUCESCATTER], 3u);
    EXPECT_EQ(count[WorkloadOpType::ALLREDUCE], 5u);
    // Stage 1 (block2, block3, root = norm + head) runs F0 B0 F1 B1:
    //   F0: recv + AG root, block2, block3 + 4 computes + head = 9
    //   B0: AG root + head bwd + AG block3, block2 + 4 computes + send = 9
    //   F1 (after B0: still gathered): recv + 4 computes + head = 6
    //   B1 (after F1, which resharded): 9 as B0
    // and the same 9 once: 42 ops too. Ranks 2 and 3 are stages 0 and 1 of FSDP index 1.
    EXPECT_EQ(dag.GetOps(1).size(), 42u);
    EXPECT_EQ(dag.GetOps(2).size(), 42u);
    EXPECT_EQ(dag.GetOps(3).size(), 42u);
    // Bytes: a layer has 2*64*64 + 2*64*64 (attention) + 3*64*128 (MLP) + 2*64 = 41,088
    // parameters; FSDP 2 in bf16 gives a 41,088-byte shard; its fp32 ReduceScatter input is
    // 41,088 x 4 = 164,352 bytes. The embedding is 100 x 64 = 6,400 parameters -> 6,400 bytes.
    EXPECT_EQ(Select(dag, 0, "fsdp.allgather.block0.fwd", ".mb0").front()->bytes, 41088u);
    EXPECT_EQ(Select(dag, 0, "fsdp.reducescatter.block0", "").front()->bytes, 164352u);
    EXPECT_EQ(Select(dag, 0, "fsdp.allgather.root.fwd", ".mb0").front()->bytes, 6400u);
    // Head unit on stage 1: norm 64 + output 6,400 = 6,464 parameters -> 6,464 bytes.
    EXPECT_EQ(Select(dag, 1, "fsdp.allgather.root.fwd", ".mb0").front()->bytes, 6464u);
    // PP: 1 sequence x 16 tokens x 64 x 2 bytes = 2,048 bytes.
    EXPECT_EQ(Select(dag, 0, "pp.send.fwd", ".mb0").front()->bytes, 2048u);
}

TEST(WorkloadGenerator, DdpAllReducesGradientsInsteadOfSharding)
{
    WorkloadGeneratorConfig c = TinyConfig();
    c.dp = 2;
    c.dpMode = WorkloadGeneratorConfig::DDP;
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    ASSERT_TRUE(WorkloadValidator::Validate(dag, "ddp").empty());
    EXPECT_TRUE(Select(dag, 0, "fsdp.", "").empty());
    // One AllReduce per unit (4 blocks + root holding embedding and head), fp32 gradients:
    // 4 x 41,088 x 4 + (6,400 + 6,464) x 4 bytes.
    std::vector<const WorkloadOp*> ar = Select(dag, 0, "ddp.allreduce.", "");
    ASSERT_EQ(ar.size(), 5u);
    EXPECT_EQ(Bytes(ar), 4 * 41088ull * 4 + (6400 + 6464) * 4ull);
}

TEST(WorkloadGenerator, ContextAndExpertParallelCollectives)
{
    WorkloadGeneratorConfig c = TinyConfig();
    c.model.experts = 4;
    c.model.topK = 2;
    c.cp = 2;
    c.dp = 4;
    c.ep = 2;
    c.microBatches = 1;
    c.gpusPerServer = 8;
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    ASSERT_TRUE(WorkloadValidator::Validate(dag, "moe").empty());
    // Ranks r = cp + 2 dp. EP groups are pairs of consecutive DP indices; expert data
    // parallel groups join equal DP indices modulo 2.
    EXPECT_EQ(*dag.FindGroup("ep0"), (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(*dag.FindGroup("edp0"), (std::vector<uint32_t>{0, 4}));
    EXPECT_EQ(*dag.FindGroup("cp0"), (std::vector<uint32_t>{0, 1}));
    // Per layer and micro-batch: dispatch + combine forward and backward = 4 AllToAlls of
    // 8 tokens (16 / cp 2) x top-2 x 64 x 2 bytes = 2,048 bytes.
    std::vector<const WorkloadOp*> a2a = Select(dag, 0, "ep.alltoall.", "");
    ASSERT_EQ(a2a.size(), 4u * 4);
    for (const auto* op : a2a)
    {
        EXPECT_EQ(op->bytes, 2048u);
        EXPECT_EQ(op->type, WorkloadOpType::ALLTOALL);
    }
    // CP: AllGather of the local K and V (8 tokens x 2 x 4 heads x 16 x 2 bytes = 2,048) per
    // layer forward, ReduceScatter of dK/dV (x cp) per backward.
    EXPECT_EQ(Select(dag, 0, "cp.allgather.kv", "").size(), 4u);
    EXPECT_EQ(Select(dag, 0, "cp.allgather.kv", "").front()->bytes, 2048u);
    EXPECT_EQ(Select(dag, 0, "cp.reducescatter.dkv", "").front()->bytes, 4096u);
    // Expert weights (4 x 3 x 64 x 128 / ep 2 = 49,152 params) are gathered on edp0 (size 2).
    std::vector<const WorkloadOp*> experts = Select(dag, 0, "fsdp.allgather.block0", "experts");
    ASSERT_EQ(experts.size(), 2u); // forward and backward of the one micro-batch
    EXPECT_EQ(experts.front()->group, "edp0");
    EXPECT_EQ(experts.front()->bytes, 49152u / 2 * 2);
    WorkloadEstimatorConfig e;
    EXPECT_NO_THROW(WorkloadEstimator(e).Run(dag));
}

// ---- placement ---------------------------------------------------------------------------

TEST(WorkloadGenerator, DefaultPlacementIsTpCpPpDpInnermostFirst)
{
    WorkloadGenerator g(PaperConfig());
    ASSERT_EQ(g.GetRankCount(), 16u);
    // rank = tp + 4 (pp + 2 dp): rank 13 = tp 1, pp 1, dp 1.
    WorkloadGenerator::Coordinates at = g.GetCoordinates(13);
    EXPECT_EQ(at.tp, 1u);
    EXPECT_EQ(at.pp, 1u);
    EXPECT_EQ(at.dp, 1u);
    EXPECT_EQ(g.GetRank(at), 13u);
    WorkloadDag dag = g.Generate();
    EXPECT_EQ(*dag.FindGroup("tp3"), (std::vector<uint32_t>{12, 13, 14, 15}));
    EXPECT_EQ(*dag.FindGroup("dp5"), (std::vector<uint32_t>{5, 13}));
    EXPECT_EQ(*dag.FindGroup("pp5"), (std::vector<uint32_t>{9, 13}));
    // FSDP and PP peers stay on the rank's rail (r mod 4): the traffic the OCS carries.
    for (const auto& [name, members] : dag.GetGroups())
    {
        if (name.substr(0, 2) != "tp")
        {
            EXPECT_EQ(members[0] % 4, members[1] % 4) << name;
        }
    }
}

TEST(WorkloadGenerator, OtherOrdersAndTheScaleUpCheck)
{
    WorkloadGeneratorConfig c = PaperConfig();
    c.order = {"pp", "tp", "cp", "dp"}; // rank = pp + 2 (tp + 4 dp): TP stride 2
    c.gpusPerServer = 8;                // TP group {0,2,4,6} fits in server 0
    WorkloadGenerator g(c);
    EXPECT_EQ(g.GetCoordinates(3).pp, 1u);
    EXPECT_EQ(g.GetCoordinates(3).tp, 1u);
    c.gpusPerServer = 4; // {0,2,4,6} now spans servers 0 and 1
    try
    {
        WorkloadGenerator bad(c);
        FAIL() << "accepted a TP group across servers";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("does not fit in a scale-up domain"),
                  std::string::npos)
            << e.what();
    }
    c = PaperConfig();
    c.tp = 8; // more than the 4 GPUs of a server
    EXPECT_THROW(WorkloadGenerator{c}, std::invalid_argument);
    EXPECT_THROW(WorkloadGenerator::ParseOrder("tp,pp,dp"), std::invalid_argument);
    EXPECT_EQ(WorkloadGenerator::ParseOrder("TP, CP, PP, DP"),
              (std::vector<std::string>{"tp", "cp", "pp", "dp"}));
}

TEST(WorkloadGenerator, BatchArithmeticAndBadConfigurations)
{
    WorkloadGeneratorConfig c = PaperConfig();
    c.microBatches = 0;
    c.globalBatch = 16; // 16 / (micro-batch 2 x dp 2) = 4 micro-batches
    EXPECT_EQ(WorkloadGenerator(c).GetMicroBatches(), 4u);
    c.globalBatch = 10; // not a multiple of 4
    EXPECT_THROW(WorkloadGenerator{c}, std::invalid_argument);
    c = PaperConfig();
    c.ep = 2; // Llama is dense
    EXPECT_THROW(WorkloadGenerator{c}, std::invalid_argument);
    c = PaperConfig();
    c.cp = 3; // 8192 not a multiple of 3
    EXPECT_THROW(WorkloadGenerator{c}, std::invalid_argument);
    c = PaperConfig();
    c.pp = 64; // 32 layers cannot fill 64 stages
    c.gpusPerServer = 4;
    EXPECT_THROW(WorkloadGenerator{c}, std::invalid_argument);
}

// Issue 34, item 7: the ep check lumped three conditions into one message; each has its own
// now, saying what to change.
TEST(WorkloadGenerator, ExpertParallelRefusalsSayWhatToChange)
{
    auto refusal = [](const WorkloadGeneratorConfig& c) {
        try
        {
            WorkloadGenerator generator(c);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    WorkloadGeneratorConfig c = PaperConfig(); // Llama3-8B is dense: 1 expert
    c.ep = 2;
    EXPECT_EQ(refusal(c),
              "ep (2) needs a mixture-of-experts model, and llama3-8b is not one (experts = 1): "
              "set ep to 1, or choose an MoE model (mixtral-8x7b, or experts > 1)");
    c = TinyConfig();
    c.model.experts = 4;
    c.model.topK = 2;
    c.dp = 6;
    c.ep = 4; // 6 % 4 = 2
    EXPECT_EQ(refusal(c),
              "ep (4) must divide the data-parallel degree dp (6, --dp or --fsdp): set ep to a "
              "divisor of 6, or dp to a multiple of 4");
    c.ep = 3; // divides dp 6, not the 4 experts
    EXPECT_EQ(refusal(c),
              "ep (3) must divide the model's 4 experts (an expert-parallel group shares them "
              "out): set ep to a divisor of 4");
    c.ep = 2; // divides both
    EXPECT_EQ(refusal(c), "accepted");
}

TEST(WorkloadGenerator, IterationsAreChainedAndLabelled)
{
    WorkloadGeneratorConfig c = TinyConfig();
    c.dp = 2;
    c.iterations = 3;
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    ASSERT_TRUE(WorkloadValidator::Validate(dag, "iterations").empty());
    EXPECT_EQ(dag.GetIterationCount(), 3u);
    // The first op of iteration 1 on each stream waits for iteration 0's optimizer step.
    const WorkloadOp* step0 = Select(dag, 0, "optimizer.step", "").front();
    EXPECT_EQ(step0->iteration, 0u);
    for (const auto& op : dag.GetOps(0))
    {
        if (op.iteration == 1)
        {
            EXPECT_NE(std::find(op.deps.begin(), op.deps.end(), step0->id), op.deps.end())
                << op.label;
            break;
        }
    }
    EXPECT_EQ(WorkloadJson::Serialize(dag),
              WorkloadJson::Serialize(WorkloadGenerator(c).Generate()));
}

// ---- FSDP2 under pipelining: the measured job ------------------------------------------

namespace
{

/// The paper's measured job (--job=b16 or b24) as the programs configure it.
WorkloadGeneratorConfig
JobConfig(const std::string& job)
{
    return WorkloadGeneratorFlags::Job(job).ToConfig(WorkloadGeneratorFlags::JOB_GPUS_PER_SERVER);
}

/// The flags a command line gives, after --job: \p args without the program name.
WorkloadGeneratorConfig
ConfigOf(std::vector<std::string> args)
{
    WorkloadGeneratorFlags flags;
    StrictCommandLine cmd(__FILE__, "test");
    flags.Add(cmd);
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (std::string& arg : args)
    {
        argv.push_back(arg.data());
    }
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
    uint32_t gpusPerServer = flags.ApplyJob(cmd);
    return flags.ToConfig(gpusPerServer > 0 ? gpusPerServer : 8);
}

/// \return the message ConfigOf refuses \p args with, or "" if it accepts them
std::string
ConfigError(const std::vector<std::string>& args)
{
    try
    {
        ConfigOf(args);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// Gathers of each pass of a pipeline stage, in the stage's action order.
std::vector<std::size_t>
GathersPerPass(const WorkloadDag& dag, const WorkloadGenerator& generator, uint32_t rank)
{
    const WorkloadGeneratorConfig& c = generator.GetConfig();
    WorkloadPipelineSchedule schedule(c.schedule,
                                      c.pp,
                                      generator.GetMicroBatches(),
                                      c.virtualStages);
    std::vector<std::size_t> gathers;
    for (const auto& a : schedule.GetActions(generator.GetCoordinates(rank).pp))
    {
        std::string suffix = std::string(a.forward ? ".fwd" : ".bwd") + ".mb" +
                             std::to_string(a.microBatch) +
                             (c.virtualStages > 1 ? ".chunk" + std::to_string(a.chunk) : "");
        gathers.push_back(Select(dag, rank, "fsdp.allgather.", suffix).size());
    }
    return gathers;
}

/// 2 layers on 2 stages (one block and the root unit each), FSDP 2, 1F1B.
WorkloadGeneratorConfig
TwoStageConfig(uint32_t microBatches, WorkloadGeneratorConfig::ReshardPolicy policy)
{
    WorkloadGeneratorConfig c = TinyConfig();
    c.model.layers = 2;
    c.pp = 2;
    c.dp = 2;
    c.microBatches = microBatches;
    c.reshard = policy;
    return c;
}

/// The op that follows \p op in its rank's order.
const WorkloadOp*
Next(const WorkloadDag& dag, const WorkloadOp* op)
{
    return dag.FindOp(op->rank, op->id + 1);
}

/**
 * \brief A rank's scale-out communications in its start order over an estimated replay, as
 *        phases: maximal runs of one class, DP (the dp group, optimizer AllReduces
 *        included) or PP (send/recv and the pp group). TP stays inside a server and is not
 *        in the authors' logs.
 * \return per phase, whether it holds an optimizer AllReduce (the logs' backend-6 phases,
 *         which end a step)
 */
std::vector<bool>
RankPhases(const WorkloadTimeline& timeline, uint32_t rank)
{
    std::vector<bool> phases;
    std::string current;
    for (const auto& record : timeline.GetRecords())
    {
        std::string kind = WorkloadWindows::Parallelism(record.group);
        if (record.rank != rank || (kind != "dp" && kind != "pp"))
        {
            continue;
        }
        if (kind != current)
        {
            phases.push_back(false);
            current = kind;
        }
        if (StartsWith(record.label, "optimizer."))
        {
            phases.back() = true;
        }
    }
    return phases;
}

/// Phases per step: from the phase after an optimizer phase to the next optimizer phase,
/// both included (as the logs' steps end with their backend-6 phase).
std::vector<std::size_t>
PhasesPerStep(const std::vector<bool>& phases)
{
    std::vector<std::size_t> steps;
    std::optional<std::size_t> previous;
    for (std::size_t i = 0; i < phases.size(); ++i)
    {
        if (phases[i])
        {
            if (previous)
            {
                steps.push_back(i - *previous);
            }
            previous = i;
        }
    }
    return steps;
}

/// Path of one of the authors' logs, kept in ../shared/data beside the repository.
#define AUTHORS_LOG(name) PR_SOURCE_DIR "/../shared/data/opus-llama3-8b-perlmutter/" name

} // namespace

TEST(WorkloadGenerator, MeasuredJobFsdpCollectivesPerStep)
{
    // Per step and rank, 16 blocks + the root = 17 units, reshard "always", 1F1B:
    //   b16 stage 0 (F0 F1 B0 B1): 17 + 17 + 17 + 0 gathers (B1 follows B0, which kept the
    //       parameters), 17 ReduceScatters, 1 grad norm = 69
    //   b16 stage 1 (F0 B0 F1 B1): 17 + 17 + 0 + 17 (F1 follows B0; B1 follows F1, which
    //       resharded) + 17 + 1 = 69
    //   b24 stage 0 (F0 F1 B0 F2 B1 B2): 17 + 17 + 17 + 0 + 17 + 0 + 17 + 1 = 86
    //   b24 stage 1 (F0 B0 F1 B1 F2 B2): 17 + 17 + 0 + 17 + 0 + 17 + 17 + 1 = 86
    // the measured job's FSDP communicator counts. Ranks tp + 4 (pp + 2 dp): rank 0 holds
    // stage 0, rank 4 stage 1.
    for (const auto& [job, expected] : {std::pair<std::string, std::size_t>{"b16", 69},
                                        std::pair<std::string, std::size_t>{"b24", 86}})
    {
        WorkloadGenerator generator(JobConfig(job));
        WorkloadDag dag = generator.Generate();
        ASSERT_TRUE(WorkloadValidator::Validate(dag, job).empty()) << job;
        for (uint32_t rank : {0u, 4u})
        {
            EXPECT_EQ(Select(dag, rank, "fsdp.", "").size(), expected) << job << " rank " << rank;
            EXPECT_EQ(Select(dag, rank, "fsdp.reducescatter.", "").size(), 17u);
            EXPECT_EQ(Select(dag, rank, "fsdp.allreduce.gradnorm", "").size(), 1u);
        }
    }
    WorkloadGenerator b24(JobConfig("b24"));
    WorkloadDag dag = b24.Generate();
    EXPECT_EQ(GathersPerPass(dag, b24, 0), (std::vector<std::size_t>{17, 17, 17, 0, 17, 0}));
    EXPECT_EQ(GathersPerPass(dag, b24, 4), (std::vector<std::size_t>{17, 17, 0, 17, 0, 17}));
}

TEST(WorkloadGenerator, MeasuredJobPhasesPerStepMatchTheLogs)
{
    // b24, three steps, replayed without a network. Rank 0 (stage 0), after the optimizer
    // AllReduces, which run into F0's 17 blocking gathers (one DP phase, as in the logs):
    //   PP send F0 | DP F1's 17 gathers | PP send F1 | DP B0's root (issued with the recv) |
    //   PP recv B0 | DP B0's 16 blocks | PP send F2 (no gather: B0 kept them) | DP B1's root |
    //   PP recv B1 | DP B1's 16 blocks | PP recv B2 (no gather) | DP 17 ReduceScatters + the
    //   FSDP grad norm | PP the pp grad norm | DP optimizer (+ the next F0) = 14 phases.
    // Rank 4 (stage 1): PP recv F0 | DP F0 + B0's 34 gathers | PP send B0, recv F1 | DP B1's
    //   17 | PP send B1, recv F2 | DP B2's 17 | PP send B2 | DP 17 ReduceScatters + grad norm |
    //   PP pp grad norm | DP optimizer = 10 phases.
    WorkloadGeneratorConfig c = JobConfig("b24");
    c.iterations = 3;
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    WorkloadEstimatorConfig e;
    e.gpusPerServer = c.gpusPerServer;
    WorkloadTimeline timeline = WorkloadEstimator(e).Run(dag).timeline;
    std::vector<std::size_t> stage0 = PhasesPerStep(RankPhases(timeline, 0));
    std::vector<std::size_t> stage1 = PhasesPerStep(RankPhases(timeline, 4));
    EXPECT_EQ(stage0, (std::vector<std::size_t>{14, 14}));
    EXPECT_EQ(stage1, (std::vector<std::size_t>{10, 10}));
    // The logs: lines per step, a step ending with its backend-6 phase; step 0 (warm-up)
    // differs, every later one is a steady step.
    for (const auto& [name, generated] :
         {std::pair<std::string, std::size_t>{AUTHORS_LOG("stage0-phases.txt"), stage0.front()},
          std::pair<std::string, std::size_t>{AUTHORS_LOG("stage1-phases.txt"), stage1.front()}})
    {
        if (!std::ifstream(name))
        {
            GTEST_SKIP() << name << " not found (the shared/ folder beside the repository)";
        }
        WorkloadPhaseLog log = WorkloadPhaseLog::ReadFile(name);
        std::map<uint32_t, std::size_t> perStep;
        for (const auto& entry : log.GetEntries())
        {
            ++perStep[entry.iteration];
        }
        ASSERT_EQ(perStep.size(), 10u) << name;
        for (uint32_t step = 1; step < 10; ++step)
        {
            EXPECT_EQ(perStep[step], generated) << name << " step " << step;
        }
    }
}

TEST(WorkloadGenerator, MeasuredJobPipelineTensorIs64MiB)
{
    // Micro-batch 4 x sequence 8192 x hidden 4096 / TP 4 x 2 bytes (bf16, sequence
    // parallel) = 67,108,864 bytes = 64 MiB, the logs' PP message.
    WorkloadDag dag = WorkloadGenerator(JobConfig("b16")).Generate();
    for (const auto* op : Select(dag, 0, "pp.send.", ""))
    {
        EXPECT_EQ(op->bytes, 4ull * 8192 * 4096 / 4 * 2);
        EXPECT_EQ(op->bytes, 64ull << 20);
    }
    EXPECT_EQ(Select(dag, 0, "pp.send.", "").size(), 2u); // 2 micro-batches
}

TEST(WorkloadGenerator, ReshardPoliciesOnTwoStages)
{
    // Each stage holds 2 units (one block and its root). Stage 0 runs F0 F1 B0 B1 (2
    // micro-batches) or F0 F1 B0 F2 B1 B2 (3); stage 1 F0 B0 F1 B1 or F0 B0 F1 B1 F2 B2.
    // A pass gathers the units that are sharded; only a chunk's last backward reshards
    // (pipelining), except that "always" also reshards after every forward:
    //   always: a forward after a forward or at the start gathers 2, a forward after a
    //     backward 0 (kept), then reshards; a backward after a forward 2, after a backward 0.
    //   after-backward-only and never: only the first forward of the step gathers.
    using P = WorkloadGeneratorConfig;

    struct Case
    {
        P::ReshardPolicy policy;
        uint32_t microBatches;
        std::vector<std::size_t> stage0;
        std::vector<std::size_t> stage1;
    };

    const std::vector<Case> cases = {
        {P::RESHARD_ALWAYS, 2, {2, 2, 2, 0}, {2, 2, 0, 2}},
        {P::RESHARD_ALWAYS, 3, {2, 2, 2, 0, 2, 0}, {2, 2, 0, 2, 0, 2}},
        {P::RESHARD_AFTER_BACKWARD_ONLY, 2, {2, 0, 0, 0}, {2, 0, 0, 0}},
        {P::RESHARD_AFTER_BACKWARD_ONLY, 3, {2, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 0}},
        {P::RESHARD_NEVER, 2, {2, 0, 0, 0}, {2, 0, 0, 0}},
        {P::RESHARD_NEVER, 3, {2, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 0}},
    };
    for (const Case& k : cases)
    {
        WorkloadGeneratorConfig c = TwoStageConfig(k.microBatches, k.policy);
        c.iterations = 2;
        WorkloadGenerator generator(c);
        WorkloadDag dag = generator.Generate();
        std::string name =
            WorkloadGenerator::ReshardName(k.policy) + " M=" + std::to_string(k.microBatches);
        ASSERT_TRUE(WorkloadValidator::Validate(dag, name).empty()) << name;
        // Ranks pp + 2 dp; each iteration's labels repeat, so both steps' gathers are
        // counted: the optimizer step resharded everything, the second step gathers alike.
        std::vector<std::size_t> twice0 = GathersPerPass(dag, generator, 0);
        std::vector<std::size_t> twice1 = GathersPerPass(dag, generator, 1);
        for (auto& n : twice0)
        {
            n /= 2;
        }
        for (auto& n : twice1)
        {
            n /= 2;
        }
        EXPECT_EQ(twice0, k.stage0) << name;
        EXPECT_EQ(twice1, k.stage1) << name;
    }
}

TEST(WorkloadGenerator, ReshardPoliciesWithoutPipelining)
{
    // pp 1, 2 layers: units root (embedding + head), block0, block1; F0 B0 F1 B1. Without
    // pipelining every backward reshards (FSDP2's default for gradient accumulation),
    // except under "never":
    //   always: 3 3 3 3; after-backward-only: 3 0 3 0 (kept after a forward); never: 3 0 0 0.
    using P = WorkloadGeneratorConfig;
    const std::vector<std::pair<P::ReshardPolicy, std::vector<std::size_t>>> cases = {
        {P::RESHARD_ALWAYS, {3, 3, 3, 3}},
        {P::RESHARD_AFTER_BACKWARD_ONLY, {3, 0, 3, 0}},
        {P::RESHARD_NEVER, {3, 0, 0, 0}},
    };
    for (const auto& [policy, expected] : cases)
    {
        WorkloadGeneratorConfig c = TinyConfig();
        c.model.layers = 2;
        c.dp = 2;
        c.reshard = policy;
        WorkloadGenerator generator(c);
        WorkloadDag dag = generator.Generate();
        ASSERT_TRUE(WorkloadValidator::Validate(dag, "pp1").empty());
        EXPECT_EQ(GathersPerPass(dag, generator, 0), expected)
            << WorkloadGenerator::ReshardName(policy);
    }
}

TEST(WorkloadGenerator, ReduceScattersBunchAfterTheLastBackwardUnderPipelining)
{
    // 2 stages, 3 micro-batches: every ReduceScatter of a stage comes after its last
    // backward (B2) has ended, one after another, block then root, each waiting for that
    // end (the reduce stream orders them) and, on a stage that sends B2's gradient, for
    // that send too (the logs' last stage sends its last gradient, then reduce-scatters).
    WorkloadDag dag =
        WorkloadGenerator(TwoStageConfig(3, WorkloadGeneratorConfig::RESHARD_ALWAYS)).Generate();
    // Stage 0 (rank 0): B2 ends with the embedding's backward, then nothing else of B2.
    const WorkloadOp* end0 = Select(dag, 0, "compute.bwd.embedding", ".mb2").front();
    const WorkloadOp* rs0 = Next(dag, end0);
    ASSERT_EQ(rs0->label, "fsdp.reducescatter.block0");
    EXPECT_EQ(Next(dag, rs0)->label, "fsdp.reducescatter.root");
    // Stage 1 (rank 1): B2 ends with block1's attention backward, then its gradient's send.
    const WorkloadOp* end1 = Select(dag, 1, "compute.block1.attn.bwd", ".mb2").front();
    EXPECT_EQ(Next(dag, end1)->label, "pp.send.bwd.mb2");
    const WorkloadOp* rs1 = Next(dag, Next(dag, end1));
    ASSERT_EQ(rs1->label, "fsdp.reducescatter.block1");
    EXPECT_EQ(Next(dag, rs1)->label, "fsdp.reducescatter.root");
    const WorkloadOp* send1 = Next(dag, end1);
    for (const auto& [rank, deps] :
         {std::pair<uint32_t, std::vector<uint32_t>>{0, {end0->id}}, {1, {end1->id, send1->id}}})
    {
        std::vector<const WorkloadOp*> rs = Select(dag, rank, "fsdp.reducescatter.", "");
        ASSERT_EQ(rs.size(), 2u);
        for (const auto* op : rs)
        {
            EXPECT_EQ(op->deps, deps) << op->label;
            EXPECT_EQ(op->stream, "fsdp.rs");
        }
    }
}

TEST(WorkloadGenerator, ReduceScattersInterleaveWithoutPipelining)
{
    // pp 1, 2 layers, 2 micro-batches: in the last backward (mb1) each unit's gradients are
    // reduced right after its backward: block1, block0, then the root after the embedding.
    WorkloadGeneratorConfig c = TinyConfig();
    c.model.layers = 2;
    c.dp = 2;
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    for (const auto& [compute, unit] :
         {std::pair<std::string, std::string>{"compute.block1.attn.bwd", "block1"},
          {"compute.block0.attn.bwd", "block0"},
          {"compute.bwd.embedding", "root"}})
    {
        const WorkloadOp* end = Select(dag, 0, compute, ".mb1").front();
        const WorkloadOp* rs = Next(dag, end);
        EXPECT_EQ(rs->label, "fsdp.reducescatter." + unit);
        EXPECT_EQ(rs->deps, std::vector<uint32_t>{end->id});
    }
    EXPECT_EQ(Select(dag, 0, "fsdp.reducescatter.", "").size(), 3u);
}

TEST(WorkloadGenerator, GradientNormReductionsFollowTheReduceScatters)
{
    // The paper's job (pp 2, FSDP 2): after the 17 ReduceScatters, one 4-byte AllReduce on
    // the FSDP group, one on the pp group, then the optimizer's three.
    WorkloadDag dag = WorkloadGenerator(PaperConfig()).Generate();
    std::vector<const WorkloadOp*> rs = Select(dag, 0, "fsdp.reducescatter.", "");
    std::vector<const WorkloadOp*> dp = Select(dag, 0, "fsdp.allreduce.gradnorm", "");
    std::vector<const WorkloadOp*> pp = Select(dag, 0, "pp.allreduce.gradnorm", "");
    ASSERT_EQ(dp.size(), 1u);
    ASSERT_EQ(pp.size(), 1u);
    EXPECT_EQ(dp[0]->type, WorkloadOpType::ALLREDUCE);
    EXPECT_EQ(dp[0]->group, "dp0");
    EXPECT_EQ(dp[0]->bytes, 4u);
    for (const auto* op : rs)
    {
        EXPECT_NE(std::find(dp[0]->deps.begin(), dp[0]->deps.end(), op->id), dp[0]->deps.end());
    }
    EXPECT_EQ(pp[0]->type, WorkloadOpType::ALLREDUCE);
    EXPECT_EQ(pp[0]->group, "pp0"); // ranks 0 and 4
    EXPECT_EQ(pp[0]->bytes, 4u);
    EXPECT_EQ(pp[0]->deps, std::vector<uint32_t>{dp[0]->id});
    const WorkloadOp* optimizer = Select(dag, 0, "optimizer.allreduce.0", "").front();
    EXPECT_EQ(optimizer->deps, std::vector<uint32_t>{pp[0]->id});
    // Without pipelining: the FSDP one only. With DDP: neither.
    WorkloadGeneratorConfig c = TinyConfig();
    c.dp = 2;
    dag = WorkloadGenerator(c).Generate();
    ASSERT_EQ(Select(dag, 0, "fsdp.allreduce.gradnorm", "").size(), 1u);
    EXPECT_TRUE(Select(dag, 0, "pp.allreduce.", "").empty());
    EXPECT_EQ(Select(dag, 0, "optimizer.allreduce.0", "").front()->deps,
              std::vector<uint32_t>{Select(dag, 0, "fsdp.allreduce.gradnorm", "").front()->id});
    c.pp = 2;
    c.dpMode = WorkloadGeneratorConfig::DDP;
    dag = WorkloadGenerator(c).Generate();
    EXPECT_TRUE(Select(dag, 0, "fsdp.", "").empty());
    EXPECT_TRUE(Select(dag, 0, "pp.allreduce.", "").empty());
    EXPECT_EQ(Select(dag, 0, "optimizer.allreduce.", "").size(), 3u);
    // DDP keeps reducing each unit right after its last backward (stage 0: blocks 1, 0).
    const WorkloadOp* block1 = Select(dag, 0, "compute.block1.attn.bwd", ".mb1").front();
    EXPECT_EQ(Next(dag, block1)->label, "ddp.allreduce.block1");
}

TEST(WorkloadGenerator, GatherPrefetchDepthSetsWhatAGatherWaitsFor)
{
    // pp 1, 4 layers, F0 B0 F1 B1. In F1 the units are root (0), block0..block3 (1-4); the
    // gather of unit i waits for the pass's gate (B0's last op, the embedding's backward)
    // and for the computation of unit i - 1 - N: the embedding for unit 0, block k's MLP
    // for unit k + 1. N = 0: block k waits for unit k (gather, compute, gather, ...).
    for (uint32_t depth : {0u, 1u, 2u})
    {
        WorkloadGeneratorConfig c = TinyConfig();
        c.dp = 2;
        c.gatherPrefetch = depth;
        WorkloadDag dag = WorkloadGenerator(c).Generate();
        ASSERT_TRUE(WorkloadValidator::Validate(dag, "prefetch").empty());
        uint32_t gate = Select(dag, 0, "compute.bwd.embedding", ".mb0").front()->id;
        for (uint32_t block = 0; block < 4; ++block)
        {
            const WorkloadOp* gather =
                Select(dag, 0, "fsdp.allgather.block" + std::to_string(block), ".fwd.mb1").front();
            std::vector<uint32_t> expected = {gate};
            int waitedUnit = int(block + 1) - 1 - int(depth);
            if (waitedUnit == 0)
            {
                expected.push_back(Select(dag, 0, "compute.fwd.embedding", ".mb1").front()->id);
            }
            else if (waitedUnit > 0)
            {
                std::string mlp = "compute.block" + std::to_string(waitedUnit - 1) + ".mlp.fwd";
                expected.push_back(Select(dag, 0, mlp, ".mb1").front()->id);
            }
            std::sort(expected.begin(), expected.end());
            EXPECT_EQ(gather->deps, expected) << "N=" << depth << " block " << block;
        }
    }
    WorkloadGeneratorConfig c = TinyConfig();
    c.gatherPrefetch = WorkloadGeneratorConfig::MAX_GATHER_PREFETCH;
    EXPECT_NO_THROW(WorkloadGenerator{c});
    c.gatherPrefetch = WorkloadGeneratorConfig::MAX_GATHER_PREFETCH + 1;
    EXPECT_THROW(WorkloadGenerator{c}, std::invalid_argument);
}

TEST(WorkloadGenerator, BackwardComputeHasItsOwnMfu)
{
    // Attention of block 0, 6.1848e11 FLOPs per rank (see the paper's compute test): forward
    // and recomputation at MFU 0.4 (124.8 TFLOP/s) 4955.73 us; backward, twice the FLOPs at
    // MFU 0.5 (156 TFLOP/s), 2 x 6.1848e11 / 156e12 s = 7929.17 us.
    WorkloadGeneratorConfig c = PaperConfig();
    c.mfuBackward = 0.5;
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    const double flops = (2.0 * 16384 * 41943040 + 2.0 * 4096 * 16384 * 8192) / 4;
    auto duration = [&dag](const std::string& label) {
        return Select(dag, 0, label, ".mb0").front()->durationUs;
    };
    EXPECT_NEAR(duration("compute.block0.attn.fwd"), 4955.73, 0.01);
    EXPECT_NEAR(duration("compute.block0.attn.recompute"), 4955.73, 0.01);
    EXPECT_NEAR(duration("compute.block0.attn.bwd"), 2 * flops / 156e12 * 1e6, 0.001);
    EXPECT_NEAR(duration("compute.block0.attn.bwd"), 7929.17, 0.01);
    // The head's backward on the last stage (rank 4): 2 x 2 T h V / TP FLOPs at 0.5.
    const double head = 2.0 * 16384 * 4096 * 128256 / 4;
    EXPECT_NEAR(Select(dag, 4, "compute.bwd.head", ".mb0").front()->durationUs,
                2 * head / 156e12 * 1e6,
                0.001);
    // 0: the backward uses --mfu as before.
    c.mfuBackward = 0;
    dag = WorkloadGenerator(c).Generate();
    EXPECT_NEAR(duration("compute.block0.attn.bwd"), 2 * 4955.73, 0.01);
    for (double bad : {-0.1, 1.5, std::nan("")})
    {
        c.mfuBackward = bad;
        EXPECT_THROW(WorkloadGenerator{c}, std::invalid_argument) << bad;
    }
}

TEST(WorkloadGenerator, InterleavedStagesTrackEachChunk)
{
    // 8 layers, P = 2, v = 2, M = 4, reshard "always". Stage 0 holds chunk 0 (global stage 0:
    // embedding root + blocks 0, 1: 3 units) and chunk 1 (global stage 2: blocks 4, 5: 2
    // units). Its actions (see InterleavedMatchesMegatronByHand) and gathers, each chunk on
    // its own: chunk 0 runs F0 F1 F2 F3 B0 B1 B2 B3: 3 3 3 3 3 0 0 0; chunk 1 runs F0 F1 B0
    // B1 F2 F3 B2 B3: 2 2 2 0 0 (kept by B1, resharded after) 2 2 0.
    WorkloadGeneratorConfig c = TinyConfig();
    c.model.layers = 8;
    c.pp = 2;
    c.dp = 2;
    c.virtualStages = 2;
    c.microBatches = 4;
    c.schedule = WorkloadPipelineSchedule::INTERLEAVED_1F1B;
    WorkloadGenerator generator(c);
    WorkloadDag dag = generator.Generate();
    ASSERT_TRUE(WorkloadValidator::Validate(dag, "interleaved").empty());
    // F0 F1 F0.c1 F1.c1 F2 B0.c1 F3 B1.c1 F2.c1 B0 F3.c1 B1 B2.c1 B3.c1 B2 B3
    EXPECT_EQ(GathersPerPass(dag, generator, 0),
              (std::vector<std::size_t>{3, 3, 2, 2, 3, 2, 3, 0, 0, 3, 2, 0, 2, 0, 0, 0}));
    // Chunk 1's ReduceScatters (blocks 5, 4; no root) follow its last backward B3.c1, before
    // anything of B2 (chunk 0); chunk 0's (blocks 1, 0, root) follow B3.
    const WorkloadOp* end = Select(dag, 0, "compute.block4.attn.bwd", ".mb3.chunk1").front();
    EXPECT_EQ(Next(dag, Next(dag, end))->label, "fsdp.reducescatter.block5");
    EXPECT_EQ(Next(dag, Next(dag, Next(dag, end)))->label, "fsdp.reducescatter.block4");
    std::vector<const WorkloadOp*> rs = Select(dag, 0, "fsdp.reducescatter.", "");
    ASSERT_EQ(rs.size(), 5u);
    EXPECT_EQ(rs[4]->label, "fsdp.reducescatter.root.chunk0");
    EXPECT_LT(rs[1]->id, Select(dag, 0, "compute.block1.mlp.bwd", ".mb2.chunk0").front()->id);
}

TEST(WorkloadGenerator, EveryPolicyAndPrefetchReplaysWithoutDeadlock)
{
    using P = WorkloadGeneratorConfig;
    for (auto policy : {P::RESHARD_ALWAYS, P::RESHARD_AFTER_BACKWARD_ONLY, P::RESHARD_NEVER})
    {
        for (uint32_t depth : {0u, 1u, 3u})
        {
            for (auto kind : {WorkloadPipelineSchedule::GPIPE,
                              WorkloadPipelineSchedule::ONE_F_ONE_B,
                              WorkloadPipelineSchedule::INTERLEAVED_1F1B})
            {
                WorkloadGeneratorConfig c = TinyConfig();
                c.model.layers = 8;
                c.model.experts = 4; // MoE: expert units on edp
                c.model.topK = 2;
                c.ep = 2;
                c.pp = 2;
                c.dp = 4;
                c.microBatches = 4;
                c.gpusPerServer = 8;
                c.schedule = kind;
                c.virtualStages = kind == WorkloadPipelineSchedule::INTERLEAVED_1F1B ? 2 : 1;
                c.iterations = 2;
                c.recompute = true;
                c.reshard = policy;
                c.gatherPrefetch = depth;
                std::string name = WorkloadGenerator::ReshardName(policy) +
                                   " N=" + std::to_string(depth) + " " +
                                   WorkloadPipelineSchedule::KindName(kind);
                WorkloadDag dag = WorkloadGenerator(c).Generate();
                ASSERT_TRUE(WorkloadValidator::Validate(dag, name).empty()) << name;
                WorkloadEstimatorConfig e;
                e.gpusPerServer = 8;
                EXPECT_NO_THROW(WorkloadEstimator(e).Run(dag)) << name;
            }
        }
    }
}

TEST(WorkloadGeneratorFlags, MeasuredJobPresets)
{
    // measured-job.md: Llama3-8B, A100, TP 4, FSDP 2, PP 2 1F1B, 4-sequence micro-batches of
    // 8192 tokens, global batch 16 (b16) or 24 (b24) = 2 or 3 micro-batches over FSDP 2,
    // recomputation, reshard always, blocking gathers, bf16 gathers, fp32 reductions, 4 GPUs
    // per server, TP folded into compute, and the calibrated compute efficiencies (0.670
    // forward, 0.702 backward: fitted on the measured b16 step, doc: Calibration).
    WorkloadGeneratorConfig c = JobConfig("b16");
    EXPECT_EQ(c.model.name, "llama3-8b");
    EXPECT_EQ(c.gpu.peakTflops, 312.0);
    EXPECT_EQ(c.tp, 4u);
    EXPECT_EQ(c.dp, 2u);
    EXPECT_EQ(c.dpMode, WorkloadGeneratorConfig::FSDP);
    EXPECT_EQ(c.pp, 2u);
    EXPECT_EQ(c.schedule, WorkloadPipelineSchedule::ONE_F_ONE_B);
    EXPECT_EQ(c.microBatchSize, 4u);
    EXPECT_EQ(c.seqLen, 8192u);
    EXPECT_EQ(WorkloadGenerator(c).GetMicroBatches(), 2u);
    EXPECT_TRUE(c.recompute);
    EXPECT_EQ(c.reshard, WorkloadGeneratorConfig::RESHARD_ALWAYS);
    EXPECT_EQ(c.gatherPrefetch, 0u);
    EXPECT_EQ(c.paramBytes, 2u);
    EXPECT_EQ(c.gradBytes, 4u);
    EXPECT_EQ(c.gpusPerServer, 4u);
    EXPECT_EQ(c.mfu, 0.670);
    EXPECT_EQ(c.mfuBackward, 0.702);
    EXPECT_TRUE(c.foldTp);
    EXPECT_EQ(WorkloadGenerator(JobConfig("b24")).GetMicroBatches(), 3u);
    // Explicit flags win over the job's; the rest is the job's.
    c = ConfigOf(
        {"--job=b24", "--mfu=0.3", "--gatherPrefetch=1", "--reshard=never", "--foldTp=false"});
    EXPECT_EQ(c.mfu, 0.3);
    EXPECT_EQ(c.gatherPrefetch, 1u);
    EXPECT_EQ(c.reshard, WorkloadGeneratorConfig::RESHARD_NEVER);
    EXPECT_FALSE(c.foldTp);
    EXPECT_EQ(c.mfuBackward, 0.702);
    EXPECT_EQ(c.gpusPerServer, 4u);
    EXPECT_EQ(WorkloadGenerator(c).GetMicroBatches(), 3u);
    // Without --job nothing changes: the defaults of before.
    c = ConfigOf({"--fsdp=2"});
    EXPECT_EQ(c.mfu, 0.4);
    EXPECT_EQ(c.mfuBackward, 0.0);
    EXPECT_EQ(c.gatherPrefetch, 1u);
    EXPECT_EQ(c.reshard, WorkloadGeneratorConfig::RESHARD_ALWAYS);
    EXPECT_FALSE(c.recompute);
}

TEST(WorkloadGeneratorFlags, BadValuesAreOneLineErrors)
{
    // FSDP's own flags on a job without FSDP change nothing: refused (issue 12, review).
    EXPECT_EQ(ConfigError({"--dp=2", "--reshard=never"}),
              "--reshard applies to FSDP, which this job does not use (--fsdp=1)");
    EXPECT_EQ(ConfigError({"--gatherPrefetch=1"}),
              "--gatherPrefetch applies to FSDP, which this job does not use (--fsdp=1)");
    // An explicit --dp replaces the job's FSDP (it used to clash with the job's --fsdp).
    EXPECT_EQ(ConfigError({"--job=b24", "--dp=2"}), "");
    EXPECT_EQ(ConfigError({"--job=b32"}), "unknown --job 'b32' (known: b16, b24)");
    EXPECT_EQ(ConfigError({"--reshard=sometimes"}),
              "unknown --reshard 'sometimes' (known: always, after-backward-only, never)");
    EXPECT_EQ(ConfigError({"--gatherPrefetch=65"}),
              "--gatherPrefetch=65 is out of range: FSDP gathers issued ahead of compute in "
              "[0, 64]");
    EXPECT_EQ(ConfigError({"--mfuBackward=1.5"}),
              "--mfuBackward=1.5 is out of range: backward model FLOPs utilization in [0.001, "
              "1], or 0 for --mfu's");
    EXPECT_EQ(ConfigError({"--mfuBackward=0"}), "");
    EXPECT_EQ(ConfigError({"--job=b16", "--reshard=after-backward-only"}), "");
    WorkloadGeneratorFlags flags;
    flags.job = "B16"; // names are exact
    EXPECT_THROW(flags.ToConfig(4), std::invalid_argument);
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-rank-program.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

namespace ns3
{

// The DAG emission of WorkloadGenerator::Generate, one rank at a time; the generator itself
// (workload-generator.cc) keeps the configuration checks and the parallelism arithmetic.
namespace
{

uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/// Which pass a layer is emitted for (labels and mirrored collectives depend on it).
enum class Pass
{
    FWD,
    RECOMPUTE,
    BWD,
};

std::string
PassName(Pass pass)
{
    return pass == Pass::FWD ? "fwd" : pass == Pass::BWD ? "bwd" : "recompute";
}

/**
 * \brief Appends one rank's ops, assigning ids, the iteration and the iteration gate.
 */
class RankEmitter
{
  public:
    RankEmitter(uint32_t rank, std::vector<WorkloadOp>& out)
        : m_rank(rank),
          m_out(out)
    {
    }

    /// Starts an iteration; its first op on every stream waits for `gate` (if any).
    void BeginIteration(uint32_t iteration, std::optional<uint32_t> gate)
    {
        m_iteration = iteration;
        m_gate = gate;
        m_streamsInIteration.clear();
    }

    uint32_t Emit(WorkloadOp op, std::vector<uint32_t> deps)
    {
        op.rank = m_rank;
        op.id = m_nextId++;
        op.iteration = m_iteration;
        if (op.stream.empty())
        {
            op.stream = WorkloadDefaultStream(op.type);
        }
        if (m_gate && m_streamsInIteration.insert(op.stream).second)
        {
            deps.push_back(*m_gate);
        }
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        op.deps = std::move(deps);
        m_tail[op.stream] = op.id;
        if (m_out.size() >= WorkloadGenerator::MAX_OPS)
        {
            // Checked as ops are made: --microBatches, --layers, ranks and --iterations
            // multiply them, and memory would run out before the whole job exists.
            throw std::invalid_argument(
                "the generated job would hold more than " +
                std::to_string(WorkloadGenerator::MAX_OPS) + " ops (reached at rank " +
                std::to_string(m_rank) +
                "): use fewer ranks, --layers, --microBatches (--globalBatch) or --iterations "
                "(photonic-rails-sim --iterations replays a DAG without growing it)");
        }
        m_out.push_back(std::move(op));
        return m_out.back().id;
    }

    /// \return the last op of every stream so far
    std::vector<uint32_t> Tails() const
    {
        std::vector<uint32_t> tails;
        for (const auto& entry : m_tail)
        {
            tails.push_back(entry.second);
        }
        return tails;
    }

  private:
    uint32_t m_rank;
    std::vector<WorkloadOp>& m_out;
    uint32_t m_nextId{0};
    uint32_t m_iteration{0};
    std::optional<uint32_t> m_gate;
    std::set<std::string> m_streamsInIteration;
    std::map<std::string, uint32_t> m_tail;
};

/**
 * \brief Emits the whole program of one rank: iterations of pipeline actions, each made of
 *        FSDP gathers, layer computations with their TP/CP/EP collectives, PP send/recv,
 *        gradient synchronization and the optimizer step.
 *
 * The "cursor" is the last op on the rank's critical path: compute and blocking collectives
 * (TP, CP, EP) chain on it; FSDP gathers, gradient reductions and sends hang off it on
 * their own streams so that they overlap compute, as FSDP and PyTorch pipelining do.
 *
 * FSDP2 state: each model chunk's units (its root unit, then its blocks) are sharded or
 * gathered; a pass gathers only those that are sharded when it needs them, and the reshard
 * policy, the pipeline and the optimizer step shard them again.
 */
class RankProgram
{
  public:
    RankProgram(const WorkloadGenerator& generator,
                const WorkloadGroupTable& groups,
                uint32_t rank,
                std::vector<WorkloadOp>& out)
        : m_gen(generator),
          m_cfg(generator.GetConfig()),
          m_groups(groups),
          m_rank(rank),
          m_at(generator.GetCoordinates(rank)),
          m_emit(rank, out),
          m_schedule(m_cfg.schedule, m_cfg.pp, generator.GetMicroBatches(), m_cfg.virtualStages)
    {
        const WorkloadModelSpec& m = m_cfg.model;
        m_tokens = uint64_t(m_cfg.microBatchSize) * m_cfg.seqLen / m_cfg.cp;
        m_fsdp = m_cfg.dp > 1 && m_cfg.dpMode == WorkloadGeneratorConfig::FSDP;
        m_ddp = m_cfg.dp > 1 && m_cfg.dpMode == WorkloadGeneratorConfig::DDP;
        m_ep = m.IsMoe() && m_cfg.ep > 1;
        m_edp = m_cfg.dp / m_cfg.ep;
        m_emitTp = m_cfg.tp > 1 && !m_cfg.foldTp;
        m_lastStage = m_cfg.pp * m_cfg.virtualStages - 1;
        for (uint32_t chunk = 0; chunk < m_cfg.virtualStages; ++chunk)
        {
            auto [first, last] = generator.GetStageLayers(GlobalStage(chunk));
            m_sharded.emplace_back(1 + last - first, true);
        }
    }

    void Run()
    {
        std::optional<uint32_t> gate;
        for (uint32_t it = 0; it < m_cfg.iterations; ++it)
        {
            m_emit.BeginIteration(it, gate);
            m_syncs.clear();
            std::vector<WorkloadPipelineAction> actions = m_schedule.GetActions(m_at.pp);
            for (std::size_t i = 0; i < actions.size(); ++i)
            {
                if (actions[i].forward)
                {
                    EmitForward(actions[i]);
                    continue;
                }
                bool lastBackward = IsLastBackward(actions, i);
                EmitBackward(actions[i], lastBackward);
                if (lastBackward && BunchedReductions())
                {
                    SynchronizeChunk(actions[i].chunk);
                }
            }
            gate = EmitOptimizer();
        }
    }

  private:
    // ---- sizes -------------------------------------------------------------------------

    uint32_t GlobalStage(uint32_t chunk) const
    {
        return chunk * m_cfg.pp + m_at.pp;
    }

    /// Dense (non-expert) parameters of a block held by this rank before FSDP sharding.
    uint64_t DenseBlockParams() const
    {
        const WorkloadModelSpec& m = m_cfg.model;
        uint64_t expert = m_ep ? uint64_t(m.experts) * m.ExpertParams() : 0;
        return CeilDiv(m.LayerParams() - expert, m_cfg.tp);
    }

    /// Expert parameters of a block held by this rank (only when EP splits them).
    uint64_t ExpertBlockParams() const
    {
        const WorkloadModelSpec& m = m_cfg.model;
        return m_ep ? CeilDiv(uint64_t(m.experts) * m.ExpertParams(), uint64_t(m_cfg.ep) * m_cfg.tp)
                    : 0;
    }

    /// Forward (and recomputation) time of some FLOPs.
    double Us(double flops) const
    {
        return m_gen.ComputeUs(flops);
    }

    /// Backward time of some FLOPs (its own MFU).
    double BwdUs(double flops) const
    {
        return m_gen.BackwardComputeUs(flops);
    }

    /// Forward FLOPs of one rank for the attention half of a block.
    double AttentionFlops() const
    {
        const WorkloadModelSpec& m = m_cfg.model;
        // Projections 2 T P_attn; causal scores and values 4 h T (S/2) = 2 h T S.
        double projections = 2.0 * m_tokens * m.AttentionParams();
        double core = 2.0 * m.hidden * double(m_tokens) * m_cfg.seqLen;
        return (projections + core) / m_cfg.tp;
    }

    /// Forward FLOPs of one rank for the MLP (or MoE) half of a block.
    double MlpFlops() const
    {
        const WorkloadModelSpec& m = m_cfg.model;
        return 2.0 * m_tokens * (double(m.topK) * m.ExpertParams() + m.RouterParams()) / m_cfg.tp;
    }

    /// Bytes of the activations of one micro-batch on one rank, sequence-sharded by TP.
    uint64_t ActivationShardBytes() const
    {
        return CeilDiv(m_tokens * m_cfg.model.hidden, m_cfg.tp) * m_cfg.activationBytes;
    }

    /// Time of one TP AllGather + ReduceScatter pair when folded into compute.
    double FoldedTpUs() const
    {
        if (m_cfg.tp <= 1 || !m_cfg.foldTp)
        {
            return 0.0;
        }
        double bytes = double(m_tokens) * m_cfg.model.hidden * m_cfg.activationBytes;
        double oneWay = (m_cfg.tp - 1.0) / m_cfg.tp * bytes / (m_cfg.gpu.scaleUpGBps * 1e9);
        return 2.0 * oneWay * 1e6;
    }

    // ---- emission helpers --------------------------------------------------------------

    std::vector<uint32_t> Chain(std::vector<uint32_t> extra = {}) const
    {
        if (m_cursor)
        {
            extra.push_back(*m_cursor);
        }
        return extra;
    }

    uint32_t Compute(double us, const std::string& label, std::vector<uint32_t> extra = {})
    {
        WorkloadOp op;
        op.type = WorkloadOpType::COMPUTE;
        op.durationUs = std::round(us * 1000.0) / 1000.0; // ns resolution keeps files short
        op.label = label;
        m_cursor = m_emit.Emit(std::move(op), Chain(std::move(extra)));
        return *m_cursor;
    }

    uint32_t Collective(WorkloadOpType type,
                        const std::string& kind,
                        uint64_t bytes,
                        const std::string& stream,
                        const std::string& label,
                        std::vector<uint32_t> deps)
    {
        WorkloadOp op;
        op.type = type;
        op.group = m_groups.Of(kind, m_rank);
        op.bytes = std::max<uint64_t>(bytes, 1);
        op.stream = stream;
        op.label = label;
        return m_emit.Emit(std::move(op), std::move(deps));
    }

    /// A collective on the critical path (TP, CP, EP): waits for the cursor, becomes it.
    void Blocking(WorkloadOpType type,
                  const std::string& kind,
                  uint64_t bytes,
                  const std::string& label,
                  std::vector<uint32_t> extra = {})
    {
        m_cursor = Collective(type, kind, bytes, kind, label, Chain(std::move(extra)));
    }

    uint32_t PointToPoint(WorkloadOpType type,
                          uint32_t peer,
                          bool forward,
                          const std::string& label)
    {
        WorkloadOp op;
        op.type = type;
        op.peer = peer;
        op.bytes = ActivationShardBytes();
        op.tag = forward ? 0 : 1; // activations and gradients never match each other
        op.stream = std::string("pp.") + (type == WorkloadOpType::SEND ? "send" : "recv") +
                    (forward ? ".fwd" : ".bwd");
        op.label = label;
        return m_emit.Emit(std::move(op), Chain());
    }

    /// Rank holding global stage g (same tp, cp, dp coordinates).
    uint32_t StageRank(uint32_t globalStage) const
    {
        WorkloadGenerator::Coordinates c = m_at;
        c.pp = globalStage % m_cfg.pp;
        return m_gen.GetRank(c);
    }

    std::string Suffix(const WorkloadPipelineAction& a) const
    {
        return ".mb" + std::to_string(a.microBatch) +
               (m_cfg.virtualStages > 1 ? ".chunk" + std::to_string(a.chunk) : "");
    }

    static bool IsLastBackward(const std::vector<WorkloadPipelineAction>& actions, std::size_t i)
    {
        for (std::size_t j = i + 1; j < actions.size(); ++j)
        {
            if (!actions[j].forward && actions[j].chunk == actions[i].chunk)
            {
                return false;
            }
        }
        return true;
    }

    // ---- FSDP --------------------------------------------------------------------------

    /// Gathers a unit's parameters (dense part on dp, expert part on edp); returns the ids.
    std::vector<uint32_t> Gather(const std::string& unit,
                                 uint64_t denseParams,
                                 uint64_t expertParams,
                                 const std::string& suffix,
                                 std::vector<uint32_t> deps)
    {
        std::vector<uint32_t> ids;
        if (!m_fsdp)
        {
            return ids;
        }
        std::string label = "fsdp.allgather." + unit + suffix;
        if (denseParams > 0)
        {
            uint64_t shard = CeilDiv(denseParams, m_cfg.dp);
            ids.push_back(Collective(WorkloadOpType::ALLGATHER,
                                     "dp",
                                     shard * m_cfg.paramBytes,
                                     "fsdp.ag",
                                     label,
                                     deps));
        }
        if (expertParams > 0 && m_edp > 1)
        {
            uint64_t shard = CeilDiv(expertParams, m_edp);
            ids.push_back(Collective(WorkloadOpType::ALLGATHER,
                                     "edp",
                                     shard * m_cfg.paramBytes,
                                     "fsdp.ag",
                                     label + ".experts",
                                     deps));
        }
        return ids;
    }

    /// Reduces a unit's gradients once per iteration, after its last backward.
    void Synchronize(const std::string& unit, uint64_t denseParams, uint64_t expertParams)
    {
        if (denseParams > 0)
        {
            SynchronizeGroup("dp", m_cfg.dp, unit, denseParams);
        }
        if (expertParams > 0)
        {
            SynchronizeGroup("edp", m_edp, unit + ".experts", expertParams);
        }
    }

    void SynchronizeGroup(const std::string& kind,
                          uint32_t size,
                          const std::string& unit,
                          uint64_t params)
    {
        if (size <= 1 || (!m_fsdp && !m_ddp))
        {
            return;
        }
        if (m_fsdp)
        {
            // Input is the full (padded) gradient: output is this rank's shard.
            uint64_t bytes = CeilDiv(params, size) * size * m_cfg.gradBytes;
            m_syncs.push_back(Collective(WorkloadOpType::REDUCESCATTER,
                                         kind,
                                         bytes,
                                         "fsdp.rs",
                                         "fsdp.reducescatter." + unit,
                                         Chain(m_reduceAfter)));
        }
        else
        {
            m_syncs.push_back(Collective(WorkloadOpType::ALLREDUCE,
                                         kind,
                                         params * m_cfg.gradBytes,
                                         "dp",
                                         "ddp.allreduce." + unit,
                                         Chain()));
        }
    }

    /**
     * \brief The gathers of one pass: the i-th waits for the pass's gate and for the
     *        computation of the unit gatherPrefetch + 1 places before it (FSDP2's prefetch:
     *        1 keeps one unit ahead; 0 serializes gather and compute, as the measured job's
     *        shim did by waiting for every collective).
     */
    class Prefetch
    {
      public:
        Prefetch(uint32_t depth, std::vector<uint32_t> gate)
            : m_depth(depth),
              m_gate(std::move(gate))
        {
        }

        /// \return the dependencies of the next unit's gather
        std::vector<uint32_t> Next() const
        {
            std::vector<uint32_t> deps = m_gate;
            std::size_t i = m_ends.size();
            if (i > m_depth)
            {
                deps.push_back(m_ends[i - 1 - m_depth]);
            }
            return deps;
        }

        /// \param end the op after which the next unit counts as computed
        void Done(uint32_t end)
        {
            m_ends.push_back(end);
        }

      private:
        std::size_t m_depth;
        std::vector<uint32_t> m_gate;
        std::vector<uint32_t> m_ends;
    };

    /// Index of a block in m_sharded (0 is the chunk's root unit).
    std::size_t UnitIndex(uint32_t chunk, uint32_t layer) const
    {
        return 1 + layer - m_gen.GetStageLayers(GlobalStage(chunk)).first;
    }

    /// Gathers a unit of a chunk if it is sharded (and marks it gathered); returns the ids.
    std::vector<uint32_t> GatherUnit(uint32_t chunk,
                                     std::size_t index,
                                     const std::string& unit,
                                     uint64_t denseParams,
                                     uint64_t expertParams,
                                     const std::string& suffix,
                                     std::vector<uint32_t> deps)
    {
        if (!m_sharded[chunk][index])
        {
            return {};
        }
        m_sharded[chunk][index] = false;
        return Gather(unit, denseParams, expertParams, suffix, std::move(deps));
    }

    /// Frees the gathered parameters of a chunk: its next pass gathers every unit again.
    void Reshard(uint32_t chunk)
    {
        m_sharded[chunk].assign(m_sharded[chunk].size(), true);
    }

    bool ReshardAfterForward() const
    {
        return m_cfg.reshard == WorkloadGeneratorConfig::RESHARD_ALWAYS;
    }

    /// Under pipelining only the chunk's last backward reshards: PyTorch runs the others
    /// with set_reshard_after_backward(False) and without gradient sync. Plain FSDP (pp 1)
    /// reshards after every micro-batch's backward (FSDP2's default).
    bool ReshardAfterBackward(bool lastBackward) const
    {
        return m_cfg.reshard != WorkloadGeneratorConfig::RESHARD_NEVER &&
               (m_cfg.pp == 1 || lastBackward);
    }

    std::string RootUnit(uint32_t chunk) const
    {
        return "root" +
               std::string(m_cfg.virtualStages > 1 ? ".chunk" + std::to_string(chunk) : "");
    }

    /// Root unit parameters of a chunk held by this rank (0: the chunk has none).
    uint64_t RootParams(uint32_t chunk) const
    {
        return CeilDiv(m_gen.GetRootParams(GlobalStage(chunk)), m_cfg.tp);
    }

    /// FSDP under pipelining reduces a chunk's gradients after its last backward, all at
    /// once; plain FSDP and DDP reduce each unit's right after its last backward.
    bool BunchedReductions() const
    {
        return m_fsdp && m_cfg.pp > 1;
    }

    /**
     * \brief Under pipelining, the chunk's gradient reductions once its last backward has
     *        ended: PyTorch pipelining calls FSDP's post-backward for every unit at once
     *        then, so they are bunched on the reduce stream, blocks last to first, then root.
     */
    void SynchronizeChunk(uint32_t chunk)
    {
        // After the backward's gradient send too: the schedule's step issues the reductions
        // once it has run its actions and waited for their sends (the logs' last stage sends
        // its last gradient, then reduce-scatters).
        m_reduceAfter =
            m_backwardSend ? std::vector<uint32_t>{*m_backwardSend} : std::vector<uint32_t>{};
        auto [first, last] = m_gen.GetStageLayers(GlobalStage(chunk));
        for (uint32_t layer = last; layer-- > first;)
        {
            Synchronize("block" + std::to_string(layer), DenseBlockParams(), ExpertBlockParams());
        }
        Synchronize(RootUnit(chunk), RootParams(chunk), 0);
        m_reduceAfter.clear();
    }

    // ---- layers ------------------------------------------------------------------------

    std::string BlockLabel(uint32_t layer, const std::string& part, Pass pass) const
    {
        return ".block" + std::to_string(layer) + "." + part + "." + PassName(pass);
    }

    void TpGather(uint32_t layer,
                  const std::string& part,
                  Pass pass,
                  const std::string& mb,
                  std::vector<uint32_t> extra)
    {
        if (m_emitTp)
        {
            Blocking(WorkloadOpType::ALLGATHER,
                     "tp",
                     ActivationShardBytes(),
                     "tp.allgather" + BlockLabel(layer, part, pass) + mb,
                     std::move(extra));
        }
    }

    void TpScatter(uint32_t layer, const std::string& part, Pass pass, const std::string& mb)
    {
        if (m_emitTp)
        {
            Blocking(WorkloadOpType::REDUCESCATTER,
                     "tp",
                     ActivationShardBytes() * m_cfg.tp,
                     "tp.reducescatter" + BlockLabel(layer, part, pass) + mb);
        }
    }

    uint64_t KvBytes() const
    {
        const WorkloadModelSpec& m = m_cfg.model;
        uint64_t kvPerRank = CeilDiv(m.kvHeads, m_cfg.tp);
        return m_tokens * 2 * kvPerRank * m.HeadDim() * m_cfg.activationBytes;
    }

    uint64_t AllToAllBytes() const
    {
        return CeilDiv(m_tokens, m_cfg.tp) * m_cfg.model.topK * m_cfg.model.hidden *
               m_cfg.activationBytes;
    }

    void AllToAll(const std::string& what, uint32_t layer, Pass pass, const std::string& mb)
    {
        if (m_ep)
        {
            Blocking(WorkloadOpType::ALLTOALL,
                     "ep",
                     AllToAllBytes(),
                     "ep.alltoall." + what + BlockLabel(layer, "mlp", pass) + mb);
        }
    }

    /// Forward (or recomputed forward) of one block; `extra` gates its first op.
    void LayerForward(uint32_t layer, Pass pass, const std::string& mb, std::vector<uint32_t> extra)
    {
        const std::string computeLabel = "compute";
        TpGather(layer, "attn", pass, mb, extra);
        if (m_cfg.cp > 1)
        {
            Blocking(WorkloadOpType::ALLGATHER,
                     "cp",
                     KvBytes(),
                     "cp.allgather.kv" + BlockLabel(layer, "attn", pass) + mb,
                     m_emitTp ? std::vector<uint32_t>{} : extra);
        }
        bool gated = !m_emitTp && m_cfg.cp <= 1;
        Compute(Us(AttentionFlops()) + FoldedTpUs(),
                computeLabel + BlockLabel(layer, "attn", pass) + mb,
                gated ? extra : std::vector<uint32_t>{});
        TpScatter(layer, "attn", pass, mb);
        TpGather(layer, "mlp", pass, mb, {});
        AllToAll("dispatch", layer, pass, mb);
        Compute(Us(MlpFlops()) + FoldedTpUs(), computeLabel + BlockLabel(layer, "mlp", pass) + mb);
        AllToAll("combine", layer, pass, mb);
        TpScatter(layer, "mlp", pass, mb);
    }

    /// Backward of one block (after its recomputation when enabled), mirrored collectives.
    void LayerBackward(uint32_t layer, const std::string& mb, std::vector<uint32_t> extra)
    {
        if (m_cfg.recompute)
        {
            LayerForward(layer, Pass::RECOMPUTE, mb, extra);
            extra.clear();
        }
        const Pass pass = Pass::BWD;
        TpGather(layer, "mlp", pass, mb, extra);
        AllToAll("combine", layer, pass, mb);
        Compute(BwdUs(2.0 * MlpFlops()) + FoldedTpUs(),
                "compute" + BlockLabel(layer, "mlp", pass) + mb,
                m_emitTp ? std::vector<uint32_t>{} : extra);
        AllToAll("dispatch", layer, pass, mb);
        TpScatter(layer, "mlp", pass, mb);
        TpGather(layer, "attn", pass, mb, {});
        Compute(BwdUs(2.0 * AttentionFlops()) + FoldedTpUs(),
                "compute" + BlockLabel(layer, "attn", pass) + mb);
        if (m_cfg.cp > 1)
        {
            Blocking(WorkloadOpType::REDUCESCATTER,
                     "cp",
                     KvBytes() * m_cfg.cp,
                     "cp.reducescatter.dkv" + BlockLabel(layer, "attn", pass) + mb);
        }
        TpScatter(layer, "attn", pass, mb);
    }

    /// Forward FLOPs of one rank for the output head.
    double HeadFlops() const
    {
        const WorkloadModelSpec& m = m_cfg.model;
        return 2.0 * m_tokens * m.hidden * double(m.vocab) / m_cfg.tp;
    }

    // ---- pipeline actions --------------------------------------------------------------

    /// Forward: the root unit, then the blocks in order, each gathered if it is sharded.
    void EmitForward(const WorkloadPipelineAction& a)
    {
        uint32_t g = GlobalStage(a.chunk);
        const std::string mb = Suffix(a);
        if (g > 0)
        {
            m_cursor =
                PointToPoint(WorkloadOpType::RECV, StageRank(g - 1), true, "pp.recv.fwd" + mb);
        }
        Prefetch prefetch(m_cfg.gatherPrefetch, Chain());
        std::vector<uint32_t> rootGather;
        uint64_t root = RootParams(a.chunk);
        if (root > 0)
        {
            rootGather = GatherUnit(a.chunk, 0, "root", root, 0, ".fwd" + mb, prefetch.Next());
            if (g == 0)
            {
                // Embedding lookup: no matmul, modelled as instantaneous.
                Compute(0.0, "compute.fwd.embedding" + mb, rootGather);
            }
            // The cursor: the embedding, or on the last stage the receive (its head runs
            // after the blocks, so the root adds nothing to wait for).
            prefetch.Done(*m_cursor);
        }
        auto [first, last] = m_gen.GetStageLayers(g);
        for (uint32_t layer = first; layer < last; ++layer)
        {
            std::vector<uint32_t> gather = GatherUnit(a.chunk,
                                                      UnitIndex(a.chunk, layer),
                                                      "block" + std::to_string(layer),
                                                      DenseBlockParams(),
                                                      ExpertBlockParams(),
                                                      ".fwd" + mb,
                                                      prefetch.Next());
            LayerForward(layer, Pass::FWD, mb, gather);
            prefetch.Done(*m_cursor);
        }
        if (g == m_lastStage)
        {
            Compute(Us(HeadFlops()), "compute.fwd.head" + mb, rootGather);
        }
        else
        {
            PointToPoint(WorkloadOpType::SEND, StageRank(g + 1), true, "pp.send.fwd" + mb);
        }
        if (ReshardAfterForward())
        {
            Reshard(a.chunk);
        }
    }

    /**
     * \brief Backward: the root unit's gather first, issued before the gradient's receive
     *        and gated like it (it runs while the receive waits; the measured logs show it
     *        there), then the blocks from last to first.
     */
    void EmitBackward(const WorkloadPipelineAction& a, bool lastBackward)
    {
        uint32_t g = GlobalStage(a.chunk);
        const std::string mb = Suffix(a);
        uint64_t root = RootParams(a.chunk);
        std::vector<uint32_t> rootGather;
        if (root > 0)
        {
            rootGather = GatherUnit(a.chunk, 0, "root", root, 0, ".bwd" + mb, Chain());
        }
        if (g < m_lastStage)
        {
            m_cursor =
                PointToPoint(WorkloadOpType::RECV, StageRank(g + 1), false, "pp.recv.bwd" + mb);
        }
        Prefetch prefetch(m_cfg.gatherPrefetch, Chain());
        if (g == m_lastStage)
        {
            // The head's backward needs the norm and head weights.
            Compute(BwdUs(2.0 * HeadFlops()), "compute.bwd.head" + mb, rootGather);
            prefetch.Done(*m_cursor);
        }
        else if (root > 0)
        {
            // The embedding's backward comes last and is instantaneous: the root counts as
            // computed once it is gathered and the gradient is here.
            prefetch.Done(rootGather.empty() ? *m_cursor : rootGather.front());
        }
        EmitBlocksBackward(a, lastBackward, prefetch);
        if (g == 0)
        {
            Compute(0.0, "compute.bwd.embedding" + mb);
        }
        if (lastBackward && !BunchedReductions())
        {
            Synchronize(RootUnit(a.chunk), root, 0);
        }
        if (ReshardAfterBackward(lastBackward))
        {
            Reshard(a.chunk);
        }
        m_backwardSend.reset();
        if (g > 0)
        {
            m_backwardSend =
                PointToPoint(WorkloadOpType::SEND, StageRank(g - 1), false, "pp.send.bwd" + mb);
        }
    }

    /// The blocks of a backward, last to first; unless reductions are bunched, the last
    /// backward reduces each unit's gradients right after its backward (the usual overlap).
    void EmitBlocksBackward(const WorkloadPipelineAction& a, bool lastBackward, Prefetch& prefetch)
    {
        const std::string mb = Suffix(a);
        auto [first, last] = m_gen.GetStageLayers(GlobalStage(a.chunk));
        for (uint32_t layer = last; layer-- > first;)
        {
            std::string unit = "block" + std::to_string(layer);
            std::vector<uint32_t> gather = GatherUnit(a.chunk,
                                                      UnitIndex(a.chunk, layer),
                                                      unit,
                                                      DenseBlockParams(),
                                                      ExpertBlockParams(),
                                                      ".bwd" + mb,
                                                      prefetch.Next());
            LayerBackward(layer, mb, gather);
            prefetch.Done(*m_cursor);
            if (lastBackward && !BunchedReductions())
            {
                Synchronize(unit, DenseBlockParams(), ExpertBlockParams());
            }
        }
    }

    /**
     * \brief TorchTitan's clip_grad_norm_ under FSDP, once the gradients are reduced: the
     *        norm of the local shards is all-reduced over the FSDP group (a DTensor
     *        full_tensor(), on the FSDP communicator), then over the pipeline stages.
     * \param deps what it waits for
     * \return the last op's id
     */
    uint32_t EmitGradientNorm(std::vector<uint32_t> deps)
    {
        uint32_t id = Collective(WorkloadOpType::ALLREDUCE,
                                 "dp",
                                 4,
                                 "dp",
                                 "fsdp.allreduce.gradnorm",
                                 std::move(deps));
        if (m_cfg.pp > 1)
        {
            id =
                Collective(WorkloadOpType::ALLREDUCE, "pp", 4, "pp", "pp.allreduce.gradnorm", {id});
        }
        return id;
    }

    /// Optimizer step: small AllReduces (grad norm, ...) once every gradient is reduced, then
    /// the update. Returns the step's id, which gates the next iteration.
    uint32_t EmitOptimizer()
    {
        std::vector<uint32_t> deps = Chain(m_syncs);
        if (m_fsdp)
        {
            deps = {EmitGradientNorm(deps)};
        }
        if (m_cfg.dp > 1)
        {
            for (uint32_t i = 0; i < m_cfg.optimizerAllReduces; ++i)
            {
                deps.push_back(Collective(WorkloadOpType::ALLREDUCE,
                                          "dp",
                                          m_cfg.optimizerAllReduceBytes,
                                          "dp",
                                          "optimizer.allreduce." + std::to_string(i),
                                          deps));
                deps = {deps.back()};
            }
        }
        std::vector<uint32_t> tails = m_emit.Tails();
        deps.insert(deps.end(), tails.begin(), tails.end());
        // Adam: about 10 FLOPs per local parameter; a rough, small term.
        double params = double(m_cfg.model.TotalParams()) /
                        (double(m_cfg.tp) * m_cfg.pp * (m_fsdp ? m_cfg.dp : 1));
        m_cursor = std::nullopt;
        // The update wrote the shards: the next step gathers every unit again.
        for (uint32_t chunk = 0; chunk < m_cfg.virtualStages; ++chunk)
        {
            Reshard(chunk);
        }
        return Compute(Us(10.0 * params), "optimizer.step", deps);
    }

    const WorkloadGenerator& m_gen;
    const WorkloadGeneratorConfig& m_cfg;
    const WorkloadGroupTable& m_groups;
    uint32_t m_rank;
    WorkloadGenerator::Coordinates m_at;
    RankEmitter m_emit;
    WorkloadPipelineSchedule m_schedule;
    uint64_t m_tokens{0};
    bool m_fsdp{false};
    bool m_ddp{false};
    bool m_ep{false};
    uint32_t m_edp{1};
    bool m_emitTp{false};
    uint32_t m_lastStage{0};
    std::optional<uint32_t> m_cursor;
    std::vector<uint32_t> m_syncs;
    std::vector<std::vector<bool>> m_sharded; //!< per chunk: root unit, then its blocks
    std::optional<uint32_t> m_backwardSend;   //!< The gradient send of the last backward
    std::vector<uint32_t> m_reduceAfter;      //!< Extra dependencies of bunched reductions
};

} // namespace

void
EmitWorkloadRankProgram(const WorkloadGenerator& generator,
                        const WorkloadGroupTable& groups,
                        uint32_t rank,
                        std::vector<WorkloadOp>& out)
{
    RankProgram(generator, groups, rank, out).Run();
}

} // namespace ns3

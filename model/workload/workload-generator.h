/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_GENERATOR_H
#define WORKLOAD_GENERATOR_H

#include "workload-model-spec.h"
#include "workload-pipeline-schedule.h"

#include "ns3/workload-dag.h"
#include "ns3/workload-error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Everything the LLM training generator needs: model, GPU, parallelism, batch, dtypes.
 */
struct WorkloadGeneratorConfig
{
    /// How the DP dimension keeps parameters.
    enum DataParallelMode
    {
        DDP,  //!< replicated parameters, gradient AllReduce after the last backward
        FSDP, //!< ZeRO-3: sharded parameters gathered per block, gradients reduce-scattered
    };

    /// When FSDP frees a unit's gathered parameters again (FSDP2's reshard_after_forward
    /// and reshard_after_backward; TorchTitan's reshard_after_forward_policy).
    enum ReshardPolicy
    {
        RESHARD_ALWAYS,              //!< after every forward and after a backward
        RESHARD_AFTER_BACKWARD_ONLY, //!< kept after a forward, resharded after a backward
        RESHARD_NEVER,               //!< kept gathered until the optimizer step
    };

    /// Most gathers a pass may issue ahead of compute (--gatherPrefetch).
    static constexpr uint32_t MAX_GATHER_PREFETCH = 64;

    WorkloadModelSpec model{WorkloadModelSpec::Preset("llama3-8b")}; //!< the model
    WorkloadGpuSpec gpu{WorkloadGpuSpec::Preset("a100")};            //!< the GPU
    double mfu{0.4};               //!< model FLOPs utilization of forward (and recomputation)
    double mfuBackward{0};         //!< model FLOPs utilization of backward (0: mfu)
    uint32_t tp{1};                //!< tensor parallel degree (inside a server)
    uint32_t cp{1};                //!< context parallel degree
    uint32_t pp{1};                //!< pipeline stages
    uint32_t dp{1};                //!< data parallel degree (DDP or FSDP)
    uint32_t ep{1};                //!< expert parallel degree (carved out of dp)
    DataParallelMode dpMode{FSDP}; //!< DDP or FSDP
    WorkloadPipelineSchedule::Kind schedule{WorkloadPipelineSchedule::ONE_F_ONE_B}; //!< PP
    uint32_t virtualStages{1};   //!< model chunks per stage (interleaved)
    uint32_t microBatchSize{1};  //!< sequences per micro-batch
    uint32_t microBatches{0};    //!< micro-batches per iteration (0: from globalBatch)
    uint32_t globalBatch{0};     //!< sequences per iteration (0: 2 x pp micro-batches)
    uint32_t seqLen{8192};       //!< tokens per sequence
    uint32_t paramBytes{2};      //!< bytes per parameter as gathered (bf16)
    uint32_t gradBytes{4};       //!< bytes per gradient as reduced (fp32)
    uint32_t activationBytes{2}; //!< bytes per activation element (bf16)
    bool recompute{false};       //!< full activation recomputation in backward
    std::vector<std::string> order{"tp", "cp", "pp", "dp"}; //!< placement, innermost first
    uint32_t gpusPerServer{8};                              //!< scale-up domain size
    bool foldTp{false};                    //!< fold TP collectives into compute time
    uint32_t iterations{1};                //!< iterations to emit (ops carry "iteration")
    uint32_t optimizerAllReduces{3};       //!< small AllReduces of the optimizer step (grad norm..)
    uint64_t optimizerAllReduceBytes{4};   //!< bytes of each (one fp32 scalar)
    ReshardPolicy reshard{RESHARD_ALWAYS}; //!< FSDP reshard policy
    uint32_t gatherPrefetch{1};            //!< FSDP gathers issued ahead of compute (0: blocking)
};

/**
 * \ingroup photonic-rails
 * \brief Generates the per-rank DAG of LLM training iterations.
 *
 * Ranks are placed by WorkloadGeneratorConfig::order (default [tp, cp, pp, dp], innermost
 * first, as Llama 3); rank r lives on server r / gpusPerServer, rail r % gpusPerServer.
 * Groups are named by dimension and numbered by their lowest rank: tp0, cp0, pp0, dp0, ep0,
 * edp0 (expert data parallel). Ops are labelled, e.g. "fsdp.allgather.block3.fwd.mb0",
 * "pp.send.fwd.mb1", "tp.reducescatter.block3.mlp.bwd.mb0", "optimizer.allreduce.0".
 * The model, its assumptions and the streams used are described in doc/photonic-rails-design.rst.
 */
class WorkloadGenerator
{
  public:
    /// Coordinates of a rank along each parallelism dimension.
    struct Coordinates
    {
        uint32_t tp{0}; //!< TP index
        uint32_t cp{0}; //!< CP index
        uint32_t pp{0}; //!< pipeline stage
        uint32_t dp{0}; //!< DP index
    };

    /**
     * \param config the configuration
     * \throws std::invalid_argument with a one-line reason if it is inconsistent (e.g. TP
     *         not inside a scale-up domain)
     */
    explicit WorkloadGenerator(const WorkloadGeneratorConfig& config);

    /// \return the DAG (deterministic for a given configuration)
    WorkloadDag Generate() const;

    /// Most ops a generated job may hold (about 7 GB in memory): Generate() throws
    /// std::invalid_argument, naming the flags that multiply ops, before it gets there.
    static constexpr uint64_t MAX_OPS = 20000000;

    /**
     * \brief Generate(), then every WorkloadValidator check: what a program calls before
     *        writing or running a generated job, so that it never writes a file its own
     *        validator refuses.
     * \return a valid DAG
     * \throws std::invalid_argument with one line: the first problem (rank, op, label,
     *         field) and the configuration value (named as the programs' flag, e.g.
     *         --mfu) that caused it where one can be told
     */
    WorkloadDag GenerateValid() const;

    /**
     * \brief Receives (ranks done, ranks) while Generate() runs.
     * \param callback the callback
     */
    void SetProgressCallback(std::function<void(uint32_t, uint32_t)> callback);

    /// \return the configuration (with micro-batches resolved)
    const WorkloadGeneratorConfig& GetConfig() const;
    /// \return tp x cp x pp x dp
    uint32_t GetRankCount() const;
    /// \return micro-batches per iteration
    uint32_t GetMicroBatches() const;
    /**
     * \param rank a rank
     * \return its coordinates
     */
    Coordinates GetCoordinates(uint32_t rank) const;
    /**
     * \param c coordinates
     * \return the rank
     */
    uint32_t GetRank(const Coordinates& c) const;
    /**
     * \param globalStage model chunk index c * pp + stage, in [0, pp * virtualStages)
     * \return its layers [first, last)
     */
    std::pair<uint32_t, uint32_t> GetStageLayers(uint32_t globalStage) const;
    /**
     * \param globalStage model chunk index
     * \return parameters of the chunk's root FSDP unit (embedding and/or norm + head)
     */
    uint64_t GetRootParams(uint32_t globalStage) const;
    /**
     * \param flops FLOPs of one rank in a forward (or recomputed forward)
     * \return their duration in microseconds at peak x MFU (rounded to the nanosecond)
     */
    double ComputeUs(double flops) const;
    /**
     * \param flops FLOPs of one rank in a backward
     * \return their duration in microseconds at peak x the backward MFU (mfuBackward, or mfu
     *         when it is 0), rounded to the nanosecond
     */
    double BackwardComputeUs(double flops) const;

    /**
     * \param text comma-separated permutation of tp, cp, pp, dp (innermost first)
     * \return the dimension names
     * \throws std::invalid_argument if it is not such a permutation
     */
    static std::vector<std::string> ParseOrder(const std::string& text);
    /**
     * \param name always, after-backward-only or never
     * \return the policy
     * \throws std::invalid_argument naming the policies if it is none of them
     */
    static WorkloadGeneratorConfig::ReshardPolicy ParseReshard(const std::string& name);
    /**
     * \param policy a policy
     * \return its name (always, after-backward-only, never)
     */
    static std::string ReshardName(WorkloadGeneratorConfig::ReshardPolicy policy);

  private:
    void CheckConfig();
    /// Checks ep: one message per condition, each saying what to change.
    void CheckExpertParallel() const;
    /**
     * \param dag a generated DAG
     * \param e what the validator found wrong with it
     * \return one line: the first error and the flags to blame
     */
    std::string DescribeInvalid(const WorkloadDag& dag, const WorkloadFormatError& e) const;
    void CheckScaleUp() const;

    WorkloadGeneratorConfig m_config;                   //!< configuration
    uint32_t m_ranks;                                   //!< number of ranks
    std::vector<uint32_t> m_stride;                     //!< rank stride of tp, cp, pp, dp
    std::function<void(uint32_t, uint32_t)> m_progress; //!< progress callback
};

} // namespace ns3

#endif /* WORKLOAD_GENERATOR_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_GENERATOR_FLAGS_H
#define WORKLOAD_GENERATOR_FLAGS_H

#include "ns3/strict-command-line.h"
#include "ns3/workload-generator.h"
#include "ns3/workload-json.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The LLM generator's command-line flags, shared by the programs that generate jobs.
 */
struct WorkloadGeneratorFlags
{
    /// Bounds of the flags (ToConfig refuses values beyond them, naming the flag): model
    /// dimensions and batch sizes keep byte counts below 2^64, mfu keeps compute ops
    /// inside the simulator's time range, iterations match the DAG format's labels
    static constexpr uint32_t MAX_LAYERS = 2048;           //!< --layers
    static constexpr uint32_t MAX_HIDDEN = 131072;         //!< --hidden, --heads, --kvHeads
    static constexpr uint32_t MAX_FFN = 1048576;           //!< --ffn
    static constexpr uint32_t MAX_VOCAB = 4194304;         //!< --vocab
    static constexpr uint32_t MAX_EXPERTS = 1024;          //!< --experts, --topK
    static constexpr uint32_t MAX_SEQ_LEN = 2097152;       //!< --seqLen
    static constexpr uint32_t MAX_MICRO_BATCH_SIZE = 1024; //!< --microBatchSize
    static constexpr uint32_t MAX_VIRTUAL_STAGES = 1024;   //!< --vpp
    static constexpr uint32_t MAX_ITERATIONS = 1000000;    //!< --iterations
    static constexpr double MIN_MFU = 0.001;               //!< --mfu, at most 1
    /// --tp x --cp x --pp x --dp: the DAG format's bound on ranks, which is the fabric's
    static constexpr uint32_t MAX_RANKS = WorkloadJson::MAX_RANKS;

    /// The paper's measured job (--job=b16|b24), from ../shared/notes/measured-job.md: 4
    /// Perlmutter nodes x 4 A100, the GPUs per server the caller's flag takes from it
    static constexpr uint32_t JOB_GPUS_PER_SERVER = 4;
    /// --job's compute efficiency (forward passes and recomputation), fitted on the measured
    /// b16 step on electrical rails (10.18 s; doc: Calibration) with TP folded into compute
    /// and the perlmutter-testbed preset's 1.0 GiB/s per GPU; the forward / backward ratio
    /// is the logs' (~28 ms per block forward, ~79 ms backward with recomputation)
    static constexpr double JOB_MFU = 0.670;
    /// --job's backward compute efficiency (see JOB_MFU)
    static constexpr double JOB_MFU_BACKWARD = 0.702;

    std::string model{"llama3-8b"};   //!< Preset or "custom"
    uint32_t layers{0};               //!< Overrides (0 keeps the preset's)
    uint32_t hidden{0};               //!< Override
    uint32_t heads{0};                //!< Override
    uint32_t kvHeads{0};              //!< Override
    uint32_t ffn{0};                  //!< Override
    uint32_t vocab{0};                //!< Override
    uint32_t experts{0};              //!< Override
    uint32_t topK{0};                 //!< Override
    std::string gpu{"a100"};          //!< GPU preset
    double mfu{0.4};                  //!< Model FLOPs utilization (forward, recomputation)
    double mfuBackward{0};            //!< Backward MFU (0: mfu)
    uint32_t tp{1};                   //!< Tensor parallel
    uint32_t cp{1};                   //!< Context parallel
    uint32_t pp{1};                   //!< Pipeline stages
    uint32_t dp{1};                   //!< DDP degree
    uint32_t fsdp{1};                 //!< FSDP degree
    uint32_t ep{1};                   //!< Expert parallel
    uint32_t vpp{1};                  //!< Virtual stages
    std::string schedule{"1f1b"};     //!< Pipeline schedule
    uint32_t microBatchSize{1};       //!< Sequences per micro-batch
    uint32_t microBatches{0};         //!< Micro-batches per iteration
    uint32_t globalBatch{0};          //!< Sequences per iteration
    uint32_t seqLen{8192};            //!< Tokens per sequence
    std::string paramDtype{"bf16"};   //!< As gathered
    std::string gradDtype{"fp32"};    //!< As reduced
    std::string actDtype{"bf16"};     //!< Activations
    bool recompute{false};            //!< Full activation recomputation
    std::string order{"tp,cp,pp,dp"}; //!< Placement, innermost first
    bool foldTp{false};               //!< Fold TP collectives into compute
    std::string reshard{"always"};    //!< FSDP reshard policy
    uint32_t gatherPrefetch{1};       //!< FSDP gathers ahead of compute
    std::string job;                  //!< A measured job's settings ("": none)
    uint32_t iterations{1};           //!< Iterations to emit
    std::vector<std::string> names;   //!< Flags Add() registered

    /**
     * \brief Registers the flags. gpusPerServer and iterations are the caller's: the
     * first also sizes fabrics, the second means replays in the simulator.
     * \param cmd the command line
     */
    void Add(StrictCommandLine& cmd);

    /**
     * \param cmd the command line (after Parse)
     * \return the generator flags that were given on it
     */
    std::vector<std::string> Given(const StrictCommandLine& cmd) const;

    /**
     * \brief Applies --job after parsing: the job's value of every generator flag that the
     * command line did not give (explicit flags win; an explicit --dp replaces the job's
     * FSDP), then refuses FSDP's own flags (--reshard, --gatherPrefetch) given for a job
     * without FSDP.
     * \param cmd the parsed command line
     * \return the job's GPUs per server, for the caller's own flag (0 without --job)
     * \throws std::invalid_argument for an unknown job, naming the known ones, or an FSDP
     *         flag without FSDP
     */
    uint32_t ApplyJob(const StrictCommandLine& cmd);

    /**
     * \param name b16 or b24
     * \return the defaults with the measured job's settings
     * \throws std::invalid_argument for an unknown job, naming the known ones
     */
    static WorkloadGeneratorFlags Job(const std::string& name);

    /**
     * \brief The generator configuration; throws std::invalid_argument on bad values
     * (the bounds above, then the generator's own checks).
     * \param gpusPerServer GPUs per server
     * \return the configuration
     */
    WorkloadGeneratorConfig ToConfig(uint32_t gpusPerServer) const;

    /**
     * \brief The values a bounded flag accepts (the bounds above), in one place: Add()
     *        registers them with the flags and ToConfig() checks them.
     * \param name layers, hidden, heads, kvHeads, ffn, vocab, experts, topK, seqLen,
     *        microBatchSize, vpp, mfu, mfuBackward, gatherPrefetch or iterations
     * \return its range (std::out_of_range for another name)
     */
    static const FlagRange& Range(const std::string& name);

  private:
    /// Sets every flag \p cmd did not give to --job's value.
    void TakeJob(const StrictCommandLine& cmd);

    /// Refuses values beyond the bounds above (std::invalid_argument naming the flag).
    void CheckRanges() const;
};

} // namespace ns3

#endif /* WORKLOAD_GENERATOR_FLAGS_H */

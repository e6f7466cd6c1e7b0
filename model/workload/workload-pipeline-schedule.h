/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_PIPELINE_SCHEDULE_H
#define WORKLOAD_PIPELINE_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One step of a pipeline stage: the forward or backward pass of one micro-batch
 *        through one of the stage's model chunks.
 */
struct WorkloadPipelineAction
{
    bool forward{true};     //!< forward (true) or backward pass
    uint32_t chunk{0};      //!< model chunk of the stage (0 unless interleaved)
    uint32_t microBatch{0}; //!< micro-batch index

    /**
     * \param other another action
     * \return true if equal
     */
    bool operator==(const WorkloadPipelineAction& other) const;
    /// \return e.g. "F3" or "B0.c1" (chunk shown when non-zero)
    std::string ToString() const;
};

/**
 * \ingroup photonic-rails
 * \brief The order in which each pipeline stage runs forward and backward passes.
 *
 * - GPipe: every forward, then every backward (micro-batches in order).
 * - 1F1B (PipeDream-Flush): stage s of P runs min(P-s-1, M) warm-up forwards, then
 *   alternates one forward and one backward, then drains the remaining backwards.
 * - Interleaved 1F1B (Megatron-LM): each stage holds v model chunks; global stage
 *   c*P + s is chunk c of stage s. Warm-up (P-s-1)*2 + (v-1)*P forwards (all M*v when
 *   M == P), then 1F1B over "virtual" micro-batches k whose chunk is (k mod Pv) / P
 *   (reversed for backward) and micro-batch (k / Pv) * P + k mod P. Needs M % P == 0.
 */
class WorkloadPipelineSchedule
{
  public:
    /// Schedule kinds.
    enum Kind
    {
        GPIPE,
        ONE_F_ONE_B,
        INTERLEAVED_1F1B,
    };

    /**
     * \param kind schedule kind
     * \param stages pipeline stages P (>= 1)
     * \param microBatches micro-batches M per iteration (>= 1)
     * \param chunks model chunks per stage v (1, or >= 2 for interleaved)
     * \throws std::invalid_argument on an impossible combination
     */
    WorkloadPipelineSchedule(Kind kind, uint32_t stages, uint32_t microBatches, uint32_t chunks);

    /**
     * \param stage a stage in [0, P)
     * \return its actions in execution order (2 M v of them)
     */
    std::vector<WorkloadPipelineAction> GetActions(uint32_t stage) const;

    /// \return the kind
    Kind GetKind() const;
    /// \return model chunks per stage
    uint32_t GetChunks() const;

    /**
     * \param name gpipe, 1f1b or interleaved
     * \return the kind
     * \throws std::invalid_argument for an unknown name
     */
    static Kind ParseKind(const std::string& name);
    /**
     * \param kind a kind
     * \return its name (gpipe, 1f1b, interleaved)
     */
    static std::string KindName(Kind kind);

  private:
    /// Virtual micro-batch k of the interleaved schedule as an action.
    WorkloadPipelineAction Virtual(uint32_t k, bool forward) const;
    /// Warm-up forwards of a stage.
    uint32_t Warmup(uint32_t stage) const;

    Kind m_kind;             //!< schedule kind
    uint32_t m_stages;       //!< P
    uint32_t m_microBatches; //!< M
    uint32_t m_chunks;       //!< v
};

} // namespace ns3

#endif /* WORKLOAD_PIPELINE_SCHEDULE_H */

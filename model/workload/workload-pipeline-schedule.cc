/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-pipeline-schedule.h"

#include "ns3/log.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadPipelineSchedule");

bool
WorkloadPipelineAction::operator==(const WorkloadPipelineAction& other) const
{
    return forward == other.forward && chunk == other.chunk && microBatch == other.microBatch;
}

std::string
WorkloadPipelineAction::ToString() const
{
    return std::string(forward ? "F" : "B") + std::to_string(microBatch) +
           (chunk > 0 ? ".c" + std::to_string(chunk) : "");
}

WorkloadPipelineSchedule::WorkloadPipelineSchedule(Kind kind,
                                                   uint32_t stages,
                                                   uint32_t microBatches,
                                                   uint32_t chunks)
    : m_kind(kind),
      m_stages(stages),
      m_microBatches(microBatches),
      m_chunks(chunks)
{
    if (stages == 0 || microBatches == 0 || chunks == 0)
    {
        throw std::invalid_argument("pipeline: stages, micro-batches and chunks must be >= 1");
    }
    if (kind != INTERLEAVED_1F1B && chunks != 1)
    {
        throw std::invalid_argument("pipeline: virtual stages need the interleaved schedule");
    }
    if (kind == INTERLEAVED_1F1B && (chunks < 2 || stages < 2))
    {
        throw std::invalid_argument(
            "pipeline: the interleaved schedule needs pp >= 2 and >= 2 virtual stages");
    }
    if (kind == INTERLEAVED_1F1B && microBatches % stages != 0)
    {
        throw std::invalid_argument("pipeline: the interleaved schedule needs micro-batches (" +
                                    std::to_string(microBatches) + ") to be a multiple of pp (" +
                                    std::to_string(stages) + ")");
    }
}

WorkloadPipelineAction
WorkloadPipelineSchedule::Virtual(uint32_t k, bool forward) const
{
    uint32_t group = m_stages * m_chunks;
    uint32_t chunk = (k % group) / m_stages;
    WorkloadPipelineAction action;
    action.forward = forward;
    action.chunk = forward ? chunk : m_chunks - 1 - chunk;
    action.microBatch = (k / group) * m_stages + k % m_stages;
    return action;
}

uint32_t
WorkloadPipelineSchedule::Warmup(uint32_t stage) const
{
    uint32_t total = m_microBatches * m_chunks;
    if (m_kind == ONE_F_ONE_B)
    {
        return std::min(m_stages - stage - 1, m_microBatches);
    }
    if (m_microBatches == m_stages)
    {
        return total; // Megatron runs everything as warm-up in this case
    }
    return std::min((m_stages - stage - 1) * 2 + (m_chunks - 1) * m_stages, total);
}

std::vector<WorkloadPipelineAction>
WorkloadPipelineSchedule::GetActions(uint32_t stage) const
{
    if (stage >= m_stages)
    {
        throw std::invalid_argument("pipeline: stage " + std::to_string(stage) + " out of range");
    }
    std::vector<WorkloadPipelineAction> actions;
    uint32_t total = m_microBatches * m_chunks;
    if (m_kind == GPIPE)
    {
        for (uint32_t k = 0; k < total; ++k)
        {
            actions.push_back({true, 0, k});
        }
        for (uint32_t k = 0; k < total; ++k)
        {
            actions.push_back({false, 0, k});
        }
        return actions;
    }
    // 1F1B is interleaved 1F1B with one chunk (then Virtual(k) is micro-batch k).
    uint32_t warmup = Warmup(stage);
    for (uint32_t k = 0; k < warmup; ++k)
    {
        actions.push_back(Virtual(k, true));
    }
    for (uint32_t i = 0; i + warmup < total; ++i)
    {
        actions.push_back(Virtual(warmup + i, true));
        actions.push_back(Virtual(i, false));
    }
    for (uint32_t k = total - warmup; k < total; ++k)
    {
        actions.push_back(Virtual(k, false));
    }
    return actions;
}

WorkloadPipelineSchedule::Kind
WorkloadPipelineSchedule::GetKind() const
{
    return m_kind;
}

uint32_t
WorkloadPipelineSchedule::GetChunks() const
{
    return m_chunks;
}

WorkloadPipelineSchedule::Kind
WorkloadPipelineSchedule::ParseKind(const std::string& name)
{
    if (name == "gpipe")
    {
        return GPIPE;
    }
    if (name == "1f1b")
    {
        return ONE_F_ONE_B;
    }
    if (name == "interleaved" || name == "interleaved-1f1b")
    {
        return INTERLEAVED_1F1B;
    }
    throw std::invalid_argument("unknown pipeline schedule '" + name +
                                "' (known: gpipe, 1f1b, interleaved)");
}

std::string
WorkloadPipelineSchedule::KindName(Kind kind)
{
    switch (kind)
    {
    case GPIPE:
        return "gpipe";
    case ONE_F_ONE_B:
        return "1f1b";
    default:
        return "interleaved";
    }
}

} // namespace ns3

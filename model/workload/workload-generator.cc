/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-generator.h"

#include "workload-json.h"
#include "workload-rank-program.h"
#include "workload-validator.h"

#include "ns3/log.h"
#include "ns3/workload-error.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadGenerator");

namespace
{

/// Dimension indices into WorkloadGenerator's stride vector.
enum Dim : uint32_t
{
    DIM_TP = 0,
    DIM_CP = 1,
    DIM_PP = 2,
    DIM_DP = 3,
};

const std::vector<std::string> g_dimNames = {"tp", "cp", "pp", "dp"};

} // namespace

WorkloadGenerator::WorkloadGenerator(const WorkloadGeneratorConfig& config)
    : m_config(config),
      m_ranks(0)
{
    CheckConfig();
}

void
WorkloadGenerator::CheckExpertParallel() const
{
    const WorkloadGeneratorConfig& c = m_config;
    if (c.ep <= 1)
    {
        return;
    }
    std::string ep = "ep (" + std::to_string(c.ep) + ")";
    std::string dp = std::to_string(c.dp);
    std::string experts = std::to_string(c.model.experts);
    if (!c.model.IsMoe())
    {
        throw std::invalid_argument(ep + " needs a mixture-of-experts model, and " + c.model.name +
                                    " is not one (experts = " + experts +
                                    "): set ep to 1, or choose an MoE model (mixtral-8x7b, or "
                                    "experts > 1)");
    }
    if (c.dp % c.ep != 0)
    {
        throw std::invalid_argument(ep + " must divide the data-parallel degree dp (" + dp +
                                    ", --dp or --fsdp): set ep to a divisor of " + dp +
                                    ", or dp to a multiple of " + std::to_string(c.ep));
    }
    if (c.model.experts % c.ep != 0)
    {
        throw std::invalid_argument(ep + " must divide the model's " + experts +
                                    " experts (an expert-parallel group shares them out): set "
                                    "ep to a divisor of " +
                                    experts);
    }
}

void
WorkloadGenerator::CheckConfig()
{
    WorkloadGeneratorConfig& c = m_config;
    c.model.Check();
    auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
    if (c.tp == 0 || c.cp == 0 || c.pp == 0 || c.dp == 0 || c.ep == 0)
    {
        fail("tp, cp, pp, dp and ep must be >= 1");
    }
    uint64_t ranks = uint64_t(c.tp) * c.cp * c.pp * c.dp;
    if (ranks > WorkloadJson::MAX_RANKS)
    {
        fail("tp x cp x pp x dp = " + std::to_string(ranks) + " ranks is too many (max " +
             std::to_string(WorkloadJson::MAX_RANKS) + ")");
    }
    m_ranks = static_cast<uint32_t>(ranks);
    if (!(c.mfu > 0.0 && c.mfu <= 1.0) || !(c.gpu.peakTflops > 0.0))
    {
        fail("mfu must be in (0, 1] and the GPU peak > 0");
    }
    if (!(c.mfuBackward >= 0.0 && c.mfuBackward <= 1.0))
    {
        fail("mfuBackward must be 0 (the forward's mfu) or in (0, 1]");
    }
    if (c.gatherPrefetch > WorkloadGeneratorConfig::MAX_GATHER_PREFETCH)
    {
        fail("gatherPrefetch (" + std::to_string(c.gatherPrefetch) + ") must be at most " +
             std::to_string(WorkloadGeneratorConfig::MAX_GATHER_PREFETCH) +
             " FSDP gathers ahead of compute");
    }
    if (c.gpusPerServer == 0 || c.seqLen == 0 || c.microBatchSize == 0 || c.iterations == 0)
    {
        fail("gpusPerServer, seqLen, microBatchSize and iterations must be >= 1");
    }
    if (c.paramBytes == 0 || c.gradBytes == 0 || c.activationBytes == 0)
    {
        fail("parameter, gradient and activation sizes must be >= 1 byte");
    }
    if (c.seqLen % c.cp != 0)
    {
        fail("seqLen (" + std::to_string(c.seqLen) + ") must be a multiple of cp (" +
             std::to_string(c.cp) + ")");
    }
    if (c.model.heads % c.tp != 0)
    {
        fail("the model's heads (" + std::to_string(c.model.heads) +
             ") must be a multiple of tp (" + std::to_string(c.tp) + ")");
    }
    CheckExpertParallel();
    if (c.microBatches == 0)
    {
        uint64_t perStep = uint64_t(c.microBatchSize) * c.dp;
        if (c.globalBatch > 0 && c.globalBatch % perStep != 0)
        {
            fail("globalBatch (" + std::to_string(c.globalBatch) +
                 ") must be a multiple of microBatchSize x dp (" + std::to_string(perStep) + ")");
        }
        c.microBatches =
            c.globalBatch > 0 ? static_cast<uint32_t>(c.globalBatch / perStep) : 2 * c.pp;
    }
    // Every rank computes at least a forward and a backward per micro-batch and layer of its
    // stage: refuse a job that cannot fit MAX_OPS before building its schedule (2^31
    // micro-batches exhausted memory there).
    uint64_t leastOps =
        2 * uint64_t(c.microBatches) * ranks * std::max<uint64_t>(1, c.model.layers / c.pp);
    if (leastOps > MAX_OPS)
    {
        fail(std::to_string(c.microBatches) + " micro-batches x " + std::to_string(ranks) +
             " ranks x " + std::to_string(std::max<uint64_t>(1, c.model.layers / c.pp)) +
             " layers per stage make at least " + std::to_string(leastOps) + " ops, more than " +
             std::to_string(MAX_OPS) +
             ": use fewer --microBatches (--globalBatch), --layers or ranks");
    }
    // Throws on impossible schedules (e.g. interleaved with M not a multiple of P).
    WorkloadPipelineSchedule(c.schedule, c.pp, c.microBatches, c.virtualStages);
    if (c.model.layers < c.pp * c.virtualStages)
    {
        fail("the model's " + std::to_string(c.model.layers) + " layers cannot fill " +
             std::to_string(c.pp * c.virtualStages) + " pipeline stages");
    }
    c.order = ParseOrder([&c] {
        std::string text;
        for (const auto& dim : c.order)
        {
            text += (text.empty() ? "" : ",") + dim;
        }
        return text;
    }());
    m_stride.assign(4, 1);
    const uint32_t sizes[4] = {c.tp, c.cp, c.pp, c.dp};
    uint32_t stride = 1;
    for (const auto& dim : c.order)
    {
        auto index = std::find(g_dimNames.begin(), g_dimNames.end(), dim) - g_dimNames.begin();
        m_stride[index] = stride;
        stride *= sizes[index];
    }
    CheckScaleUp();
}

void
WorkloadGenerator::CheckScaleUp() const
{
    const WorkloadGeneratorConfig& c = m_config;
    if (c.tp <= 1)
    {
        return;
    }
    // A TP group is {base + i * stride}: it fits iff its first and last ranks share a server.
    uint32_t stride = m_stride[DIM_TP];
    for (uint32_t rank = 0; rank < m_ranks; ++rank)
    {
        if (GetCoordinates(rank).tp != 0)
        {
            continue;
        }
        uint32_t last = rank + (c.tp - 1) * stride;
        if (rank / c.gpusPerServer != last / c.gpusPerServer)
        {
            throw std::invalid_argument(
                "tp=" + std::to_string(c.tp) + " does not fit in a scale-up domain of " +
                std::to_string(c.gpusPerServer) + " GPUs: the TP group of rank " +
                std::to_string(rank) + " spans ranks " + std::to_string(rank) + ".." +
                std::to_string(last) + " on servers " + std::to_string(rank / c.gpusPerServer) +
                " and " + std::to_string(last / c.gpusPerServer) +
                " (TP must stay inside a server: tp innermost and a divisor of gpusPerServer)");
        }
    }
}

void
WorkloadGenerator::SetProgressCallback(std::function<void(uint32_t, uint32_t)> callback)
{
    m_progress = std::move(callback);
}

const WorkloadGeneratorConfig&
WorkloadGenerator::GetConfig() const
{
    return m_config;
}

uint32_t
WorkloadGenerator::GetRankCount() const
{
    return m_ranks;
}

uint32_t
WorkloadGenerator::GetMicroBatches() const
{
    return m_config.microBatches;
}

WorkloadGenerator::Coordinates
WorkloadGenerator::GetCoordinates(uint32_t rank) const
{
    const WorkloadGeneratorConfig& c = m_config;
    Coordinates at;
    at.tp = (rank / m_stride[DIM_TP]) % c.tp;
    at.cp = (rank / m_stride[DIM_CP]) % c.cp;
    at.pp = (rank / m_stride[DIM_PP]) % c.pp;
    at.dp = (rank / m_stride[DIM_DP]) % c.dp;
    return at;
}

uint32_t
WorkloadGenerator::GetRank(const Coordinates& c) const
{
    return c.tp * m_stride[DIM_TP] + c.cp * m_stride[DIM_CP] + c.pp * m_stride[DIM_PP] +
           c.dp * m_stride[DIM_DP];
}

std::pair<uint32_t, uint32_t>
WorkloadGenerator::GetStageLayers(uint32_t globalStage) const
{
    // Even split; the first (layers mod stages) stages take one layer more.
    uint32_t stages = m_config.pp * m_config.virtualStages;
    uint32_t base = m_config.model.layers / stages;
    uint32_t extra = m_config.model.layers % stages;
    uint32_t first = globalStage * base + std::min(globalStage, extra);
    return {first, first + base + (globalStage < extra ? 1 : 0)};
}

uint64_t
WorkloadGenerator::GetRootParams(uint32_t globalStage) const
{
    uint32_t last = m_config.pp * m_config.virtualStages - 1;
    uint64_t params = 0;
    if (globalStage == 0)
    {
        params += m_config.model.EmbeddingParams();
    }
    if (globalStage == last)
    {
        params += m_config.model.HeadParams();
    }
    return params;
}

namespace
{
/// Duration in us of some FLOPs at peak x mfu, rounded to the nanosecond.
double
DurationUs(double flops, double peakTflops, double mfu)
{
    double us = flops / (peakTflops * 1e12 * mfu) * 1e6;
    return std::round(us * 1000.0) / 1000.0;
}
} // namespace

double
WorkloadGenerator::ComputeUs(double flops) const
{
    return DurationUs(flops, m_config.gpu.peakTflops, m_config.mfu);
}

double
WorkloadGenerator::BackwardComputeUs(double flops) const
{
    double mfu = m_config.mfuBackward > 0.0 ? m_config.mfuBackward : m_config.mfu;
    return DurationUs(flops, m_config.gpu.peakTflops, mfu);
}

namespace
{
const std::vector<std::pair<WorkloadGeneratorConfig::ReshardPolicy, std::string>> g_reshardNames = {
    {WorkloadGeneratorConfig::RESHARD_ALWAYS, "always"},
    {WorkloadGeneratorConfig::RESHARD_AFTER_BACKWARD_ONLY, "after-backward-only"},
    {WorkloadGeneratorConfig::RESHARD_NEVER, "never"}};
} // namespace

WorkloadGeneratorConfig::ReshardPolicy
WorkloadGenerator::ParseReshard(const std::string& name)
{
    for (const auto& [policy, text] : g_reshardNames)
    {
        if (text == name)
        {
            return policy;
        }
    }
    throw std::invalid_argument("unknown --reshard '" + name + "'" +
                                " (known: always, after-backward-only, never)");
}

std::string
WorkloadGenerator::ReshardName(WorkloadGeneratorConfig::ReshardPolicy policy)
{
    for (const auto& [known, text] : g_reshardNames)
    {
        if (known == policy)
        {
            return text;
        }
    }
    return "unknown";
}

std::vector<std::string>
WorkloadGenerator::ParseOrder(const std::string& text)
{
    std::vector<std::string> order;
    std::string item;
    for (std::size_t i = 0; i <= text.size(); ++i)
    {
        if (i == text.size() || text[i] == ',')
        {
            order.push_back(item);
            item.clear();
        }
        else if (text[i] != ' ' && text[i] != '[' && text[i] != ']')
        {
            item += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
        }
    }
    std::vector<std::string> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::string> expected = g_dimNames;
    std::sort(expected.begin(), expected.end());
    if (sorted != expected)
    {
        throw std::invalid_argument("order '" + text +
                                    "' must list tp, cp, pp and dp once each, innermost first");
    }
    return order;
}

WorkloadDag
WorkloadGenerator::Generate() const
{
    const WorkloadGeneratorConfig& c = m_config;
    WorkloadGroupTable table;
    auto along = [this](uint32_t dim, uint32_t size) {
        return [this, dim, size](uint32_t rank) {
            Coordinates at = GetCoordinates(rank);
            uint32_t* coordinate[4] = {&at.tp, &at.cp, &at.pp, &at.dp};
            std::vector<uint32_t> members;
            for (uint32_t i = 0; i < size; ++i)
            {
                *coordinate[dim] = i;
                members.push_back(GetRank(at));
            }
            return members;
        };
    };
    const uint32_t sizes[4] = {c.tp, c.cp, c.pp, c.dp};
    for (uint32_t dim = 0; dim < 4; ++dim)
    {
        bool used = sizes[dim] > 1 && !(dim == DIM_TP && c.foldTp);
        if (used)
        {
            table.Add(g_dimNames[dim], m_ranks, along(dim, sizes[dim]));
        }
    }
    if (c.model.IsMoe() && c.ep > 1)
    {
        // EP groups are blocks of ep consecutive DP indices; expert-data-parallel (edp)
        // groups join the ranks holding the same experts (same DP index modulo ep).
        auto dpMembers = [this](uint32_t rank, bool expertGroup) {
            Coordinates at = GetCoordinates(rank);
            uint32_t ep = m_config.ep;
            std::vector<uint32_t> members;
            for (uint32_t d = 0; d < m_config.dp; ++d)
            {
                bool same = expertGroup ? d / ep == at.dp / ep : d % ep == at.dp % ep;
                if (same)
                {
                    Coordinates other = at;
                    other.dp = d;
                    members.push_back(GetRank(other));
                }
            }
            return members;
        };
        table.Add("ep", m_ranks, [&dpMembers](uint32_t r) { return dpMembers(r, true); });
        if (c.dp / c.ep > 1)
        {
            table.Add("edp", m_ranks, [&dpMembers](uint32_t r) { return dpMembers(r, false); });
        }
    }
    std::vector<WorkloadOp> ops;
    for (uint32_t rank = 0; rank < m_ranks; ++rank)
    {
        EmitWorkloadRankProgram(*this, table, rank, ops);
        if (m_progress)
        {
            m_progress(rank + 1, m_ranks);
        }
    }
    return WorkloadDag(m_ranks, std::move(table.groups), std::move(ops));
}

namespace
{

/**
 * \param config the generator's configuration
 * \param field the field of a generated op that the validator refused
 * \return which flags made it so, in the programs' words (empty if none can be told)
 */
std::string
BlameFlags(const WorkloadGeneratorConfig& config, const std::string& field)
{
    std::ostringstream text;
    text << std::setprecision(6);
    if (field == "duration_us")
    {
        text << "compute time is FLOPs / (GPU peak x MFU): raise --mfu (" << config.mfu << ")";
        if (config.mfuBackward > 0)
        {
            text << " or --mfuBackward (" << config.mfuBackward << ")";
        }
        text << " or shrink the model, --seqLen or --microBatchSize";
    }
    else if (field == "bytes")
    {
        text << "message sizes grow with the model (--hidden, --ffn, --vocab, --layers), "
                "--seqLen="
             << config.seqLen << ", --microBatchSize=" << config.microBatchSize
             << " and the dtypes; make them smaller or shard more (--tp, --fsdp, --pp)";
    }
    else if (field == "iteration")
    {
        text << "--iterations=" << config.iterations << " is too many";
    }
    return text.str();
}

} // namespace

WorkloadDag
WorkloadGenerator::GenerateValid() const
{
    WorkloadDag dag = Generate();
    try
    {
        WorkloadValidator::Check(dag, "");
        return dag;
    }
    catch (const WorkloadFormatError& e)
    {
        throw std::invalid_argument(DescribeInvalid(dag, e));
    }
}

std::string
WorkloadGenerator::DescribeInvalid(const WorkloadDag& dag, const WorkloadFormatError& e) const
{
    WorkloadError first = e.GetErrors().front();
    first.file = "the generated job";
    const WorkloadOp* op =
        first.rank >= 0 && first.id >= 0
            ? dag.FindOp(static_cast<uint32_t>(first.rank), static_cast<uint32_t>(first.id))
            : nullptr;
    if (op != nullptr && !op->label.empty())
    {
        first.message += " (op '" + op->label + "')";
    }
    std::size_t others = e.GetTotal() - 1;
    std::string more = others == 0   ? ""
                       : others == 1 ? " (and 1 more error)"
                                     : " (and " + std::to_string(others) + " more errors)";
    std::string blame = BlameFlags(m_config, first.field);
    return first.ToString() + more +
           (blame.empty() ? "; this is a generator bug, please report it" : "; " + blame);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-generator-flags.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{
uint32_t
DtypeBytes(const std::string& name)
{
    if (name == "bf16" || name == "fp16")
    {
        return 2;
    }
    if (name == "fp32")
    {
        return 4;
    }
    if (name == "fp8")
    {
        return 1;
    }
    throw std::invalid_argument("unknown dtype '" + name + "' (bf16, fp16, fp32, fp8)");
}
} // namespace

void
WorkloadGeneratorFlags::Add(StrictCommandLine& cmd)
{
    auto add = [this, &cmd](const std::string& name, const std::string& help, auto& value) {
        names.push_back(name);
        cmd.Add(name, help, value);
    };
    add("model", "llama3-8b|llama3-70b|llama3.1-405b|gpt3-175b|mixtral-8x7b|custom", model);
    add("layers", "override: transformer blocks", layers);
    add("hidden", "override: model width", hidden);
    add("heads", "override: attention heads", heads);
    add("kvHeads", "override: key/value heads", kvHeads);
    add("ffn", "override: MLP width (per expert)", ffn);
    add("vocab", "override: vocabulary", vocab);
    add("experts", "override: experts per MoE layer", experts);
    add("topK", "override: experts per token", topK);
    add("gpu", "a100|h100|h200|b200", gpu);
    add("mfu", "model FLOPs utilization of compute ops, (0,1]", mfu);
    add("tp", "tensor parallel degree (inside a server)", tp);
    add("cp", "context parallel degree", cp);
    add("pp", "pipeline stages", pp);
    add("dp", "data parallel degree, DDP (replicated parameters)", dp);
    add("fsdp", "data parallel degree, FSDP/ZeRO-3 (sharded parameters)", fsdp);
    add("ep", "expert parallel degree (divides the DP degree)", ep);
    add("vpp", "virtual stages per rank (interleaved schedule)", vpp);
    add("schedule", "gpipe|1f1b|interleaved", schedule);
    add("microBatchSize", "sequences per micro-batch", microBatchSize);
    add("microBatches", "micro-batches per iteration (0: from globalBatch)", microBatches);
    add("globalBatch", "sequences per iteration (0: 2 x pp micro-batches)", globalBatch);
    add("seqLen", "tokens per sequence", seqLen);
    add("paramDtype", "parameter dtype as gathered: bf16|fp16|fp32|fp8", paramDtype);
    add("gradDtype", "gradient dtype as reduced: bf16|fp16|fp32|fp8", gradDtype);
    add("actDtype", "activation dtype: bf16|fp16|fp32|fp8", actDtype);
    add("recompute", "full activation recomputation", recompute);
    add("order", "rank placement, innermost first (permutation of tp,cp,pp,dp)", order);
    add("foldTp", "fold TP collectives into compute time", foldTp);
}

std::vector<std::string>
WorkloadGeneratorFlags::Given(const StrictCommandLine& cmd) const
{
    std::vector<std::string> given;
    for (const std::string& name : names)
    {
        if (cmd.IsGiven(name))
        {
            given.push_back(name);
        }
    }
    return given;
}

void
WorkloadGeneratorFlags::CheckRanges() const
{
    // Model dimensions (0 keeps the preset's): bounded so that parameter, activation and
    // all-to-all byte counts, products of several of them, stay far below 2^64.
    const std::vector<std::tuple<const char*, uint32_t, uint32_t>> dimensions = {
        {"layers", layers, MAX_LAYERS},
        {"hidden", hidden, MAX_HIDDEN},
        {"heads", heads, MAX_HIDDEN},
        {"kvHeads", kvHeads, MAX_HIDDEN},
        {"ffn", ffn, MAX_FFN},
        {"vocab", vocab, MAX_VOCAB},
        {"experts", experts, MAX_EXPERTS},
        {"topK", topK, MAX_EXPERTS}};
    for (const auto& [name, value, most] : dimensions)
    {
        StrictCommandLine::CheckRange(name, value, 1, most, "a model dimension", "the preset's");
    }
    StrictCommandLine::CheckRange("seqLen", seqLen, 1, MAX_SEQ_LEN, "tokens per sequence");
    StrictCommandLine::CheckRange("microBatchSize",
                                  microBatchSize,
                                  1,
                                  MAX_MICRO_BATCH_SIZE,
                                  "sequences per micro-batch");
    StrictCommandLine::CheckRange("vpp", vpp, 1, MAX_VIRTUAL_STAGES, "virtual stages per rank");
    // Compute ops last FLOPs / (peak x mfu): a tiny mfu turned them into centuries.
    StrictCommandLine::CheckRange("mfu", mfu, MIN_MFU, 1, "model FLOPs utilization");
    StrictCommandLine::CheckRange("iterations",
                                  iterations,
                                  1,
                                  MAX_ITERATIONS,
                                  "iterations to emit");
    // The rank count, step by step: a product of four 32-bit degrees wraps even 64 bits.
    uint64_t ranks = 1;
    for (uint32_t degree : {tp, cp, pp, std::max(dp, fsdp)})
    {
        ranks *= std::max<uint32_t>(degree, 1);
        if (ranks > MAX_RANKS)
        {
            throw std::invalid_argument("--tp x --cp x --pp x --dp (or --fsdp) is more than " +
                                        std::to_string(MAX_RANKS) + " ranks");
        }
    }
}

WorkloadGeneratorConfig
WorkloadGeneratorFlags::ToConfig(uint32_t gpusPerServer) const
{
    CheckRanges();
    WorkloadGeneratorConfig c;
    c.model = model == "custom" ? WorkloadModelSpec() : WorkloadModelSpec::Preset(model);
    // Any dimension given on the command line overrides the preset.
    auto set = [](uint32_t flag, uint32_t& field) {
        if (flag > 0)
        {
            field = flag;
        }
    };
    set(layers, c.model.layers);
    set(hidden, c.model.hidden);
    set(heads, c.model.heads);
    set(kvHeads, c.model.kvHeads);
    set(ffn, c.model.ffn);
    set(vocab, c.model.vocab);
    set(experts, c.model.experts);
    set(topK, c.model.topK);
    if (model == "custom" && c.model.kvHeads == 0)
    {
        c.model.kvHeads = c.model.heads;
    }
    c.gpu = WorkloadGpuSpec::Preset(gpu);
    c.mfu = mfu;
    if (dp > 1 && fsdp > 1)
    {
        throw std::invalid_argument("give either --dp (DDP) or --fsdp (FSDP), not both");
    }
    c.tp = tp;
    c.cp = cp;
    c.pp = pp;
    c.dp = fsdp > 1 ? fsdp : dp;
    c.dpMode = fsdp > 1 ? WorkloadGeneratorConfig::FSDP : WorkloadGeneratorConfig::DDP;
    c.ep = ep;
    c.schedule = WorkloadPipelineSchedule::ParseKind(schedule);
    c.virtualStages = vpp;
    c.microBatchSize = microBatchSize;
    c.microBatches = microBatches;
    c.globalBatch = globalBatch;
    c.seqLen = seqLen;
    c.paramBytes = DtypeBytes(paramDtype);
    c.gradBytes = DtypeBytes(gradDtype);
    c.activationBytes = DtypeBytes(actDtype);
    c.recompute = recompute;
    c.order = WorkloadGenerator::ParseOrder(order);
    c.gpusPerServer = gpusPerServer;
    c.foldTp = foldTp;
    c.iterations = iterations;
    return c;
}

} // namespace ns3

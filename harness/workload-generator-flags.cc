/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-generator-flags.h"

#include "ns3/log.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadGeneratorFlags");

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
    throw std::invalid_argument("unknown dtype " + StrictCommandLine::Quote(name) +
                                " (bf16, fp16, fp32, fp8)");
}
} // namespace

const FlagRange&
WorkloadGeneratorFlags::Range(const std::string& name)
{
    // Model dimensions (0 keeps the preset's): bounded so that parameter, activation and
    // all-to-all byte counts, products of several of them, stay far below 2^64. A tiny mfu
    // turned compute ops into centuries.
    static const std::map<std::string, FlagRange> ranges = {
        {"layers", {1, MAX_LAYERS, "a model dimension", "the preset's"}},
        {"hidden", {1, MAX_HIDDEN, "a model dimension", "the preset's"}},
        {"heads", {1, MAX_HIDDEN, "a model dimension", "the preset's"}},
        {"kvHeads", {1, MAX_HIDDEN, "a model dimension", "the preset's"}},
        {"ffn", {1, MAX_FFN, "a model dimension", "the preset's"}},
        {"vocab", {1, MAX_VOCAB, "a model dimension", "the preset's"}},
        {"experts", {1, MAX_EXPERTS, "a model dimension", "the preset's"}},
        {"topK", {1, MAX_EXPERTS, "a model dimension", "the preset's"}},
        {"seqLen", {1, MAX_SEQ_LEN, "tokens per sequence"}},
        {"microBatchSize", {1, MAX_MICRO_BATCH_SIZE, "sequences per micro-batch"}},
        {"vpp", {1, MAX_VIRTUAL_STAGES, "virtual stages per rank"}},
        {"mfu", {MIN_MFU, 1, "model FLOPs utilization"}},
        {"mfuBackward", {MIN_MFU, 1, "backward model FLOPs utilization", "--mfu's"}},
        {"gatherPrefetch",
         {0, WorkloadGeneratorConfig::MAX_GATHER_PREFETCH, "FSDP gathers issued ahead of compute"}},
        {"iterations", {1, MAX_ITERATIONS, "iterations to emit"}},
    };
    return ranges.at(name);
}

void
WorkloadGeneratorFlags::Add(StrictCommandLine& cmd)
{
    auto add = [this, &cmd](const std::string& name, const std::string& help, auto& value) {
        names.push_back(name);
        cmd.Add(name, help, value);
    };
    // A bounded flag: the command line refuses values outside its range, which its help
    // states.
    auto bounded = [this, &cmd](const std::string& name, const std::string& help, auto& value) {
        names.push_back(name);
        cmd.Add(name, help, value, Range(name));
    };
    add("model", "llama3-8b|llama3-70b|llama3.1-405b|gpt3-175b|mixtral-8x7b|custom", model);
    bounded("layers", "override: transformer blocks", layers);
    bounded("hidden", "override: model width", hidden);
    bounded("heads", "override: attention heads", heads);
    bounded("kvHeads", "override: key/value heads", kvHeads);
    bounded("ffn", "override: MLP width (per expert)", ffn);
    bounded("vocab", "override: vocabulary", vocab);
    bounded("experts", "override: experts per MoE layer", experts);
    bounded("topK", "override: experts per token", topK);
    add("gpu", "a100|h100|h200|b200", gpu);
    bounded("mfu", "model FLOPs utilization of forward and recomputation", mfu);
    bounded("mfuBackward", "model FLOPs utilization of backward", mfuBackward);
    add("tp", "tensor parallel degree (inside a server)", tp);
    add("cp", "context parallel degree", cp);
    add("pp", "pipeline stages", pp);
    add("dp", "data parallel degree, DDP (replicated parameters)", dp);
    add("fsdp", "data parallel degree, FSDP/ZeRO-3 (sharded parameters)", fsdp);
    add("ep", "expert parallel degree (divides the DP degree)", ep);
    bounded("vpp", "virtual stages per rank (interleaved schedule)", vpp);
    add("schedule", "gpipe|1f1b|interleaved", schedule);
    bounded("microBatchSize", "sequences per micro-batch", microBatchSize);
    add("microBatches", "micro-batches per iteration (0: from globalBatch)", microBatches);
    add("globalBatch", "sequences per iteration (0: 2 x pp micro-batches)", globalBatch);
    bounded("seqLen", "tokens per sequence", seqLen);
    add("paramDtype", "parameter dtype as gathered: bf16|fp16|fp32|fp8", paramDtype);
    add("gradDtype", "gradient dtype as reduced: bf16|fp16|fp32|fp8", gradDtype);
    add("actDtype", "activation dtype: bf16|fp16|fp32|fp8", actDtype);
    add("recompute", "full activation recomputation", recompute);
    add("order", "rank placement, innermost first (permutation of tp,cp,pp,dp)", order);
    add("foldTp", "fold TP collectives into compute time", foldTp);
    add("reshard", "FSDP reshard policy: always|after-backward-only|never", reshard);
    bounded("gatherPrefetch", "FSDP gathers issued ahead of compute (0: blocking)", gatherPrefetch);
    add("job", "the paper's measured job: b16|b24 (sets the defaults; explicit flags win)", job);
}

WorkloadGeneratorFlags
WorkloadGeneratorFlags::Job(const std::string& name)
{
    // Global batch of the step-time runs (b16) and of the phase logs' run (b24): 4-sequence
    // micro-batches on 2 FSDP ranks make 2 and 3 micro-batches per step.
    const std::map<std::string, uint32_t> globalBatches = {{"b16", 16}, {"b24", 24}};
    auto batch = globalBatches.find(name);
    if (batch == globalBatches.end())
    {
        throw std::invalid_argument("unknown --job " + StrictCommandLine::Quote(name) +
                                    " (known: b16, b24)");
    }
    // TorchTitan's Llama3-8B on 4 Perlmutter nodes x 4 A100 (measured-job.md): TP 4 in a
    // node, FSDP 2 with reshard "always", PP 2 1F1B, full recomputation, bf16 gathers and
    // fp32 reductions; the shim waited for every collective, so gathers did not overlap.
    WorkloadGeneratorFlags f;
    f.job = name;
    f.model = "llama3-8b";
    f.gpu = "a100";
    f.tp = 4;
    f.fsdp = 2;
    f.pp = 2;
    f.schedule = "1f1b";
    f.microBatchSize = 4;
    f.seqLen = 8192;
    f.globalBatch = batch->second;
    f.recompute = true;
    f.reshard = "always";
    f.gatherPrefetch = 0;
    f.paramDtype = "bf16";
    f.gradDtype = "fp32";
    f.mfu = JOB_MFU;
    f.mfuBackward = JOB_MFU_BACKWARD;
    // TP stays inside the server and never reaches a rail: folded into compute (at the
    // scale-up bandwidth) the job runs ~15x fewer events; the calibration includes it.
    f.foldTp = true;
    return f;
}

uint32_t
WorkloadGeneratorFlags::ApplyJob(const StrictCommandLine& cmd)
{
    uint32_t gpusPerServer = 0;
    if (!job.empty())
    {
        TakeJob(cmd);
        gpusPerServer = JOB_GPUS_PER_SERVER;
    }
    // FSDP's own flags given for a job without FSDP would change nothing: say so (after a
    // bad value has been named as such).
    WorkloadGenerator::ParseReshard(reshard);
    if (fsdp <= 1)
    {
        cmd.RefuseGiven(
            {"reshard", "gatherPrefetch"},
            "applies to FSDP, which this job does not use (--fsdp=" + std::to_string(fsdp) + ")");
    }
    return gpusPerServer;
}

void
WorkloadGeneratorFlags::TakeJob(const StrictCommandLine& cmd)
{
    const WorkloadGeneratorFlags preset = Job(job);
    auto take = [&cmd](const char* name, auto& field, const auto& value) {
        if (!cmd.IsGiven(name))
        {
            field = value;
        }
    };
    take("model", model, preset.model);
    take("gpu", gpu, preset.gpu);
    take("tp", tp, preset.tp);
    if (!cmd.IsGiven("dp"))
    {
        take("fsdp", fsdp, preset.fsdp); // an explicit --dp (DDP) replaces the job's FSDP
    }
    take("pp", pp, preset.pp);
    take("schedule", schedule, preset.schedule);
    take("microBatchSize", microBatchSize, preset.microBatchSize);
    take("seqLen", seqLen, preset.seqLen);
    take("globalBatch", globalBatch, preset.globalBatch);
    take("recompute", recompute, preset.recompute);
    take("reshard", reshard, preset.reshard);
    take("gatherPrefetch", gatherPrefetch, preset.gatherPrefetch);
    take("paramDtype", paramDtype, preset.paramDtype);
    take("gradDtype", gradDtype, preset.gradDtype);
    take("mfu", mfu, preset.mfu);
    take("mfuBackward", mfuBackward, preset.mfuBackward);
    take("foldTp", foldTp, preset.foldTp);
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
    const std::vector<std::pair<const char*, double>> values = {{"layers", layers},
                                                                {"hidden", hidden},
                                                                {"heads", heads},
                                                                {"kvHeads", kvHeads},
                                                                {"ffn", ffn},
                                                                {"vocab", vocab},
                                                                {"experts", experts},
                                                                {"topK", topK},
                                                                {"seqLen", seqLen},
                                                                {"microBatchSize", microBatchSize},
                                                                {"vpp", vpp},
                                                                {"mfu", mfu},
                                                                {"mfuBackward", mfuBackward},
                                                                {"gatherPrefetch", gatherPrefetch},
                                                                {"iterations", iterations}};
    for (const auto& [name, value] : values)
    {
        StrictCommandLine::CheckRange(name, value, Range(name));
    }
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
    if (!job.empty())
    {
        Job(job); // refuses an unknown name even where ApplyJob was not called
    }
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
    c.mfuBackward = mfuBackward;
    c.reshard = WorkloadGenerator::ParseReshard(reshard);
    c.gatherPrefetch = gatherPrefetch;
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

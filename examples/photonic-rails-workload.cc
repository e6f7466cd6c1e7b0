/*
 * photonic-rails-workload: generates an LLM training DAG (JSON, CONTRACT version 1),
 * validates and summarizes a DAG file, or runs the paper's window analysis (§3.1) on a
 * timeline (collectives.csv), a DAG (estimated replay) or the authors' measured phase logs.
 *
 *   photonic-rails-workload --model=llama3-8b --tp=4 --fsdp=2 --pp=2 --schedule=1f1b \
 *                           --gpusPerServer=4 --out=dag.json
 *   photonic-rails-workload --validate=dag.json --gpusPerServer=4
 *   photonic-rails-workload --windows=stage0-phases.txt,stage1-phases.txt
 *
 * Errors are one line on stderr with a non-zero exit status; progress goes to stderr.
 */

#include "example-flags.h"

#include "ns3/workload-error.h"
#include "ns3/workload-estimator.h"
#include "ns3/workload-generator.h"
#include "ns3/workload-json.h"
#include "ns3/workload-phase-log.h"
#include "ns3/workload-summary.h"
#include "ns3/workload-timeline.h"
#include "ns3/workload-validator.h"
#include "ns3/workload-windows.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-workload";

/// Every flag of the program, with its default.
struct Options
{
    // generate
    std::string model{"llama3-8b"};
    uint32_t layers{0}, hidden{0}, heads{0}, kvHeads{0}, ffn{0}, vocab{0}, experts{0}, topK{0};
    std::string gpu{"a100"};
    double mfu{0.4};
    uint32_t tp{1}, cp{1}, pp{1}, dp{1}, fsdp{1}, ep{1}, vpp{1};
    std::string schedule{"1f1b"};
    uint32_t microBatchSize{1}, microBatches{0}, globalBatch{0}, seqLen{8192};
    std::string paramDtype{"bf16"}, gradDtype{"fp32"}, actDtype{"bf16"};
    bool recompute{false};
    std::string order{"tp,cp,pp,dp"};
    uint32_t gpusPerServer{8};
    bool foldTp{false};
    uint32_t iterations{1};
    std::string out;
    bool summary{false};
    // validate
    std::string validate;
    bool estimate{true};
    double scaleUpGBps{300.0}, scaleOutGbps{200.0}, latencyUs{10.0};
    // windows
    std::string windows;
    std::string view{"rail"};
    int64_t select{-1};
    uint32_t skipIterations{0};
    double thresholdMs{1.0};
    std::string csv;
};

/// Flags given on the command line (to tell a default from a choice).
std::set<std::string> g_given;

void
Progress(const std::string& what, double fraction)
{
    std::fprintf(stderr, "[workload] %s: %3.0f%%\n", what.c_str(), fraction * 100.0);
}

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

WorkloadModelSpec
BuildModel(const Options& o)
{
    WorkloadModelSpec m;
    if (o.model != "custom")
    {
        m = WorkloadModelSpec::Preset(o.model);
    }
    // Any dimension given on the command line overrides the preset.
    auto set = [](uint32_t flag, uint32_t& field) {
        if (flag > 0)
        {
            field = flag;
        }
    };
    set(o.layers, m.layers);
    set(o.hidden, m.hidden);
    set(o.heads, m.heads);
    set(o.kvHeads, m.kvHeads);
    set(o.ffn, m.ffn);
    set(o.vocab, m.vocab);
    set(o.experts, m.experts);
    set(o.topK, m.topK);
    if (o.model == "custom" && m.kvHeads == 0)
    {
        m.kvHeads = m.heads;
    }
    return m;
}

WorkloadGeneratorConfig
BuildConfig(const Options& o)
{
    WorkloadGeneratorConfig c;
    c.model = BuildModel(o);
    c.gpu = WorkloadGpuSpec::Preset(o.gpu);
    c.mfu = o.mfu;
    if (o.dp > 1 && o.fsdp > 1)
    {
        throw std::invalid_argument("give either --dp (DDP) or --fsdp (FSDP), not both");
    }
    c.tp = o.tp;
    c.cp = o.cp;
    c.pp = o.pp;
    c.dp = o.fsdp > 1 ? o.fsdp : o.dp;
    c.dpMode = o.fsdp > 1 ? WorkloadGeneratorConfig::FSDP : WorkloadGeneratorConfig::DDP;
    c.ep = o.ep;
    c.schedule = WorkloadPipelineSchedule::ParseKind(o.schedule);
    c.virtualStages = o.vpp;
    c.microBatchSize = o.microBatchSize;
    c.microBatches = o.microBatches;
    c.globalBatch = o.globalBatch;
    c.seqLen = o.seqLen;
    c.paramBytes = DtypeBytes(o.paramDtype);
    c.gradBytes = DtypeBytes(o.gradDtype);
    c.activationBytes = DtypeBytes(o.actDtype);
    c.recompute = o.recompute;
    c.order = WorkloadGenerator::ParseOrder(o.order);
    c.gpusPerServer = o.gpusPerServer;
    c.foldTp = o.foldTp;
    c.iterations = o.iterations;
    return c;
}

WorkloadEstimatorConfig
EstimatorConfig(const Options& o)
{
    WorkloadEstimatorConfig c;
    c.gpusPerServer = o.gpusPerServer;
    c.scaleUpGBps = o.scaleUpGBps;
    c.scaleOutGbps = o.scaleOutGbps;
    c.latencyUs = o.latencyUs;
    return c;
}

int
Generate(const Options& o)
{
    WorkloadGenerator generator(BuildConfig(o));
    if (generator.GetRankCount() >= 64)
    {
        uint32_t step = std::max<uint32_t>(1, generator.GetRankCount() / 10);
        generator.SetProgressCallback([step](uint32_t done, uint32_t total) {
            if (done % step == 0 && done + step > total ? done == total : done % step == 0)
            {
                Progress("generating ranks", double(done) / total);
            }
        });
    }
    WorkloadDag dag = generator.Generate();
    WorkloadValidator::Check(dag, o.out); // a generator bug must never reach a simulation
    WorkloadJson::WriteFile(dag, o.out);
    std::cerr << "[workload] wrote " << o.out << ": " << dag.GetRankCount() << " ranks, "
              << dag.GetOpCount() << " ops, " << generator.GetMicroBatches() << " micro-batches\n";
    if (o.summary)
    {
        WorkloadSummary::Build(dag, EstimatorConfig(o), o.estimate).Print(std::cout);
    }
    return 0;
}

int
Validate(const Options& o)
{
    WorkloadDag dag;
    try
    {
        dag = WorkloadJson::Load(o.validate);
    }
    catch (const WorkloadFormatError& e)
    {
        for (const auto& error : e.GetErrors())
        {
            std::cerr << error.ToString() << "\n";
        }
        std::cerr << PROGRAM << ": " << o.validate << " is invalid (" << e.GetTotal() << " error"
                  << (e.GetTotal() > 1 ? "s" : "") << ")\n";
        return 1;
    }
    std::cout << o.validate << ": valid\n";
    std::function<void(double)> progress;
    if (dag.GetOpCount() >= 200000)
    {
        progress = [](double f) {
            if (int(f * 100) % 10 == 0)
            {
                Progress("estimating", f);
            }
        };
    }
    WorkloadSummary summary = WorkloadSummary::Build(dag, EstimatorConfig(o), o.estimate, progress);
    // The DAG format does not record the server size: say so when the default is used.
    summary.gpusPerServerAssumed = g_given.count("gpusPerServer") == 0;
    summary.Print(std::cout);
    return 0;
}

std::string
ReadText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error(path + ": cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Windows of one input: a phase log, a DAG (estimated replay) or a timeline CSV.
std::vector<WorkloadWindow>
WindowsOf(const Options& o, const std::string& path, std::string& kind)
{
    std::string text = ReadText(path);
    if (WorkloadPhaseLog::LooksLikePhaseLog(text))
    {
        WorkloadPhaseLog log = WorkloadPhaseLog::Parse(text, path);
        kind = "phase log, " + std::to_string(log.GetEntries().size()) + " phases, " +
               std::to_string(log.GetIterationCount()) + " iterations";
        return WorkloadWindows::Between(log.ToPhases(), -1);
    }
    WorkloadTimeline timeline;
    std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{')
    {
        WorkloadDag dag = WorkloadJson::Parse(text, path);
        WorkloadValidator::Check(dag, path);
        WorkloadEstimatorConfig c = EstimatorConfig(o);
        c.repetitions = 2;
        timeline = WorkloadEstimator(c).Run(dag).timeline;
        kind = "DAG, estimated replay x2";
    }
    else
    {
        timeline = WorkloadTimeline::ParseCsv(text, path);
        kind = "timeline, " + std::to_string(timeline.GetRecords().size()) + " records";
    }
    WorkloadWindows analysis(o.gpusPerServer);
    kind += g_given.count("gpusPerServer") > 0
                ? ", --gpusPerServer=" + std::to_string(o.gpusPerServer)
                : ", assuming " + std::to_string(o.gpusPerServer) +
                      " GPUs per server (--gpusPerServer)";
    if (o.view == "rank")
    {
        kind += ", rank " + std::to_string(std::max<int64_t>(0, o.select)) + " view";
        return analysis.RankWindows(timeline, uint32_t(std::max<int64_t>(0, o.select)));
    }
    if (o.view != "rail")
    {
        throw std::invalid_argument("--view must be rail or rank");
    }
    kind += o.select >= 0 ? ", rail " + std::to_string(o.select) : ", all rails";
    return analysis.RailWindows(timeline, o.select);
}

void
PrintWindows(const Options& o, const std::vector<WorkloadWindow>& windows)
{
    WorkloadWindowStats s = WorkloadWindows::Summarize(windows, o.thresholdMs * 1e-3);
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "  windows per iteration:";
    for (const auto& [iteration, count] : s.perIteration)
    {
        std::cout << " " << iteration << ":" << count;
    }
    std::cout << "\n  windows: " << s.count;
    if (s.count > 0)
    {
        std::cout << ", median " << s.medianS * 1e3 << " ms, min " << s.minS * 1e3 << " ms, max "
                  << s.maxS * 1e3 << " ms, above " << o.thresholdMs
                  << " ms: " << std::setprecision(1) << s.shareAbove * 100 << " %";
    }
    std::cout << "\n  by following phase (windows, mean ms, min ms, max ms):\n";
    for (const auto& c : WorkloadWindows::Classify(windows))
    {
        std::cout << "    " << std::left << std::setw(34) << c.label << std::right << std::setw(5)
                  << c.count << std::setprecision(3) << std::setw(12) << c.meanS * 1e3
                  << std::setw(12) << c.minS * 1e3 << std::setw(12) << c.maxS * 1e3 << "\n";
    }
}

int
Windows(const Options& o)
{
    std::vector<std::string> paths;
    std::stringstream list(o.windows);
    std::string path;
    while (std::getline(list, path, ','))
    {
        paths.push_back(path);
    }
    std::vector<WorkloadWindow> all;
    std::ofstream csv;
    if (!o.csv.empty())
    {
        csv.open(o.csv);
        if (!csv)
        {
            throw std::runtime_error(o.csv + ": cannot open the file for writing");
        }
        csv << "file,view,iteration,start_s,window_ms,before,next\n" << std::setprecision(12);
    }
    for (const auto& p : paths)
    {
        std::string kind;
        std::vector<WorkloadWindow> windows;
        for (const auto& w : WindowsOf(o, p, kind))
        {
            if (w.iteration >= o.skipIterations)
            {
                windows.push_back(w);
            }
        }
        std::cout << p << " (" << kind << ")\n";
        PrintWindows(o, windows);
        for (const auto& w : windows)
        {
            if (csv.is_open())
            {
                csv << p << ',' << w.view << ',' << w.iteration << ',' << w.startS << ','
                    << w.DurationS() * 1e3 << ',' << w.before << ',' << w.next.label << '\n';
            }
        }
        all.insert(all.end(), windows.begin(), windows.end());
    }
    if (paths.size() > 1)
    {
        std::cout << "all inputs\n";
        PrintWindows(o, all);
    }
    return 0;
}

void
AddFlags(ExampleFlags& flags, Options& o)
{
    flags.Usage("Generates, validates and analyses photonic-rails workload DAGs.\n"
                "Modes: generate (--out=FILE), --validate=FILE, --windows=FILE[,FILE...].");
    flags.Add("out", "generate: write the DAG JSON to this file", o.out);
    flags.Add("summary", "generate: also print the --validate summary", o.summary);
    flags.Add("model", "llama3-8b|llama3-70b|llama3.1-405b|gpt3-175b|mixtral-8x7b|custom", o.model);
    flags.Add("layers", "override: transformer blocks", o.layers);
    flags.Add("hidden", "override: model width", o.hidden);
    flags.Add("heads", "override: attention heads", o.heads);
    flags.Add("kvHeads", "override: key/value heads", o.kvHeads);
    flags.Add("ffn", "override: MLP width (per expert)", o.ffn);
    flags.Add("vocab", "override: vocabulary", o.vocab);
    flags.Add("experts", "override: experts per MoE layer", o.experts);
    flags.Add("topK", "override: experts per token", o.topK);
    flags.Add("gpu", "a100|h100|h200|b200", o.gpu);
    flags.Add("mfu", "model FLOPs utilization of compute ops, (0,1]", o.mfu);
    flags.Add("tp", "tensor parallel degree (inside a server)", o.tp);
    flags.Add("cp", "context parallel degree", o.cp);
    flags.Add("pp", "pipeline stages", o.pp);
    flags.Add("dp", "data parallel degree, DDP (replicated parameters)", o.dp);
    flags.Add("fsdp", "data parallel degree, FSDP/ZeRO-3 (sharded parameters)", o.fsdp);
    flags.Add("ep", "expert parallel degree (divides the DP degree)", o.ep);
    flags.Add("vpp", "virtual stages per rank (interleaved schedule)", o.vpp);
    flags.Add("schedule", "gpipe|1f1b|interleaved", o.schedule);
    flags.Add("microBatchSize", "sequences per micro-batch", o.microBatchSize);
    flags.Add("microBatches", "micro-batches per iteration (0: from globalBatch)", o.microBatches);
    flags.Add("globalBatch", "sequences per iteration (0: 2 x pp micro-batches)", o.globalBatch);
    flags.Add("seqLen", "tokens per sequence", o.seqLen);
    flags.Add("paramDtype", "parameter dtype as gathered: bf16|fp16|fp32|fp8", o.paramDtype);
    flags.Add("gradDtype", "gradient dtype as reduced: bf16|fp16|fp32|fp8", o.gradDtype);
    flags.Add("actDtype", "activation dtype: bf16|fp16|fp32|fp8", o.actDtype);
    flags.Add("recompute", "full activation recomputation", o.recompute);
    flags.Add("order", "rank placement, innermost first (permutation of tp,cp,pp,dp)", o.order);
    flags.Add("gpusPerServer", "GPUs per server = scale-up domain = rails", o.gpusPerServer);
    flags.Add("foldTp", "fold TP collectives into compute time", o.foldTp);
    flags.Add("iterations", "iterations to emit", o.iterations);
    flags.Add("validate", "validate and summarize a DAG JSON file", o.validate);
    flags.Add("estimate", "validate/summary: estimate phases and windows by replay", o.estimate);
    flags.Add("scaleUpGBps", "estimate: scale-up GB/s per GPU and direction", o.scaleUpGBps);
    flags.Add("scaleOutGbps", "estimate: NIC Gb/s per GPU", o.scaleOutGbps);
    flags.Add("latencyUs", "estimate: latency per collective step, us", o.latencyUs);
    flags.Add("windows",
              "window analysis of phase logs, timelines (collectives.csv) or DAGs, "
              "comma-separated",
              o.windows);
    flags.Add("view", "windows: rail|rank", o.view);
    flags.Add("select", "windows: the rail (or rank) to look at; -1 = every rail", o.select);
    flags.Add("skipIterations",
              "windows: ignore windows of the first N iterations",
              o.skipIterations);
    flags.Add("thresholdMs", "windows: report the share of windows above this", o.thresholdMs);
    flags.Add("csv", "windows: also write every window to this CSV file", o.csv);
}

/// Runs the mode the flags choose.
int
Run(const Options& o, const ExampleFlags& flags)
{
    g_given = flags.GetGiven();
    int modes = int(!o.out.empty()) + int(!o.validate.empty()) + int(!o.windows.empty());
    if (modes != 1)
    {
        throw std::invalid_argument(
            "choose one mode: --out=FILE (generate), --validate=FILE or --windows=FILE "
            "(see --help)");
    }
    if (!o.validate.empty())
    {
        return Validate(o);
    }
    if (!o.windows.empty())
    {
        return Windows(o);
    }
    return Generate(o);
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    return RunExample(PROGRAM, argc, argv, o, AddFlags, Run);
}

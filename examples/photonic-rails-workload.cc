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

#include "ns3/strict-command-line.h"
#include "ns3/workload-error.h"
#include "ns3/workload-estimator.h"
#include "ns3/workload-generator-flags.h"
#include "ns3/workload-generator.h"
#include "ns3/workload-json.h"
#include "ns3/workload-phase-log.h"
#include "ns3/workload-summary.h"
#include "ns3/workload-timeline.h"
#include "ns3/workload-validator.h"
#include "ns3/workload-windows.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <type_traits>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-workload";

/// Every flag of the program, with its default (the generator's flags live in gen).
struct Options
{
    // generate
    WorkloadGeneratorFlags gen;
    uint32_t gpusPerServer{8};
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
    /// Whether --gpusPerServer was given (DAG files do not record the server size).
    bool gpusPerServerGiven{false};
};

void
Progress(const std::string& what, double fraction)
{
    std::fprintf(stderr, "[workload] %s: %3.0f%%\n", what.c_str(), fraction * 100.0);
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
    WorkloadGenerator generator(o.gen.ToConfig(o.gpusPerServer));
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
    summary.gpusPerServerAssumed = !o.gpusPerServerGiven;
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
    kind += o.gpusPerServerGiven ? ", --gpusPerServer=" + std::to_string(o.gpusPerServer)
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
AddFlags(StrictCommandLine& cmd, Options& o)
{
    o.gen.Add(cmd);
    cmd.Add("out", "generate: write the DAG JSON to this file", o.out);
    cmd.Add("summary", "generate: also print the --validate summary", o.summary);
    cmd.Add("gpusPerServer", "GPUs per server = scale-up domain = rails", o.gpusPerServer);
    cmd.Add("iterations", "iterations to emit", o.gen.iterations);
    cmd.Add("validate", "validate and summarize a DAG JSON file", o.validate);
    cmd.Add("estimate", "validate/summary: estimate phases and windows by replay", o.estimate);
    cmd.Add("scaleUpGBps", "estimate: scale-up GB/s per GPU and direction", o.scaleUpGBps);
    cmd.Add("scaleOutGbps", "estimate: NIC Gb/s per GPU", o.scaleOutGbps);
    cmd.Add("latencyUs", "estimate: latency per collective step, us", o.latencyUs);
    cmd.Add("windows",
            "window analysis of phase logs, timelines (collectives.csv) or DAGs, "
            "comma-separated",
            o.windows);
    cmd.Add("view", "windows: rail|rank", o.view);
    cmd.Add("select", "windows: the rail (or rank) to look at; -1 = every rail", o.select);
    cmd.Add("skipIterations",
            "windows: ignore windows of the first N iterations",
            o.skipIterations);
    cmd.Add("thresholdMs", "windows: report the share of windows above this", o.thresholdMs);
    cmd.Add("csv", "windows: also write every window to this CSV file", o.csv);
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    try
    {
        StrictCommandLine cmd(__FILE__,
                              "Generates, validates and analyses photonic-rails workload DAGs.\n"
                              "Modes: generate (--out=FILE), --validate=FILE, "
                              "--windows=FILE[,FILE...].");
        AddFlags(cmd, o);
        cmd.Parse(argc, argv);
        o.gpusPerServerGiven = cmd.IsGiven("gpusPerServer");
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
    catch (const std::exception& e)
    {
        std::cerr << PROGRAM << ": error: " << e.what() << "\n";
        return 1;
    }
}

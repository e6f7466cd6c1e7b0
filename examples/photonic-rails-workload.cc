/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-workload: generates an LLM training DAG (JSON, CONTRACT version 1),
 * validates and summarizes a DAG file, or runs the paper's window analysis (§3.1) on a
 * timeline (collectives.csv), a DAG (estimated replay) or the authors' measured phase logs.
 *
 *   photonic-rails-workload --model=llama3-8b --tp=4 --fsdp=2 --pp=2 --schedule=1f1b \
 *                           --gpusPerServer=4 --out=dag.json
 *   photonic-rails-workload --job=b16 --out=dag.json          (the paper's measured run)
 *   photonic-rails-workload --validate=dag.json --gpusPerServer=4
 *   photonic-rails-workload --job=b16 --out=trace --format=chakra    (Chakra ET for ASTRA-sim)
 *   photonic-rails-workload --chakra=trace --commGroups=trace.comm_group.json --out=dag.json
 *   photonic-rails-workload --validate=trace --commGroups=trace.comm_group.json  (a Chakra
 *                           prefix: the files trace.<rank>.et)
 *   photonic-rails-workload --windows=stage0-phases.txt,stage1-phases.txt
 *   photonic-rails-workload --windows=run/collectives.csv --gpusPerServer=4 --figure=run
 *
 * --figure=DIR writes the paper's Fig. 4 there: window-cdf.csv (the CDF of the windows, one
 * curve per input), window-classes.csv (the windows per class of the following phase) and
 * window-cdf.plt, rendered to window-cdf.png when gnuplot is installed (--plot=0: not).
 *
 * Errors are one line on stderr with a non-zero exit status; progress goes to stderr.
 */

#include "ns3/experiment-output.h"
#include "ns3/gnuplot.h"
#include "ns3/input-text.h"
#include "ns3/job-runner.h"
#include "ns3/strict-command-line.h"
#include "ns3/workload-error.h"
#include "ns3/workload-estimator.h"
#include "ns3/workload-format-registry.h"
#include "ns3/workload-generator-flags.h"
#include "ns3/workload-generator.h"
#include "ns3/workload-json.h"
#include "ns3/workload-phase-log.h"
#include "ns3/workload-summary.h"
#include "ns3/workload-timeline.h"
#include "ns3/workload-validator.h"
#include "ns3/workload-window-cdf.h"
#include "ns3/workload-windows.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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
    std::string format{"json"};
    bool gzip{false};
    /// The formats' input and companion flags by name (--dag, --chakra, --commGroups)
    std::map<std::string, std::string> files;
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
    std::string figure;
    bool plot{true};
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

/// Refuses an --iterations that would make the DAG too large to hold: each iteration
/// repeats the ops of the first (bad_alloc at 10^6 iterations of a small job).
void
CheckGeneratedSize(const Options& o)
{
    o.gen.ToConfig(o.gpusPerServer); // the flags' own bounds first (--iterations <= 10^6)
    if (o.gen.iterations <= 1)
    {
        return;
    }
    WorkloadGeneratorFlags first = o.gen;
    first.iterations = 1;
    uint64_t perIteration =
        WorkloadGenerator(first.ToConfig(o.gpusPerServer)).Generate().GetOpCount();
    if (perIteration * o.gen.iterations > WorkloadGenerator::MAX_OPS)
    {
        throw std::invalid_argument(
            "--iterations=" + std::to_string(o.gen.iterations) + " would make " +
            std::to_string(perIteration * o.gen.iterations) + " ops (" +
            std::to_string(perIteration) + " per iteration), more than " +
            std::to_string(WorkloadGenerator::MAX_OPS) +
            ": emit fewer (photonic-rails-sim --iterations replays a DAG without growing it)");
    }
}

/// A workload file read as the programs read it: its companion flags (--commGroups), the
/// server size, --gpu/--mfu; what reading did goes to stderr.
WorkloadDag
ReadWorkloadFile(const Options& o, const WorkloadFormatEntry& format, const std::string& path)
{
    WorkloadReadContext context;
    context.gpusPerServer = o.gpusPerServer;
    context.gpu = o.gen.gpu;
    context.mfu = o.gen.mfu;
    for (const WorkloadFormatFlag& companion : format.companions)
    {
        context.companions[companion.name] = o.files.at(companion.name);
    }
    auto start = std::chrono::steady_clock::now();
    WorkloadRead read = format.read(path, context);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const std::string& line : read.notes)
    {
        std::cerr << "[workload] " << line << "\n";
    }
    if (read.records > 0)
    {
        std::cerr << "[workload] read and validated " << read.records << " " << read.recordName
                  << " in " << wall << " s (" << read.records / std::max(wall, 1e-9) / 1e6 << " M "
                  << read.recordName << "/s), peak RSS " << JobRunner::PeakRssMiB() << " MiB\n";
    }
    return std::move(read.dag);
}

/// \return the format of the file --out converts, or nullptr when --out generates
const WorkloadFormatEntry*
SourceFormat(const Options& o)
{
    for (const WorkloadFormatEntry& format : WorkloadFormatRegistry::All())
    {
        if (!o.files.at(format.input.name).empty())
        {
            return &format;
        }
    }
    return nullptr;
}

/// The DAG --out writes: a file's (--dag, --chakra), or generated from the generator's flags.
WorkloadDag
SourceDag(const Options& o, uint32_t& microBatches)
{
    if (const WorkloadFormatEntry* format = SourceFormat(o))
    {
        return ReadWorkloadFile(o, *format, o.files.at(format->input.name));
    }
    CheckGeneratedSize(o);
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
    microBatches = generator.GetMicroBatches();
    // Never write a file that --validate (or a simulation) would refuse.
    return generator.GenerateValid();
}

int
Write(const Options& o)
{
    uint32_t microBatches = 0;
    WorkloadDag dag = SourceDag(o, microBatches);
    std::string what =
        std::to_string(dag.GetRankCount()) + " ranks, " + std::to_string(dag.GetOpCount()) +
        " ops" +
        (microBatches > 0 ? ", " + std::to_string(microBatches) + " micro-batches" : std::string());
    WorkloadWriteOptions options;
    options.gzip = o.gzip;
    options.summary = what;
    for (const std::string& line :
         WorkloadFormatRegistry::ForOutput(o.format).write(dag, o.out, options))
    {
        std::cerr << "[workload] " << line << "\n";
    }
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
        dag = ReadWorkloadFile(o, WorkloadFormatRegistry::Recognize(o.validate), o.validate);
    }
    catch (const WorkloadFormatError& e)
    {
        // One error is the error line; several are listed first (a validator shows them
        // all), and the last line says so, as every error of the programs does.
        const auto& errors = e.GetErrors();
        if (errors.size() == 1 && e.GetTotal() == 1)
        {
            std::cerr << PROGRAM << ": error: " << errors.front().ToString() << "\n";
            return 1;
        }
        for (const auto& error : errors)
        {
            std::cerr << error.ToString() << "\n";
        }
        std::cerr << PROGRAM << ": error: " << o.validate << " is invalid (" << e.GetTotal()
                  << " errors";
        if (errors.empty())
        {
            std::cerr << ": " << e.what();
        }
        else
        {
            std::cerr << (errors.size() < e.GetTotal()
                              ? ", the first " + std::to_string(errors.size()) + " listed above"
                              : ", listed above");
        }
        std::cerr << ")\n";
        return 1;
    }
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
    // Built before "valid" is said: its replay is what finds a job that cannot finish.
    WorkloadSummary summary;
    try
    {
        summary = WorkloadSummary::Build(dag, EstimatorConfig(o), o.estimate, progress);
    }
    catch (const std::runtime_error& e)
    {
        throw std::runtime_error(o.validate + ": the workload cannot finish: " + e.what());
    }
    std::cout << o.validate << ": valid\n";
    // The DAG format does not record the server size: say so when the default is used.
    summary.gpusPerServerAssumed = !o.gpusPerServerGiven;
    summary.Print(std::cout);
    return 0;
}

/// \return "0, 1, 2" (at most 10 numbers, then "...")
std::string
ListOf(const std::set<uint64_t>& numbers)
{
    std::string text;
    std::size_t shown = 0;
    for (uint64_t n : numbers)
    {
        if (shown++ == 10)
        {
            return text + ", ...";
        }
        text += (text.empty() ? "" : ", ") + std::to_string(n);
    }
    return text.empty() ? "none" : text;
}

/// Windows of one input: a phase log, a DAG (estimated replay) or a timeline CSV.
std::vector<WorkloadWindow> TimelineWindows(const Options& o,
                                            const std::string& path,
                                            const WorkloadTimeline& timeline,
                                            std::string& kind,
                                            std::string& view);

/// The estimated replay (twice) of a DAG, as a timeline.
WorkloadTimeline
EstimatedTimeline(const Options& o, const WorkloadDag& dag)
{
    WorkloadEstimatorConfig c = EstimatorConfig(o);
    c.repetitions = 2;
    return WorkloadEstimator(c).Run(dag).timeline;
}

std::vector<WorkloadWindow>
WindowsOf(const Options& o, const std::string& path, std::string& kind, std::string& view)
{
    WorkloadTimeline timeline;
    const WorkloadFormatEntry& format = WorkloadFormatRegistry::Recognize(path);
    if (format.probe) // a format that is not one text file (a Chakra trace's prefix)
    {
        timeline = EstimatedTimeline(o, ReadWorkloadFile(o, format, path));
        kind = format.what + ", estimated replay x2";
        return TimelineWindows(o, path, timeline, kind, view);
    }
    // A phase log, a DAG or a timeline: which one is known once it is read.
    std::string text = InputText::ReadFile(path, "file");
    // A UTF-8 byte order mark (editors on Windows write one) is not part of the text: with
    // it a DAG's '{' was not seen and the file was read as a CSV timeline.
    const std::string bom = "\xEF\xBB\xBF";
    if (text.compare(0, bom.size(), bom) == 0)
    {
        text.erase(0, bom.size());
    }
    if (WorkloadPhaseLog::LooksLikePhaseLog(text))
    {
        WorkloadPhaseLog log = WorkloadPhaseLog::Parse(text, path);
        kind = "phase log, " + std::to_string(log.GetEntries().size()) + " phases, " +
               std::to_string(log.GetIterationCount()) + " iterations";
        view = "phase log";
        return WorkloadWindows::Between(log.ToPhases(), -1);
    }
    std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{')
    {
        WorkloadDag dag = WorkloadJson::Parse(text, path);
        WorkloadValidator::Check(dag, path);
        timeline = EstimatedTimeline(o, dag);
        kind = "DAG, estimated replay x2";
    }
    else
    {
        timeline = WorkloadTimeline::ParseCsv(text, path);
        kind = "timeline, " + std::to_string(timeline.GetRecords().size()) + " records";
    }
    return TimelineWindows(o, path, timeline, kind, view);
}

/// The windows of a timeline in the --view the flags ask for.
std::vector<WorkloadWindow>
TimelineWindows(const Options& o,
                const std::string& path,
                const WorkloadTimeline& timeline,
                std::string& kind,
                std::string& view)
{
    WorkloadWindows analysis(o.gpusPerServer);
    kind += o.gpusPerServerGiven ? ", --gpusPerServer=" + std::to_string(o.gpusPerServer)
                                 : ", assuming " + std::to_string(o.gpusPerServer) +
                                       " GPUs per server (--gpusPerServer)";
    // A rank or rail the input does not hold has no windows: refused, not reported as 0.
    bool rankView = o.view == "rank";
    std::set<uint64_t> present;
    for (const auto& record : timeline.GetRecords())
    {
        present.insert(rankView ? record.rank : record.rank % o.gpusPerServer);
    }
    if (o.select >= 0 && present.count(uint64_t(o.select)) == 0)
    {
        throw std::invalid_argument(
            "--select=" + std::to_string(o.select) + ": " + path + " has no " +
            (rankView ? "rank " : "rail ") + std::to_string(o.select) + " (its " +
            (rankView ? "ranks: "
                      : "rails with --gpusPerServer=" + std::to_string(o.gpusPerServer) + ": ") +
            ListOf(present) + ")");
    }
    if (rankView)
    {
        view = "rank " + std::to_string(o.select);
        kind += ", " + view + " view";
        return analysis.RankWindows(timeline, uint32_t(o.select));
    }
    view = o.select >= 0 ? "rail " + std::to_string(o.select) : "all rails";
    kind += ", " + view;
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

/// The --csv file with its header, or a closed stream without --csv.
std::ofstream
OpenWindowsCsv(const Options& o)
{
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
    return csv;
}

/// Text for a double-quoted gnuplot string.
std::string
GnuplotText(const std::string& text)
{
    std::string quoted;
    for (char c : text)
    {
        quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    }
    return quoted;
}

/// A number in at most 3 significant digits (legends and labels).
std::string
Short(double value)
{
    std::ostringstream text;
    text << std::setprecision(3) << value;
    return text.str();
}

/// The legend of a CDF curve: its numbers as the program prints them.
std::string
CurveTitle(const WorkloadWindowCurve& c, double thresholdMs)
{
    std::ostringstream title;
    title << c.input << " (" << c.view << "): " << c.stats.count << " windows, median "
          << Short(c.stats.medianS * 1e3) << " ms, " << std::fixed << std::setprecision(1)
          << c.stats.shareAbove * 100 << "% > " << Short(thresholdMs) << " ms";
    if (c.zeros > 0)
    {
        title << ", " << c.zeros << " at 0 ms";
    }
    return GnuplotText(title.str());
}

/// Axis settings shared by both panels: log x over range, the threshold as a gray line.
std::string
WindowAxis(const std::pair<double, double>& range, double thresholdMs)
{
    std::ostringstream extra;
    extra << std::setprecision(12) << "set logscale x 10\nset xrange [" << range.first << ":"
          << range.second << "]\nset format x \"%g\"\nset grid";
    if (thresholdMs > 0)
    {
        extra << "\nset arrow from " << thresholdMs << ", graph 0 to " << thresholdMs
              << ", graph 1 nohead lw 2 lc rgb \"gray70\"\nset label \"" << Short(thresholdMs)
              << " ms\" at " << thresholdMs << ", graph 0.95 offset 0.5,0 left";
    }
    return extra.str();
}

/// Panel (a): the CDF of the windows, one step curve per input with windows.
Gnuplot
CdfPanel(const WorkloadWindowCdf& cdf, const std::pair<double, double>& range, double thresholdMs)
{
    Gnuplot panel;
    panel.SetTitle("(a) CDF of the windows between parallelism phases");
    panel.SetLegend("window (ms)", "fraction of windows");
    panel.SetExtra(WindowAxis(range, thresholdMs) +
                   "\nset yrange [0:1.05]\nset key below left Left reverse");
    for (const auto& c : cdf.GetCurves())
    {
        if (c.stats.count == 0)
        {
            continue;
        }
        Gnuplot2dDataset curve(CurveTitle(c, thresholdMs));
        curve.SetStyle(Gnuplot2dDataset::STEPS);
        curve.SetExtra("lw 2");
        for (const auto& [ms, fraction] : WorkloadWindowCdf::LogStepPoints(c, range))
        {
            curve.Add(ms, fraction);
        }
        panel.AddDataset(curve);
    }
    return panel;
}

/// Panel (b): mean and min-to-max window per class of the following phase of one curve.
Gnuplot
ClassPanel(const WorkloadWindowCurve& c, const std::pair<double, double>& range, double thresholdMs)
{
    Gnuplot panel;
    panel.SetTitle(GnuplotText("(b) windows by following phase: " + c.input));
    panel.SetLegend("window (ms)", "");
    Gnuplot2dDataset bars("min to max");
    bars.SetStyle(Gnuplot2dDataset::LINES);
    bars.SetExtra("lw 3 lc rgb \"gray60\"");
    Gnuplot2dDataset means("mean");
    means.SetStyle(Gnuplot2dDataset::POINTS);
    means.SetExtra("pt 7 ps 1.5 lc rgb \"black\"");
    std::ostringstream tics;
    bool anyMean = false;
    std::size_t n = c.classes.size();
    for (std::size_t i = 0; i < n; ++i)
    {
        const WorkloadWindowClass& k = c.classes[i];
        double y = double(n - 1 - i); // the longest mean on top
        tics << (i == 0 ? "" : ", ") << "\"" << GnuplotText(k.label) << " (" << k.count << ")\" "
             << y;
        // A 0 ms minimum lies left of a log axis: its bar runs to the edge.
        bars.Add(std::max(k.minS * 1e3, range.first), y);
        bars.Add(std::max(k.maxS * 1e3, range.first), y);
        bars.AddEmptyLine();
        if (k.meanS > 0)
        {
            means.Add(k.meanS * 1e3, y);
            anyMean = true;
        }
    }
    panel.SetExtra(WindowAxis(range, thresholdMs) + "\nset yrange [-0.7:" + Short(n - 0.3) +
                   "]\nset ytics (" + tics.str() + ")\nset key below");
    panel.AddDataset(bars);
    if (anyMean) // an empty dataset would leave a dangling comma in the plot command
    {
        panel.AddDataset(means);
    }
    return panel;
}

/// Writes window-cdf.csv and window-classes.csv.
void
WriteWindowTables(const ExperimentOutput& out, const WorkloadWindowCdf& cdf)
{
    std::ofstream points = out.Open("window-cdf.csv");
    cdf.WriteCsv(points);
    std::ofstream classes = out.Open("window-classes.csv");
    cdf.WriteClassesCsv(classes);
    std::cerr << "[workload] wrote " << (out.GetDir() / "window-cdf.csv").string() << " and "
              << (out.GetDir() / "window-classes.csv").string() << "\n";
}

/// Places the next panel of a multiplot: height pixels of total, top at topPixel.
void
PlacePanel(std::ostream& plt, uint32_t topPixel, uint32_t height, uint32_t total)
{
    plt << "set size 1," << double(height) / total << "\nset origin 0,"
        << double(total - topPixel - height) / total << "\n";
}

/// Writes the tables and the figure window-cdf.plt/.png: panel (a) above panel (b).
void
WriteWindowFigure(const Options& o, const WorkloadWindowCdf& cdf)
{
    ExperimentOutput out(o.figure, "[workload]");
    WriteWindowTables(out, cdf);
    std::pair<double, double> range;
    if (!cdf.LogRangeMs(o.thresholdMs, range))
    {
        throw std::runtime_error("--figure: no window is longer than 0 ms, nothing to draw on a "
                                 "log axis (the CSV files are written)");
    }
    const WorkloadWindowCurve& classCurve = cdf.GetCurves().back(); // all inputs if several
    uint32_t cdfHeight = 460 + 18 * uint32_t(cdf.GetCurves().size());
    uint32_t classHeight = std::max<uint32_t>(300, 160 + 30 * uint32_t(classCurve.classes.size()));
    uint32_t total = cdfHeight + classHeight;
    out.WriteFigure(
        "window-cdf",
        1200,
        total,
        [&](std::ostream& plt) {
            plt << "set termoption noenhanced\nset multiplot\n" << std::setprecision(10);
            PlacePanel(plt, 0, cdfHeight, total);
            CdfPanel(cdf, range, o.thresholdMs).GenerateOutput(plt);
            plt << "unset arrow\nunset label\nunset ylabel\n";
            PlacePanel(plt, cdfHeight, classHeight, total);
            ClassPanel(classCurve, range, o.thresholdMs).GenerateOutput(plt);
            plt << "unset multiplot\n";
        },
        o.plot);
}

/// --thresholdMs: registered with the flag and checked again before any input is read.
const FlagRange THRESHOLD_MS(0, 1e9, "a window length in ms");

/// Refuses --view, --select and --thresholdMs values that mean nothing, before any input.
void
CheckWindowFlags(const Options& o)
{
    if (o.view != "rail" && o.view != "rank")
    {
        throw std::invalid_argument("--view must be rail or rank, got " +
                                    StrictCommandLine::Quote(o.view));
    }
    if (o.view == "rank" && o.select < 0)
    {
        throw std::invalid_argument(
            "--view=rank needs --select=RANK (a rank of the input)" +
            (o.select == -1 ? std::string() : ", got " + std::to_string(o.select)));
    }
    if (o.select < -1)
    {
        throw std::invalid_argument("--select=" + std::to_string(o.select) +
                                    ": expected a rail of the input, or -1 for every rail");
    }
    // A window is never shorter than 0 ms: a negative threshold would count them all.
    StrictCommandLine::CheckRange("thresholdMs", o.thresholdMs, THRESHOLD_MS);
}

int
Windows(const Options& o)
{
    CheckWindowFlags(o);
    std::vector<std::string> paths = StrictCommandLine::SplitList("windows", o.windows);
    std::ofstream csv = OpenWindowsCsv(o);
    std::vector<WorkloadWindow> all;
    std::set<std::string> views;
    WorkloadWindowCdf cdf;
    for (const auto& p : paths)
    {
        std::string kind;
        std::string view;
        std::vector<WorkloadWindow> windows;
        for (const auto& w : WindowsOf(o, p, kind, view))
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
        cdf.Add(p, view, windows, o.thresholdMs * 1e-3);
        views.insert(view);
    }
    if (paths.size() > 1)
    {
        std::cout << "all inputs\n";
        PrintWindows(o, all);
        cdf.Add("all inputs",
                views.size() == 1 ? *views.begin() : "mixed",
                all,
                o.thresholdMs * 1e-3);
    }
    if (!o.figure.empty())
    {
        WriteWindowFigure(o, cdf);
    }
    return 0;
}

/// One workload for --out: a file of one format (with the generator's flags it reads at
/// most, Chakra's --gpu/--mfu) or the generator's.
void
CheckWorkloadSources(const StrictCommandLine& cmd, const Options& o)
{
    std::vector<std::string> generatorFlags = o.gen.Given(cmd);
    int files = 0;
    for (const auto& format : WorkloadFormatRegistry::All())
    {
        files += int(!o.files.at(format.input.name).empty());
    }
    if (files > 1)
    {
        throw std::invalid_argument("give one workload to --out: " +
                                    WorkloadFormatRegistry::InputFlags(" or "));
    }
    const WorkloadFormatEntry* format = SourceFormat(o);
    for (const std::string& flag : generatorFlags)
    {
        std::string refusal =
            format ? format->RefuseGeneratorFlag(flag, "the generator's flags") : "";
        if (!refusal.empty())
        {
            throw std::invalid_argument(refusal);
        }
    }
}

/// \return "a, b and c"
std::string
Enumerate(const std::vector<std::string>& items)
{
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    }
    return text;
}

/// \return the flags that say what --out writes: "--dag, --chakra, --format and --gzip"
std::string
OutFlags()
{
    std::vector<std::string> flags;
    for (const auto& format : WorkloadFormatRegistry::All())
    {
        flags.push_back("--" + format.input.name);
    }
    flags.push_back("--format");
    flags.push_back("--gzip");
    return Enumerate(flags);
}

/// \return why --gzip needs another --format: "compresses Chakra traces: it needs
///         --format=chakra"
std::string
GzipNeeds()
{
    std::string what;
    std::string formats;
    for (const auto& format : WorkloadFormatRegistry::All())
    {
        if (!format.gzipHelp.empty())
        {
            what += (what.empty() ? "" : " or ") + format.what + "s";
            formats += (formats.empty() ? "" : " or ") + std::string("--format=") + format.name;
        }
    }
    return "compresses " + what + ": it needs " + formats;
}

void
AddFlags(StrictCommandLine& cmd, Options& o)
{
    o.gen.Add(cmd);
    // --out, --format and --gzip, and each format's input and companion flags, from the
    // formats' registry (a new format shows up here by itself).
    std::string outHelp = "write the DAG (generated, or read with " +
                          WorkloadFormatRegistry::InputFlags(" or ") + ") to this file";
    std::vector<std::string> formatHelp;
    std::string gzipHelp;
    for (const WorkloadFormatEntry& format : WorkloadFormatRegistry::All())
    {
        if (!format.outHelp.empty())
        {
            outHelp += ", or with --format=" + format.name + " to " + format.outHelp;
        }
        if (format.write)
        {
            formatHelp.push_back(format.name + " (" + format.formatHelp + ")");
        }
        if (!format.gzipHelp.empty())
        {
            gzipHelp += (gzipHelp.empty() ? "" : "; ") + std::string("--format=") + format.name +
                        ": " + format.gzipHelp;
        }
    }
    cmd.Add("out", outHelp, o.out);
    std::string formats;
    for (const std::string& help : formatHelp)
    {
        formats += (formats.empty() ? "" : " or ") + help;
    }
    cmd.Add("format", "--out: " + formats, o.format);
    cmd.Add("gzip", gzipHelp, o.gzip);
    for (const WorkloadFormatEntry& format : WorkloadFormatRegistry::All())
    {
        cmd.Add(format.input.name, format.input.convertHelp, o.files[format.input.name]);
        for (const WorkloadFormatFlag& companion : format.companions)
        {
            cmd.Add(companion.name, companion.convertHelp, o.files[companion.name]);
        }
    }
    cmd.Add("summary", "generate: also print the --validate summary", o.summary);
    cmd.Add("gpusPerServer", "GPUs per server = scale-up domain = rails", o.gpusPerServer);
    cmd.Add("iterations",
            "iterations to emit, 2 x 10^7 ops in all at most",
            o.gen.iterations,
            WorkloadGeneratorFlags::Range("iterations"));
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
    cmd.Add("select",
            "windows: the rail to look at (-1: every rail), or with --view=rank the rank",
            o.select);
    cmd.Add("skipIterations",
            "windows: ignore windows of the first N iterations",
            o.skipIterations);
    cmd.Add("thresholdMs",
            "windows: report the share of windows above this, ms",
            o.thresholdMs,
            THRESHOLD_MS);
    cmd.Add("csv", "windows: also write every window to this CSV file", o.csv);
    cmd.Add("figure",
            "windows: write the paper's Fig. 4 (window-cdf.csv, window-classes.csv, "
            "window-cdf.plt/.png) to this folder",
            o.figure);
    cmd.Add("plot", "windows --figure: render the PNG with gnuplot when it is installed", o.plot);
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    return RunProgram(
        argc,
        argv,
        PROGRAM,
        __FILE__,
        "Generates, validates and analyses photonic-rails workload DAGs.\n"
        "Modes: generate (--out=FILE), --validate=FILE, "
        "--windows=FILE[,FILE...] (--figure=DIR: the paper's Fig. 4).",
        [&o](StrictCommandLine& cmd) { AddFlags(cmd, o); },
        [&o](const StrictCommandLine& cmd) {
            o.gpusPerServerGiven = cmd.IsGiven("gpusPerServer");
            // --job sets the generator's defaults and the server size; explicit flags win.
            uint32_t jobGpusPerServer = o.gen.ApplyJob(cmd);
            if (jobGpusPerServer > 0 && !o.gpusPerServerGiven)
            {
                o.gpusPerServer = jobGpusPerServer;
            }
            int modes = int(!o.out.empty()) + int(!o.validate.empty()) + int(!o.windows.empty());
            if (modes != 1)
            {
                throw std::invalid_argument(
                    "choose one mode: --out=FILE (generate), --validate=FILE or --windows=FILE "
                    "(see --help)");
            }
            const WorkloadFormatEntry& output = WorkloadFormatRegistry::ForOutput(o.format);
            if ((SourceFormat(o) || cmd.IsGiven("format") || o.gzip) && o.out.empty())
            {
                throw std::invalid_argument(OutFlags() + " say what --out writes: give --out");
            }
            CheckWorkloadSources(cmd, o);
            if (o.gzip && output.gzipHelp.empty())
            {
                throw std::invalid_argument("--gzip " + GzipNeeds());
            }
            if (!o.figure.empty() && o.windows.empty())
            {
                throw std::invalid_argument("--figure needs --windows=FILE");
            }
            if (!o.validate.empty())
            {
                return Validate(o);
            }
            if (!o.windows.empty())
            {
                return Windows(o);
            }
            return Write(o);
        });
}

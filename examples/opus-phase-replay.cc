/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * opus-phase-replay: the paper's Fig. 8 from the authors' measured phase logs. Replays the
 * two pipeline stages of their Llama3-8B run (TorchTitan on Perlmutter, TP 4, FSDP 2, PP 2)
 * coupled by their pipeline send/recv, with the compute windows as measured, and predicts
 * the training step time against the OCS reconfiguration delay for Opus on demand and Opus
 * with provisioning (model: OpusPhaseReplay). Every delay is on the critical path, so the
 * slowdowns are upper bounds.
 *
 *   opus-phase-replay
 *   opus-phase-replay --delays=0,15,25,100 --out=replay-out
 *   opus-phase-replay --logs=stage0.txt,stage1.txt --plot=0
 *
 * Writes DIR/phase-replay.csv, DIR/phase-replay.plt and, if gnuplot is installed,
 * DIR/phase-replay.png. Errors are one line on stderr with exit status 1.
 */

#include "ns3/opus-phase-replay.h"

#include "ns3/delay-ms-list.h"
#include "ns3/experiment-output.h"
#include "ns3/gnuplot.h"
#include "ns3/strict-command-line.h"
#include "ns3/text-table.h"
#include "ns3/workload-windows.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const PROGRAM = "opus-phase-replay";

/// The authors' logs, beside the repository (../shared/data/... of the source tree).
const char* const AUTHORS_LOGS = "shared/data/opus-llama3-8b-perlmutter";

/// Every flag of the program, with its default.
struct Options
{
    std::string logs;                                                //!< "" = the authors' logs
    std::string delays{"0,1,5,10,25,50,100,250,500,1000,2000,3000"}; //!< ms
    std::string out{"opus-phase-replay-out"};                        //!< Output folder
    bool plot{true};                                                 //!< Render the PNG
};

/// One row of the table: a delay and the mean step time under each policy.
struct Row
{
    double delayMs{0};     //!< Reconfiguration delay
    double onDemandMs{0};  //!< Mean step time, on demand
    double provisionMs{0}; //!< Mean step time, with provisioning
};

/// The delays of --delays (ms), ascending: the delay sweep's rules (DelayMsList), so 1e-400
/// (below 1 ns) and repeats are refused rather than run as 0 or merged.
std::vector<double>
ParseDelays(const std::string& text)
{
    std::vector<double> delays = DelayMsList::Parse(text);
    std::sort(delays.begin(), delays.end());
    return delays;
}

bool
BothExist(const std::filesystem::path& folder)
{
    return std::filesystem::exists(folder / "stage0-phases.txt") &&
           std::filesystem::exists(folder / "stage1-phases.txt");
}

/// The two log files: --logs, or the authors' logs in shared/data/ of the source tree's parent
/// (this file is <tree>/examples/opus-phase-replay.cc), of the current folder's parent, or of
/// a folder above the program (__FILE__ is relative when a compiler cache rewrites it).
std::vector<std::string>
LogFiles(const std::string& flag)
{
    if (!flag.empty())
    {
        std::vector<std::string> files = StrictCommandLine::SplitList("logs", flag);
        if (files.size() != 2)
        {
            throw std::invalid_argument("--logs needs two files (stage 0, stage 1), got " +
                                        std::to_string(files.size()));
        }
        return files;
    }
    std::filesystem::path tree = std::filesystem::path(__FILE__).parent_path().parent_path();
    std::filesystem::path beside = (tree / ".." / AUTHORS_LOGS).lexically_normal();
    std::vector<std::filesystem::path> folders = {beside,
                                                  std::filesystem::path("..") / AUTHORS_LOGS};
    std::error_code error;
    std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
    for (auto up = program.parent_path(); !error && up.has_relative_path(); up = up.parent_path())
    {
        folders.push_back(up / AUTHORS_LOGS);
    }
    for (const auto& folder : folders)
    {
        if (BothExist(folder))
        {
            return {(folder / "stage0-phases.txt").string(),
                    (folder / "stage1-phases.txt").string()};
        }
    }
    throw std::invalid_argument("the authors' logs are not in " + beside.string() +
                                " (nor beside the current folder or above the program): pass "
                                "--logs=stage0.txt,stage1.txt");
}

/// A delay as typed (1000, 2.5), never in scientific notation.
std::string
Number(double value)
{
    std::ostringstream text;
    text << std::setprecision(12) << value;
    return text.str();
}

std::string
Percent(double value, double baseline)
{
    return baseline > 0 ? TextTable::Percent(value, baseline) : "+0.00%";
}

/// "steps 2-10" (1-based, as the user counts them).
std::string
AveragedSteps(uint32_t steps)
{
    return steps == 2 ? "step 2" : "steps 2-" + std::to_string(steps);
}

/// What was replayed and how the two logs were matched.
void
PrintLogs(const OpusPhaseReplay& replay)
{
    std::cout << "Opus phase replay: the measured phase logs of two pipeline stages, coupled "
                 "by their pipeline send/recv\n";
    uint32_t comms = 0;
    for (uint32_t s = 0; s < 2; ++s)
    {
        uint32_t pp = 0;
        uint32_t spanning = 0;
        for (const OpusReplayPhase& p : replay.GetPhases(s))
        {
            pp += p.pipeline ? 1 : 0;
            spanning += p.pipeline && p.startPartner != p.endPartner ? 1 : 0;
            comms += s == 0 && p.pipeline ? p.lastComm - p.firstComm + 1 : 0;
        }
        std::cout << "  stage " << s << ": " << replay.GetName(s) << ": "
                  << replay.GetPhases(s).size() << " phases (" << pp << " PP), "
                  << replay.GetStepCount() << " training steps; " << spanning
                  << " of its PP phases carry the send/recv of several stage-" << 1 - s
                  << " PP phases\n";
    }
    std::cout << "  " << comms << " pipeline send/recv, each matched to the same running index "
              << "on the other stage\n";
}

/// Reconfigurations per step and the windows (G) before them, which provisioning hides the
/// delay in; returns those windows of the averaged steps (both stages).
std::vector<WorkloadWindow>
PrintReconfigurations(const OpusPhaseReplay& replay)
{
    std::vector<WorkloadWindow> all;
    uint32_t steps = replay.GetStepCount();
    std::cout << "\nReconfigurations (parallelism changes, PP <-> DP) per step:\n";
    for (uint32_t s = 0; s < 2; ++s)
    {
        std::cout << "  stage " << s << ":";
        for (uint32_t count : replay.ReconfigurationsPerStep(s))
        {
            std::cout << " " << count;
        }
        std::cout << "\n";
    }
    std::cout << "Windows before them in " << AveragedSteps(steps)
              << " (compute gap after the previous phase's coupled end; provisioning hides a "
                 "delay up to its window):\n";
    std::cout << std::fixed << std::setprecision(1);
    for (uint32_t s = 0; s < 2; ++s)
    {
        std::vector<WorkloadWindow> windows = replay.ReconfigurationWindows(s, 1);
        WorkloadWindowStats stats = WorkloadWindows::Summarize(windows, 0.0);
        std::cout << "  stage " << s << ": " << stats.count << " windows, min " << stats.minS * 1e3
                  << " ms, median " << stats.medianS * 1e3 << " ms, mean " << stats.meanS * 1e3
                  << " ms, max " << stats.maxS * 1e3 << " ms\n";
        for (const WorkloadWindowClass& c : WorkloadWindows::Classify(windows))
        {
            std::cout << "    " << std::setw(9) << c.meanS * 1e3 << " ms mean (" << std::setw(7)
                      << c.minS * 1e3 << " - " << std::setw(7) << c.maxS * 1e3 << ")  x"
                      << std::setw(3) << c.count << "  " << c.label << "\n";
        }
        all.insert(all.end(), windows.begin(), windows.end());
    }
    return all;
}

/// Per step, measured against replayed at delay 0: how faithful the replay is.
void
PrintFidelity(const OpusPhaseReplay& replay, const OpusReplayRun& baseline)
{
    std::vector<double> measured = replay.MeasuredStepTimesMs();
    std::cout << "\nStep times, measured vs replayed at delay 0 (ms):\n";
    TextTable table;
    table.AddColumn("step", TextTable::RIGHT, 6);
    table.AddColumn("measured", TextTable::RIGHT, 11);
    table.AddColumn("replayed", TextTable::RIGHT, 11);
    table.AddColumn("diff", TextTable::RIGHT, 11);
    for (std::size_t k = 0; k < measured.size(); ++k)
    {
        std::ostringstream diff;
        diff << std::showpos << std::fixed << std::setprecision(1)
             << baseline.stepTimeMs[k] - measured[k];
        table.AddRow({std::to_string(k + 1),
                      TextTable::Fixed(measured[k], 1),
                      TextTable::Fixed(baseline.stepTimeMs[k], 1),
                      diff.str()});
    }
    table.Print(std::cout);
    std::cout << std::fixed;
    double m = OpusPhaseReplay::MeanAfterFirst(measured);
    double r = baseline.MeanStepMs();
    std::cout << "Mean step time over " << AveragedSteps(replay.GetStepCount())
              << " (step 1 is Opus's profiled step): measured " << std::setprecision(3) << m / 1e3
              << " s, replayed at delay 0 " << r / 1e3 << " s (" << Percent(r, m) << ")\n";
}

/// Counts the windows at least as long as the delay.
std::size_t
Hidden(const std::vector<WorkloadWindow>& windows, double delayMs)
{
    return std::count_if(windows.begin(), windows.end(), [delayMs](const WorkloadWindow& w) {
        return w.DurationS() * 1e3 >= delayMs;
    });
}

void
PrintTable(const std::vector<Row>& rows,
           double baselineMs,
           const std::vector<WorkloadWindow>& windows,
           uint32_t steps)
{
    std::cout << "\nMean step time over " << AveragedSteps(steps)
              << " against the OCS reconfiguration delay (delay 0 = electrical, fully "
                 "connected rails).\nUPPER BOUND: every delay is on its stage's critical "
                 "path; the authors' testbed overlapped part of each delay with compute.\n\n";
    // Every column widens to its widest cell: long delays never glue two numbers.
    TextTable table;
    table.AddColumn("delay (ms)", TextTable::RIGHT, 12);
    table.AddColumn("on-demand (s)", TextTable::RIGHT, 15);
    table.AddColumn("slowdown", TextTable::RIGHT, 10);
    table.AddColumn("provisioning (s)", TextTable::RIGHT, 18);
    table.AddColumn("slowdown", TextTable::RIGHT, 10);
    table.AddColumn("windows >= delay", TextTable::RIGHT, 18);
    for (const Row& r : rows)
    {
        table.AddRow(
            {Number(r.delayMs),
             TextTable::Fixed(r.onDemandMs / 1e3, 3),
             Percent(r.onDemandMs, baselineMs),
             TextTable::Fixed(r.provisionMs / 1e3, 3),
             Percent(r.provisionMs, baselineMs),
             std::to_string(Hidden(windows, r.delayMs)) + " of " + std::to_string(windows.size())});
    }
    table.Print(std::cout);
}

void
WriteCsv(const std::vector<Row>& rows,
         double baselineMs,
         const std::vector<WorkloadWindow>& windows,
         std::ostream& csv)
{
    csv << "delay_ms,on_demand_step_s,on_demand_slowdown_pct,provisioning_step_s,"
           "provisioning_slowdown_pct,windows_at_least_delay,windows\n"
        << std::setprecision(10);
    for (const Row& r : rows)
    {
        csv << r.delayMs << ',' << r.onDemandMs / 1e3 << ','
            << 100.0 * (r.onDemandMs / baselineMs - 1.0) << ',' << r.provisionMs / 1e3 << ','
            << 100.0 * (r.provisionMs / baselineMs - 1.0) << ',' << Hidden(windows, r.delayMs)
            << ',' << windows.size() << '\n';
    }
}

/// The figure: mean step time against the delay, one line per policy, and the baseline.
void
Plot(const std::vector<Row>& rows,
     double baselineMs,
     uint32_t steps,
     const ExperimentOutput& out,
     bool render)
{
    Gnuplot plot;
    plot.SetTitle("Opus replay of the measured phase logs (upper bound: every delay on the "
                  "critical path)");
    plot.SetLegend("OCS reconfiguration delay (ms)",
                   "mean step time, " + AveragedSteps(steps) + " (s)");
    plot.SetExtra("set grid\nset key top left\nset yrange [0:*]");
    Gnuplot2dDataset onDemand("Opus on demand");
    Gnuplot2dDataset provision("Opus with provisioning");
    Gnuplot2dDataset electrical("electrical rails (delay 0)");
    for (auto* d : {&onDemand, &provision, &electrical})
    {
        d->SetStyle(Gnuplot2dDataset::LINES_POINTS);
    }
    onDemand.SetExtra("lw 2 pt 7");
    provision.SetExtra("lw 2 pt 5");
    electrical.SetExtra("lw 1 dt 2 pt 0");
    for (const Row& r : rows)
    {
        onDemand.Add(r.delayMs, r.onDemandMs / 1e3);
        provision.Add(r.delayMs, r.provisionMs / 1e3);
        electrical.Add(r.delayMs, baselineMs / 1e3);
    }
    plot.AddDataset(onDemand);
    plot.AddDataset(provision);
    plot.AddDataset(electrical);
    out.WriteFigure(
        "phase-replay",
        900,
        560,
        [&plot](std::ostream& plt) { plot.GenerateOutput(plt); },
        render);
}

void
AddFlags(StrictCommandLine& flags, Options& o)
{
    flags.Add("logs",
              "stage 0 and stage 1 phase logs, comma-separated (default: the authors' logs in "
              "../shared/data/opus-llama3-8b-perlmutter beside the source tree)",
              o.logs);
    flags.Add("delays", "OCS reconfiguration delays in ms, comma-separated", o.delays);
    flags.Add("out", "folder for the CSV file and the plot", o.out);
    flags.Add("plot", "render the PNG with gnuplot when it is installed", o.plot);
}

/// Runs the program with the flags set.
int
Run(const Options& o)
{
    std::vector<double> delays = ParseDelays(o.delays);
    std::vector<std::string> files = LogFiles(o.logs);
    OpusPhaseReplay replay = OpusPhaseReplay::ReadFiles(files[0], files[1]);
    if (replay.GetStepCount() < 2)
    {
        throw std::invalid_argument("the logs hold 1 training step; the mean leaves out the "
                                    "first (profiled) one, so at least 2 are needed");
    }

    // Every input is checked: now the folder.
    ExperimentOutput out(o.out, "[replay]");
    PrintLogs(replay);
    std::vector<WorkloadWindow> windows = PrintReconfigurations(replay);
    OpusReplayRun baseline = replay.Run(0, OpusReconfigurationPolicy::ON_DEMAND);
    PrintFidelity(replay, baseline);

    std::vector<Row> rows;
    for (double d : delays)
    {
        rows.push_back({d,
                        replay.Run(d, OpusReconfigurationPolicy::ON_DEMAND).MeanStepMs(),
                        replay.Run(d, OpusReconfigurationPolicy::PROVISIONING).MeanStepMs()});
    }
    PrintTable(rows, baseline.MeanStepMs(), windows, replay.GetStepCount());
    std::ofstream csv = out.Open("phase-replay.csv");
    WriteCsv(rows, baseline.MeanStepMs(), windows, csv);
    std::cerr << "[replay] wrote " << (out.GetDir() / "phase-replay.csv").string() << "\n";
    Plot(rows, baseline.MeanStepMs(), replay.GetStepCount(), out, o.plot);
    return 0;
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
        "Replays the authors' measured phase logs of two pipeline "
        "stages and predicts the training step time against the OCS "
        "reconfiguration delay for Opus on demand and with "
        "provisioning (paper Fig. 8; an upper bound).",
        [&o](StrictCommandLine& flags) { AddFlags(flags, o); },
        [&o](const StrictCommandLine&) { return Run(o); });
}

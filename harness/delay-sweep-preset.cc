/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "delay-sweep-preset.h"

#include "delay-ms-list.h"
#include "experiment-output.h"
#include "folder-lock.h"
#include "job-runner.h"
#include "job-workload.h"
#include "strict-command-line.h"
#include "sweep-driver.h"
#include "sweep-runner.h"
#include "text-table.h"

#include "ns3/gnuplot.h"
#include "ns3/json-input.h"
#include "ns3/testbed-measurements.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Every flag of the program, with its default.
struct Options : JobOptions
{
    JobWorkload source;                                //!< --dag or the generator's flags
    std::string delays{"0,1,5,10,25,50,100"};          //!< ms, comma-separated
    std::string baseline{"eps"};                       //!< Electrical rails to normalize to
    std::string modes{"ocs,ocs-provisioning"};         //!< The Opus fabrics swept
    std::string out{"photonic-rails-delay-sweep-out"}; //!< Output folder
    bool plot{true};                                   //!< Render the PNG
    std::string point;                                 //!< --point: run this one alone
};

/// One simulation of the sweep.
struct Point
{
    JobFabric fabric;  //!< The rails
    double delayMs{0}; //!< Reconfiguration delay (optical rails)
    std::string dir;   //!< Its output folder
    JobResult result;  //!< Read back from its summary.json
};

/**
 * \return a delay in ms with at least \p decimals decimals and as many more (up to 6, whole
 * ns) as it needs: two delays never share a text (their runs shared one folder when they
 * differed past 6 significant digits).
 */
std::string
DelayText(double ms, std::size_t decimals)
{
    std::ostringstream text;
    text << std::fixed << std::setprecision(6) << ms;
    std::string digits = text.str();
    std::size_t point = digits.find('.');
    std::size_t last = std::max(digits.find_last_not_of('0'), point + decimals);
    return digits.substr(0, decimals == 0 && last == point ? point : last + 1);
}

/// The baseline, then every Opus fabric of --modes at every delay.
std::vector<Point>
MakePoints(const Options& o, const std::string& outDir)
{
    std::vector<Point> points;
    JobFabric baseline = JobFabric::Parse(o.baseline, "baseline");
    if (baseline.kind == RailKind::OCS || baseline.emulated)
    {
        throw std::invalid_argument("--baseline must be electrical (eps or eps-clos)");
    }
    points.push_back({baseline, 0, outDir + "/runs/" + baseline.name, {}});
    std::vector<JobFabric> modes = JobFabric::ParseList(o.modes, "modes");
    for (const JobFabric& mode : modes)
    {
        if (!mode.IsOpus())
        {
            throw std::invalid_argument("--modes: " + mode.name +
                                        " does not reconfigure (ocs, ocs-provisioning, "
                                        "ocs-oracle, emulated, emulated-provisioning)");
        }
    }
    for (double delay : DelayMsList::Parse(o.delays))
    {
        for (const JobFabric& mode : modes)
        {
            std::string dir = outDir + "/runs/" + mode.name + "-" + DelayText(delay, 0) + "ms";
            points.push_back({mode, delay, dir, {}});
        }
    }
    return points;
}

/// The points' folders and labels (SweepDriver::PresetPoints gives them their arguments:
/// this program again with --point=FOLDER, which runs that point alone, RunPoint).
std::vector<SweepPoint>
SweepPoints(const std::vector<Point>& points)
{
    std::vector<SweepPoint> sweep;
    for (const Point& p : points)
    {
        SweepPoint point;
        point.folder = std::filesystem::path(p.dir).filename().string();
        point.labels.emplace_back("fabric", p.fabric.name);
        if (&p != &points.front())
        {
            point.labels.emplace_back("delay_ms", DelayText(p.delayMs, 0));
        }
        sweep.push_back(std::move(point));
    }
    return sweep;
}

/// Runs the point in \p folder in this process (--point): its summary.json is the result.
/// \return the exit status
int
RunPoint(Options o,
         std::shared_ptr<const WorkloadDag> dag,
         const std::vector<Point>& points,
         const std::string& folder,
         const std::string& program)
{
    for (const Point& point : points)
    {
        if (std::filesystem::path(point.dir).filename() != folder)
        {
            continue;
        }
        try
        {
            o.reconfigDelayTime = NanoSeconds(std::llround(point.delayMs * 1e6));
            o.progress = 0;
            JobRunner::Run(o, dag, point.fabric, point.dir);
            return 0;
        }
        catch (const std::exception& e)
        {
            // The sweep shows this last line of the log.
            std::cerr << program << ": error: " << point.fabric.name << " at "
                      << DelayText(point.delayMs, 0) << " ms: " << e.what() << "\n";
            return 1;
        }
    }
    throw std::invalid_argument("--point " + StrictCommandLine::Quote(folder) +
                                ": the sweep has no such point");
}

/// Reads what a child wrote.
JobResult
ReadPoint(const Point& point)
{
    std::string path = point.dir + "/summary.json";
    nlohmann::json j = JsonInput::ReadFile(path, "summary");
    for (const char* key : {"iteration_time_s",
                            "makespan_s",
                            "reconfigurations",
                            "exposed_reconfiguration_s",
                            "wall_s",
                            "events"})
    {
        if (!j.is_object() || !j.contains(key) || !j[key].is_number())
        {
            throw std::runtime_error(path + ": " + key + " is missing or not a number");
        }
    }
    JobResult r;
    r.fabric = point.fabric.name;
    r.network = j.contains("config") && j["config"].contains("network") &&
                        j["config"]["network"].is_string()
                    ? j["config"]["network"].get<std::string>()
                    : "unknown";
    r.steadyIterationTime = j["iteration_time_s"].get<double>();
    r.makespan = j["makespan_s"].get<double>();
    r.reconfigurations = j["reconfigurations"].get<uint64_t>();
    r.exposedReconfiguration = j["exposed_reconfiguration_s"].get<double>();
    r.wall = j["wall_s"].get<double>();
    r.events = j["events"].get<uint64_t>();
    return r;
}

/// \return the measured step of \p job that a run of \p mode at \p delayMs compares with
std::optional<double>
MeasuredStep(const std::string& job, const std::string& mode, double delayMs)
{
    bool provisioning = mode == "ocs-provisioning" || mode == "emulated-provisioning";
    bool onDemand = mode == "ocs" || mode == "emulated";
    if (job.empty() || (!provisioning && !onDemand))
    {
        return std::nullopt;
    }
    return TestbedMeasurements::Find(job, provisioning ? "provisioning" : "on-demand", delayMs);
}

/// The table on stdout and delay-sweep.csv: one row per run, beside the measured step of
/// the paper's testbed when \p job (b16, b24) has one at that delay; \p ringSteps is
/// --ringSteps, named in the header when merged.
void
Report(const std::vector<Point>& points,
       const std::string& job,
       const std::string& ringSteps,
       std::ostream& csv)
{
    const JobResult& base = points.front().result;
    // The measured baseline as a flag and a plain value: GCC cannot follow a flag guarding
    // two optionals in the loop below and warns that the baseline may be uninitialized.
    std::optional<double> found;
    if (!job.empty())
    {
        found = TestbedMeasurements::Find(job, "no-controller", 0);
    }
    const bool haveBase = found.has_value();
    const double measuredBase = found.value_or(0.0);
    std::cout << "network model: " << base.network
              << (ringSteps == "merged" ? ", ring steps merged" : "") << "\nbaseline "
              << points.front().fabric.name << ": iteration " << std::fixed << std::setprecision(3)
              << base.steadyIterationTime * 1e3 << " ms";
    if (haveBase)
    {
        std::cout << " (measured without a controller: " << measuredBase * 1e3 << " ms)";
    }
    std::cout << "\n";
    // Every column widens to its widest cell: long delays never glue two numbers.
    TextTable table;
    table.AddColumn("delay (ms)", TextTable::RIGHT, 12);
    table.AddColumn("mode", TextTable::LEFT, 24);
    table.AddColumn("iteration (ms)", TextTable::RIGHT, 16);
    table.AddColumn("vs base", TextTable::RIGHT, 10);
    table.AddColumn("reconf", TextTable::RIGHT, 8);
    table.AddColumn("exposed (ms)", TextTable::RIGHT, 14);
    table.AddColumn("measured (ms)", TextTable::RIGHT, 15);
    table.AddColumn("vs base", TextTable::RIGHT, 10);
    csv << "delay_ms,mode,iteration_s,normalized,reconfigurations,exposed_s,measured_s,"
           "measured_normalized\n"
        << std::setprecision(9);
    for (std::size_t i = 1; i < points.size(); ++i)
    {
        const Point& p = points[i];
        std::optional<double> measured = MeasuredStep(job, p.fabric.name, p.delayMs);
        bool both = measured && haveBase;
        table.AddRow({DelayText(p.delayMs, 3),
                      p.fabric.name,
                      TextTable::Fixed(p.result.steadyIterationTime * 1e3, 3),
                      TextTable::Percent(p.result.steadyIterationTime, base.steadyIterationTime),
                      std::to_string(p.result.reconfigurations),
                      TextTable::Fixed(p.result.exposedReconfiguration * 1e3, 3),
                      measured ? TextTable::Fixed(*measured * 1e3, 1) : "-",
                      both ? TextTable::Percent(*measured, measuredBase) : "-"});
        csv << p.delayMs << ',' << p.fabric.name << ',' << p.result.steadyIterationTime << ','
            << p.result.steadyIterationTime / base.steadyIterationTime << ','
            << p.result.reconfigurations << ',' << p.result.exposedReconfiguration << ','
            << (measured ? std::to_string(*measured) : "") << ','
            << (both ? std::to_string(*measured / measuredBase) : "") << '\n';
    }
    table.Print(std::cout);
}

/// The least-squares slope of every mode's iteration time over the delays (seconds per
/// second of delay), beside the measured curve's over the same delays where it has them:
/// on stdout and in delay-sweep-slopes.csv.
void
ReportSlopes(const std::vector<Point>& points, const std::string& job, std::ostream& csv)
{
    std::vector<std::string> modes;
    for (std::size_t i = 1; i < points.size(); ++i)
    {
        if (std::find(modes.begin(), modes.end(), points[i].fabric.name) == modes.end())
        {
            modes.push_back(points[i].fabric.name);
        }
    }
    TextTable table;
    table.AddColumn("mode", TextTable::LEFT, 24);
    table.AddColumn("slope (s/s)", TextTable::RIGHT, 13);
    table.AddColumn("measured (s/s)", TextTable::RIGHT, 16);
    table.AddColumn("vs measured", TextTable::RIGHT, 13);
    csv << "mode,delays,slope_s_per_s,measured_delays,measured_slope_s_per_s\n"
        << std::setprecision(6);
    for (const std::string& mode : modes)
    {
        std::vector<double> x;
        std::vector<double> y;
        std::vector<double> mx;
        std::vector<double> my;
        for (std::size_t i = 1; i < points.size(); ++i)
        {
            if (points[i].fabric.name != mode)
            {
                continue;
            }
            x.push_back(points[i].delayMs / 1e3);
            y.push_back(points[i].result.steadyIterationTime);
            if (auto measured = MeasuredStep(job, mode, points[i].delayMs))
            {
                mx.push_back(points[i].delayMs / 1e3);
                my.push_back(*measured);
            }
        }
        double slope = TestbedMeasurements::LeastSquaresSlope(x, y);
        double measured = TestbedMeasurements::LeastSquaresSlope(mx, my);
        bool comparable = !std::isnan(measured) && mx.size() == x.size();
        table.AddRow({mode,
                      std::isnan(slope) ? "-" : TextTable::Fixed(slope, 3),
                      std::isnan(measured) ? "-" : TextTable::Fixed(measured, 3),
                      comparable ? TextTable::Percent(slope, measured) : "-"});
        csv << mode << ',' << x.size() << ',' << (std::isnan(slope) ? "" : std::to_string(slope))
            << ',' << mx.size() << ',' << (std::isnan(measured) ? "" : std::to_string(measured))
            << '\n';
    }
    std::cout << "least-squares slope of the iteration time over the delays:\n";
    table.Print(std::cout);
}

/// Normalized iteration time against the delay: every mode, the baseline, and the measured
/// curves (each normalized to its own electrical baseline) where the job has them.
void
Plot(const std::vector<Point>& points,
     const std::string& job,
     const ExperimentOutput& out,
     bool render)
{
    const double base = points.front().result.steadyIterationTime;
    std::optional<double> measuredBase =
        job.empty() ? std::nullopt : TestbedMeasurements::Find(job, "no-controller", 0);
    Gnuplot plot;
    plot.SetTitle("Iteration time vs OCS reconfiguration delay (normalized to " +
                  points.front().fabric.name + " rails)");
    plot.SetLegend("reconfiguration delay (ms)", "iteration time / electrical");
    plot.SetExtra("set grid\nset key top left");
    std::map<std::string, Gnuplot2dDataset> simulated;
    std::map<std::string, Gnuplot2dDataset> measured;
    Gnuplot2dDataset electrical("electrical rails");
    electrical.SetStyle(Gnuplot2dDataset::LINES_POINTS);
    std::vector<std::string> order;
    for (std::size_t i = 1; i < points.size(); ++i)
    {
        const Point& p = points[i];
        if (simulated.count(p.fabric.name) == 0)
        {
            order.push_back(p.fabric.name);
            simulated.emplace(p.fabric.name, Gnuplot2dDataset("simulated " + p.fabric.name));
            simulated.at(p.fabric.name).SetStyle(Gnuplot2dDataset::LINES_POINTS);
            electrical.Add(p.delayMs, 1.0);
        }
        simulated.at(p.fabric.name).Add(p.delayMs, p.result.steadyIterationTime / base);
        std::optional<double> step = MeasuredStep(job, p.fabric.name, p.delayMs);
        bool emulatedMode = p.fabric.emulated; // one measured curve per mode: the emulated one
        if (step && measuredBase && emulatedMode)
        {
            std::string name = p.fabric.provisioning == OpusShim::ON_DEMAND
                                   ? "measured on demand"
                                   : "measured provisioning";
            measured.emplace(name, Gnuplot2dDataset(name))
                .first->second.Add(p.delayMs, *step / *measuredBase);
        }
    }
    for (const std::string& name : order)
    {
        plot.AddDataset(simulated.at(name));
    }
    for (auto& [name, data] : measured)
    {
        data.SetStyle(Gnuplot2dDataset::POINTS);
        plot.AddDataset(data);
    }
    if (!order.empty())
    {
        plot.AddDataset(electrical);
    }
    out.WriteFigure(
        "delay-sweep",
        800,
        560,
        [&plot](std::ostream& plt) { plot.GenerateOutput(plt); },
        render);
}

} // namespace

int
DelaySweepPreset::Main(int argc,
                       char* argv[],
                       const std::string& program,
                       const std::string& preset)
{
    Options o;
    SweepDriver driver(program, "[sweep]", "the same command");
    return RunProgram(
        argc,
        argv,
        program,
        program,
        "Iteration time vs OCS reconfiguration delay for Opus on demand "
        "and with provisioning, normalized to electrical rails (paper "
        "Fig. 8).\nWithout --dag or generator flags it runs the paper's "
        "measured job (--job=b16) on the testbed as measured, at 0, 100, "
        "1000 and 3000 ms, in the testbed's emulation and on optical "
        "rails, beside the measured steps and their slopes.",
        [&o, &driver](StrictCommandLine& cmd) {
            o.source.AddFlags(cmd);
            o.AddFlags(cmd);
            cmd.Reserve("ns3::OpticalCircuitSwitch::ReconfigurationDelay", "--delays");
            cmd.Reserve("ns3::OpusTestbedEmulator::ReconfigurationDelay", "--delays");
            cmd.Add("delays", "reconfiguration delays, ms, comma-separated", o.delays);
            cmd.Add("baseline", "electrical rails to normalize to: eps|eps-clos", o.baseline);
            cmd.Add("modes",
                    "Opus fabrics swept: ocs, ocs-provisioning, ocs-oracle, emulated, "
                    "emulated-provisioning (comma-separated)",
                    o.modes);
            cmd.Add("out", "output folder", o.out);
            cmd.Add("plot", "render the PNG with gnuplot when it is installed", o.plot);
            cmd.Add("point",
                    "run this point alone, in OUT/runs/POINT (what its command.sh does)",
                    o.point);
            cmd.Retire("jobs", "use --workers (runs at once)");
            driver.AddFlags(cmd);
        },
        [&](const StrictCommandLine& cmd) {
            driver.CheckFlags(cmd);
            if (cmd.IsGiven("reconfigDelay"))
            {
                throw std::invalid_argument(
                    "--reconfigDelay is what the sweep varies: use --delays");
            }
            bool paper = o.source.ApplyDefault(cmd, o);
            if (paper)
            {
                if (!cmd.IsGiven("delays"))
                {
                    o.delays = "0,100,1000,3000";
                }
                if (!cmd.IsGiven("modes"))
                {
                    o.modes = "emulated,emulated-provisioning,ocs,ocs-provisioning";
                }
            }
            // The testbed's measurements apply to its job on its hardware only.
            const std::string measuredJob =
                o.iterations >= 2 ? o.source.GetMeasuredJob() : std::string();
            o.Check();
            if (o.Networks().size() > 1)
            {
                throw std::invalid_argument("the sweep runs one --network at a time (packet or "
                                            "flow); photonic-rails-sim takes a list");
            }
            auto dag = o.source.Load(cmd, o);
            std::string outDir = std::filesystem::absolute(o.out).lexically_normal().string();
            std::vector<Point> points = MakePoints(o, outDir);
            if (!o.point.empty())
            {
                return RunPoint(o, dag, points, o.point, program);
            }
            if (paper)
            {
                std::cerr << "[sweep] the paper's measured job (--job=b16) on the testbed as "
                             "measured (perlmutter-testbed), "
                          << o.iterations << " iterations per run\n";
            }
            for (const std::string& note : o.source.GetNotes())
            {
                std::cerr << "[sweep] " << note << "\n";
            }
            ExperimentOutput out(o.out, "[sweep]");
            std::vector<JobFabric> fabrics;
            for (const Point& point : points)
            {
                fabrics.push_back(point.fabric);
            }
            JobRunner::CheckAttributesApply(cmd.GetAttributes(), o, fabrics, dag->GetRankCount());
            for (const std::string& note : JobRunner::CheckBeforeRuns(o, fabrics, *dag))
            {
                std::cerr << "[sweep] " << note << "\n";
            }
            if (o.iterations < 2)
            {
                std::cerr << "[sweep] note: with 1 iteration provisioning never acts (it profiles "
                             "the first iteration)\n";
            }
            SweepRunner runner(
                outDir,
                SweepRunner::ThisProgram(),
                SweepDriver::PresetPoints(SweepPoints(points), argc, argv, preset, outDir));
            FolderLock lock(runner.GetDir());
            if (std::optional<int> status = driver.RunToEnd(runner, o.out))
            {
                return *status;
            }
            driver.CheckAllRan(runner);
            for (std::size_t i = 0; i < points.size(); ++i)
            {
                if (runner.StateOf(i) != SweepRunner::FINISHED)
                {
                    // The first failure is the error (the others are listed above it).
                    driver.ReportUnfinished(runner);
                    throw std::runtime_error(driver.PointError(runner, i));
                }
                points[i].result = ReadPoint(points[i]);
            }
            std::ofstream csv = out.Open("delay-sweep.csv");
            Report(points, measuredJob, o.ringSteps, csv);
            std::ofstream slopes = out.Open("delay-sweep-slopes.csv");
            ReportSlopes(points, measuredJob, slopes);
            std::cerr << "[sweep] wrote " << (out.GetDir() / "delay-sweep.csv").string() << " and "
                      << (out.GetDir() / "delay-sweep-slopes.csv").string() << "\n";
            Plot(points, measuredJob, out, o.plot);
            return 0;
        });
}

} // namespace ns3

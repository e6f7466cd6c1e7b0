/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fault-sweep-preset.h"

#include "experiment-output.h"
#include "folder-lock.h"
#include "job-runner.h"
#include "job-workload.h"
#include "network-model-registry.h"
#include "strict-command-line.h"
#include "sweep-driver.h"
#include "sweep-runner.h"
#include "text-table.h"

#include "ns3/json-input.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/rail-topology.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

namespace
{

/// Every flag of the program, with its default.
struct Options : JobOptions
{
    JobWorkload source;                                //!< --dag or the generator's flags
    std::string fabrics{"eps,eps-clos,ocs"};           //!< Fabrics swept
    std::string at{"1s"};                              //!< When each failure strikes
    std::string duration{"100ms"};                     //!< How long the part stays down
    uint32_t gpu{5};                                   //!< --failGpu: the GPU whose parts fail
    std::string out{"photonic-rails-fault-sweep-out"}; //!< Output folder
    bool plot{true};                                   //!< Render the PNG
    std::string point;                                 //!< --point: run this one alone
};

/// One run of the sweep.
struct Point
{
    JobFabric fabric;                //!< The rails
    std::string fault;               //!< Inline fault, "" for the fault-free run
    std::string kind;                //!< Its kind ("none" for the fault-free run)
    std::optional<JobResult> result; //!< When it finished
    std::string failure;             //!< Why it did not

    /// \return its run folder's name, under DIR/runs/
    std::string Folder() const
    {
        return fabric.name + "-" + kind;
    }
};

/// \return \p t in the largest unit that keeps it whole, e.g. 1100ms
std::string
TimeText(Time t)
{
    int64_t ns = t.GetNanoSeconds();
    for (const auto& [unit, per] : std::vector<std::pair<std::string, int64_t>>{{"s", 1000000000},
                                                                                {"ms", 1000000},
                                                                                {"us", 1000}})
    {
        if (ns % per == 0)
        {
            return std::to_string(ns / per) + unit;
        }
    }
    return std::to_string(ns) + "ns";
}

/// Rows of the sweep on one fabric: (kind, inline fault).
using FaultRows = std::vector<std::pair<std::string, std::string>>;

/**
 * \brief Adds the Clos rows: a leaf-spine cable and a spine of the GPU's rail. A rail whose
 *        ports all fit on one leaf (up to 32 at the default radix 64: a small --dag) has
 *        neither: the switch row fails that leaf, and the skipped link row is said on stderr
 *        (it failed on a spine that the user never asked for).
 * \param spec the fabric
 * \param fabric its name, for the line on stderr
 * \param rail "railR"
 * \param when "@DOWN-UP"
 * \param faults receives the rows
 */
void
AddClosFaults(const RailFabricSpec& spec,
              const std::string& fabric,
              const std::string& rail,
              const std::string& when,
              FaultRows& faults)
{
    ClosPlan plan;
    std::string error =
        ClosPlan::Make(spec.PortsPerRail(), spec.switchRadix, spec.oversubscription, plan);
    if (error.empty() && plan.spines == 0) // else a plan error is CheckBeforeRuns's to say
    {
        std::cerr << "[fault-sweep] " << fabric << ": no link row: at --radix=" << spec.switchRadix
                  << " a rail's " << spec.PortsPerRail()
                  << " ports fit on one leaf, which has no spine to cable to (a smaller "
                     "--radix makes spines); its switch row fails that leaf\n";
        faults.emplace_back("switch", "switch:" + rail + ".leaf0" + when);
        return;
    }
    faults.emplace_back("link", "link:" + rail + ".leaf0-spine0" + when);
    faults.emplace_back("switch", "switch:" + rail + ".spine0" + when);
}

/// \return the inline faults of one failure of each kind that \p fabric has, at \p o.at
FaultRows
FaultsFor(const Options& o, const JobFabric& fabric, uint32_t ranks)
{
    RailFabricSpec spec = JobRunner::MakeSpec(o, fabric, ranks);
    if (o.gpu >= spec.Gpus())
    {
        throw std::invalid_argument("--failGpu " + std::to_string(o.gpu) + ": the job has " +
                                    std::to_string(spec.Gpus()) + " GPUs");
    }
    Time at = StrictCommandLine::ParseTime("at", o.at);
    Time duration = StrictCommandLine::ParseTime("duration", o.duration);
    if (duration.IsZero())
    {
        throw std::invalid_argument("--duration " + StrictCommandLine::Quote(o.duration) +
                                    ": a failure lasts at least 1 ns");
    }
    Time until = at + duration;
    std::string when = "@" + TimeText(at) + "-" + TimeText(until);
    std::string rail = "rail" + std::to_string(RailTopology(spec.gpusPerServer).RailOf(o.gpu));
    std::string gpu = "gpu" + std::to_string(o.gpu);
    FaultRows faults{{"nic", "nic:" + gpu + ".port0" + when}};
    if (fabric.kind == RailKind::EPS)
    {
        faults.emplace_back("switch", "switch:" + rail + when);
    }
    else if (fabric.kind == RailKind::EPS_CLOS)
    {
        AddClosFaults(spec, fabric.name, rail, when, faults);
    }
    else
    {
        uint32_t port = o.gpu / spec.gpusPerServer * spec.nicPorts; // its port 0 (RailFabricHelper)
        faults.emplace_back("ocs-port", "ocs-port:" + rail + ".port" + std::to_string(port) + when);
        faults.emplace_back("ocs", "ocs:" + rail + when);
        faults.emplace_back("ocs-reconfig", "ocs-reconfig:" + rail + "@" + TimeText(at));
    }
    return faults;
}

/// Runs the point in \p folder in this process (--point). \return the exit status
int
RunPoint(const Options& o,
         std::shared_ptr<const WorkloadDag> dag,
         const std::vector<Point>& points,
         const std::string& program)
{
    for (const Point& p : points)
    {
        if (p.Folder() != o.point)
        {
            continue;
        }
        JobOptions run = o;
        run.fault = p.fault;
        run.faultSchedule = FaultSchedule::Read("", p.fault);
        try
        {
            JobRunner::Run(run, dag, p.fabric, o.out + "/runs/" + p.Folder());
            return 0;
        }
        catch (const std::exception& e)
        {
            std::cerr << program << ": error: " << e.what() << "\n"; // the sweep shows it
            return 1;
        }
    }
    throw std::invalid_argument("--point " + StrictCommandLine::Quote(o.point) +
                                ": the sweep has no such point");
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
        point.folder = p.Folder();
        point.labels = {{"fabric", p.fabric.name}, {"fault", p.fault.empty() ? "none" : p.fault}};
        sweep.push_back(std::move(point));
    }
    return sweep;
}

/// Reads point \p i's result, or why it did not finish (the last line of its run.log).
void
ReadPoint(const SweepRunner& runner, std::size_t i, const SweepDriver& driver, Point& p)
{
    if (runner.StateOf(i) != SweepRunner::FINISHED)
    {
        p.failure = driver.PointError(runner, i);
        std::cerr << "[fault-sweep] " << p.fabric.name << " " << p.kind
                  << ": did not finish: " << p.failure << "\n";
        return;
    }
    std::string path = (runner.FolderOf(i) / "summary.json").string();
    nlohmann::json j = JsonInput::ReadFile(path, "summary");
    JobResult r;
    r.fabric = p.fabric.name;
    r.makespan = j.at("makespan_s").get<double>();
    if (j.contains("faults") && j["faults"].is_object()) // none in the fault-free run
    {
        r.faultRecovery = j["faults"].at("recovery_s").get<double>();
    }
    p.result = r;
}

/// Prints the table and writes fault-sweep.csv.
void
Report(const std::vector<Point>& points, std::ostream& csv)
{
    TextTable table;
    table.AddColumn("fabric", TextTable::LEFT, 10);
    table.AddColumn("fault", TextTable::LEFT, 14);
    table.AddColumn("part", TextTable::LEFT, 40);
    table.AddColumn("makespan (s)", TextTable::RIGHT, 14);
    table.AddColumn("penalty (ms)", TextTable::RIGHT, 14);
    table.AddColumn("recovery (ms)", TextTable::RIGHT, 15);
    csv << "fabric,fault,part,makespan_s,penalty_s,recovery_s,finished\n" << std::setprecision(12);
    const Point* base = nullptr;
    for (const Point& p : points)
    {
        if (p.kind == "none")
        {
            base = &p;
        }
        bool compare = base && base->result && p.result;
        double penalty = compare ? p.result->makespan - base->result->makespan : 0;
        table.AddRow({p.fabric.name,
                      p.kind,
                      p.fault.empty() ? "-" : p.fault,
                      p.result ? TextTable::Fixed(p.result->makespan, 6) : "did not finish",
                      compare && p.kind != "none" ? TextTable::Fixed(penalty * 1e3, 3) : "-",
                      p.result && p.kind != "none"
                          ? TextTable::Fixed(p.result->faultRecovery * 1e3, 3)
                          : "-"});
        csv << p.fabric.name << ',' << p.kind << ',' << p.fault << ',';
        if (p.result)
        {
            csv << p.result->makespan;
        }
        csv << ',';
        if (compare && p.kind != "none")
        {
            csv << penalty;
        }
        csv << ',';
        if (p.result && p.kind != "none")
        {
            csv << p.result->faultRecovery;
        }
        csv << ',' << (p.result ? 1 : 0) << '\n';
    }
    table.Print(std::cout);
}

/// fault-sweep.png: the penalty of each failure, clustered by fabric.
void
Plot(const std::vector<Point>& points, const ExperimentOutput& out, bool render)
{
    out.WriteFigure(
        "fault-sweep",
        900,
        520,
        [&points](std::ostream& plt) {
            plt << "set title 'Makespan penalty of one failure'\n"
                   "set ylabel 'penalty (ms)'\nset style data histograms\n"
                   "set style fill solid 0.8 border -1\nset boxwidth 0.8\n"
                   "set xtics rotate by -30\nset grid ytics\nunset key\n"
                   "plot '-' using 2:xtic(1) lc rgb '#3060a0'\n";
            const Point* base = nullptr;
            for (const Point& p : points)
            {
                if (p.kind == "none")
                {
                    base = &p;
                    continue;
                }
                if (!base || !base->result || !p.result)
                {
                    continue; // did not finish: no penalty to draw (the table says so)
                }
                double penalty = (p.result->makespan - base->result->makespan) * 1e3;
                plt << '"' << p.fabric.name << ' ' << p.kind << "\" " << penalty << '\n';
            }
            plt << "e\n";
        },
        render);
}

} // namespace

int
FaultSweepPreset::Main(int argc,
                       char* argv[],
                       const std::string& program,
                       const std::string& preset)
{
    Options o;
    SweepDriver driver(program, "[fault-sweep]", "the same command");
    return RunProgram(
        argc,
        argv,
        program,
        program,
        "What one failure costs a training job, packet by packet: the "
        "job without faults, then with one failure of each kind at --at "
        "(repaired --duration later), on each fabric.\nWithout --dag or "
        "generator flags it runs the paper's measured job (--job=b16) on "
        "the testbed as measured, with radix-4 Clos rails (two leaves per "
        "rail) so that eps-clos has cables and a spine to fail; a Clos rail "
        "on one leaf (no spine) has its leaf fail and no link row.",
        [&o, &driver](StrictCommandLine& cmd) {
            o.source.AddFlags(cmd);
            o.AddFlags(cmd);
            cmd.Add("fabrics", "fabrics swept: eps, eps-clos, ocs (comma-separated)", o.fabrics);
            cmd.Add("at", "when each failure strikes (a duration from the start)", o.at);
            cmd.Add("duration", "how long the failed part stays down", o.duration);
            cmd.Add("failGpu", "the GPU whose NIC port, rail and OCS port fail", o.gpu);
            cmd.Add("out", "output folder", o.out);
            cmd.Add("plot", "render the PNG with gnuplot when it is installed", o.plot);
            cmd.Add("point",
                    "run this point alone, in OUT/runs/POINT (what its command.sh does)",
                    o.point);
            driver.AddFlags(cmd);
        },
        [&](const StrictCommandLine& cmd) {
            driver.CheckFlags(cmd);
            cmd.RefuseGiven({"fault", "faults"},
                            "is what the sweep sets: use --at, --duration and --failGpu");
            if (o.source.ApplyDefault(cmd, o) && !cmd.IsGiven("radix"))
            {
                o.radix = 4;
            }
            o.Check();
            const NetworkModelEntry* model = NetworkModelRegistry::Find(o.network);
            if (model == nullptr || !model->faults)
            {
                throw std::invalid_argument(
                    "the fault sweep runs on the " +
                    NetworkModelRegistry::NamesWith(&NetworkModelEntry::faults, " or ") +
                    " network only");
            }
            auto dag = o.source.Load(cmd, o);
            std::vector<Point> points;
            std::vector<JobFabric> fabrics = JobFabric::ParseList(o.fabrics, "fabrics");
            for (const JobFabric& fabric : fabrics)
            {
                if (fabric.emulated || fabric.staticSplit)
                {
                    throw std::invalid_argument("--fabrics: " + fabric.name +
                                                " is not swept (eps, eps-clos, ocs and its "
                                                "provisioning forms are)");
                }
                points.push_back({fabric, "", "none", std::nullopt, ""});
                for (const auto& [kind, fault] : FaultsFor(o, fabric, dag->GetRankCount()))
                {
                    points.push_back({fabric, fault, kind, std::nullopt, ""});
                }
            }
            std::string outDir = std::filesystem::absolute(o.out).lexically_normal().string();
            if (!o.point.empty())
            {
                o.out = outDir;
                return RunPoint(o, dag, points, program);
            }
            JobRunner::CheckAttributesApply(cmd.GetAttributes(), o, fabrics, dag->GetRankCount());
            for (const Point& p : points)
            {
                JobOptions check = o;
                check.faultSchedule = FaultSchedule::Read("", p.fault);
                JobRunner::CheckBeforeRuns(check, {p.fabric}, *dag);
            }
            std::cerr << "[fault-sweep] " << points.size() << " runs of " << dag->GetRankCount()
                      << " ranks\n";
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
                ReadPoint(runner, i, driver, points[i]);
                if (points[i].kind == "none" && points[i].result &&
                    points[i].result->makespan <=
                        StrictCommandLine::ParseTime("at", o.at).GetSeconds())
                {
                    std::cerr << "[fault-sweep] note: on " << points[i].fabric.name
                              << " the job ends at " << points[i].result->makespan
                              << " s, before --at=" << o.at
                              << ": no failure strikes it (give an earlier --at)\n";
                }
            }
            ExperimentOutput out(o.out, "[fault-sweep]");
            std::ofstream csv = out.Open("fault-sweep.csv");
            Report(points, csv);
            Plot(points, out, o.plot);
            return 0;
        });
}

} // namespace ns3

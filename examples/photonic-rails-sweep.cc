/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-sweep: runs photonic-rails-sim over a cartesian product of its flags, on
 * this machine or as a Slurm job array, and merges every run's summary.json into one CSV.
 *
 *   photonic-rails-sweep --vary=fabric=ocs,ocs-provisioning --vary=reconfigDelay=1ms,10ms \
 *       -- --job=b16
 *   photonic-rails-sweep --file=sweep.json --workers=2 --out=s1
 *   photonic-rails-sweep --file=sweep.json --slurm --partition=gpu --time=30 --mem=4G
 *   photonic-rails-sweep --merge --out=s1              # collect what a cluster finished
 *   photonic-rails-sweep --preset=delay [its flags]    # the delay sweep (Fig. 8)
 *   photonic-rails-sweep --preset=fault [its flags]    # the fault sweep
 *
 * Flags after "--" go to every run. Each point runs in DIR/runs/NNNN/ (command.sh, run.log,
 * its outputs); DIR/sweep.csv has a row per point and DIR/sweep.png a plot of --metric.
 * Finished points are skipped when the sweep runs again (resume); Ctrl-C stops the running
 * ones, which run again next time. Errors are one line on stderr with a non-zero exit status.
 */

#include "ns3/core-module.h"
#include "ns3/delay-sweep-preset.h"
#include "ns3/experiment-output.h"
#include "ns3/fault-sweep-preset.h"
#include "ns3/folder-lock.h"
#include "ns3/strict-command-line.h"
#include "ns3/sweep-driver.h"
#include "ns3/sweep-plan.h"
#include "ns3/sweep-runner.h"
#include "ns3/sweep-table.h"

#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-sweep";
const char* const TAG = "[sweep]";

/// The flags of the sweep itself (where it runs: SweepDriver's), with their defaults.
struct Options
{
    std::vector<std::string> vary;               //!< --vary, in order
    std::vector<std::string> skip;               //!< --skip filters
    std::vector<std::string> only;               //!< --only filters
    std::string file;                            //!< --file: a sweep file
    std::string out{"photonic-rails-sweep-out"}; //!< The sweep's folder
    std::string metric{"iteration_time_s"};      //!< Plotted
    bool plot{true};                             //!< Render the PNG
    bool list{false};                            //!< Print the points and stop
    bool merge{false};                           //!< Collect what finished, run nothing
    std::string simulator;                       //!< photonic-rails-sim ("": beside this)
    std::vector<std::string> simFlags;           //!< After "--"
};

/// \return the sweep the flags describe, or the one saved in --out for a bare --merge or
///         --list
SweepRunner
MakeRunner(const Options& o, const StrictCommandLine& cmd)
{
    if ((o.merge || o.list) && o.vary.empty() && o.file.empty())
    {
        cmd.RefuseGiven({"skip", "only", "simulator"}, "needs the sweep's --vary or --file");
        if (!o.simFlags.empty())
        {
            throw std::invalid_argument("flags after '--' need the sweep's --vary or --file");
        }
        return SweepRunner::Load(o.out);
    }
    SweepPlan plan;
    if (!o.file.empty())
    {
        plan.ReadFile(o.file);
    }
    for (const std::string& axis : o.vary)
    {
        plan.AddAxis(axis);
    }
    for (const std::string& flag : o.simFlags)
    {
        plan.AddFixed(flag);
    }
    for (const std::string& filter : o.skip)
    {
        plan.AddSkip(filter);
    }
    for (const std::string& filter : o.only)
    {
        plan.AddOnly(filter);
    }
    std::string simulator = o.simulator.empty() ? SweepRunner::FindSimulator(PROGRAM) : o.simulator;
    if (access(simulator.c_str(), X_OK) != 0)
    {
        throw std::invalid_argument("--simulator " + StrictCommandLine::Quote(simulator) +
                                    ": not a program this user can run");
    }
    std::filesystem::path dir = std::filesystem::absolute(o.out).lexically_normal();
    SweepRunner runner(dir, simulator, plan.Points((dir / "runs").string()));
    if (o.merge && std::filesystem::exists(dir / "sweep.json") &&
        !runner.SamePoints(SweepRunner::Load(dir)))
    {
        // Its CSV would call every point pending.
        throw std::invalid_argument("the flags describe another sweep than the one in " +
                                    dir.string() + " (its sweep.json): give its flags, or none");
    }
    return runner;
}

/// Prints the points and where each stands.
void
List(const SweepRunner& runner)
{
    const char* const states[] = {"not run", "finished", "failed"};
    for (std::size_t i = 0; i < runner.GetPoints().size(); ++i)
    {
        std::cout << runner.GetPoints()[i].folder << "  " << states[runner.StateOf(i)] << "  "
                  << runner.Describe(i) << "\n";
    }
}

/**
 * \brief Writes the CSV and the plot of what finished.
 * \param ran every point was run (here, or on Slurm and waited for): one that did not
 *        finish is then an error; else (--merge, --points) a failed one is (pending ones
 *        may still run, or were not asked for)
 * \return the exit status
 */
int
Merge(const Options& o, const SweepRunner& runner, const SweepDriver& driver, bool ran)
{
    ExperimentOutput out(o.out, TAG);
    SweepTable table(runner);
    table.WriteCsv((out.GetDir() / "sweep.csv").string());
    std::vector<std::size_t> empty = table.FinishedWithoutSummary();
    for (std::size_t i : empty)
    {
        std::cerr << TAG << " point " << runner.GetPoints()[i].folder << " (" << runner.Describe(i)
                  << ") ended with status 0 but wrote no readable "
                  << (runner.FolderOf(i) / "summary.json").string()
                  << " (several fabrics or networks in one point write one per subfolder)\n";
    }
    std::size_t total = runner.GetPoints().size();
    std::size_t finished = 0;
    for (std::size_t i = 0; i < total; ++i)
    {
        finished += runner.StateOf(i) == SweepRunner::FINISHED ? 1 : 0;
    }
    std::size_t failed = driver.ReportUnfinished(runner);
    std::cout << "sweep " << out.GetDir().string() << ": " << finished << " of " << total
              << " points finished, " << failed << " failed, " << total - finished - failed
              << " not run\n";
    std::cerr << TAG << " wrote " << (out.GetDir() / "sweep.csv").string() << "\n";
    if (finished > empty.size())
    {
        table.Plot(o.metric, out, "sweep", o.plot);
    }
    else
    {
        for (const char* stale : {"sweep.png", "sweep.plt"})
        {
            std::error_code error; // an earlier merge's figure is not this one's
            std::filesystem::remove(out.GetDir() / stale, error);
        }
    }
    std::size_t unfinished = ran ? total - finished : failed;
    if (unfinished + empty.size() > 0)
    {
        throw std::runtime_error(std::to_string(unfinished + empty.size()) + " of " +
                                 std::to_string(total) + " points " +
                                 (ran ? "did not finish" : "failed") +
                                 (empty.empty() ? "" : " or wrote no summary") + " (listed above)");
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    // --preset hands the whole command line to that sweep's program.
    for (int i = 1; i < argc && std::string(argv[i]) != "--"; ++i)
    {
        std::string arg = argv[i];
        if (arg == "--preset=delay" || arg == "--preset=fault")
        {
            std::vector<char*> rest(argv, argv + argc);
            rest.erase(rest.begin() + i);
            std::string program = std::string(PROGRAM) + " " + arg;
            return arg == "--preset=delay"
                       ? DelaySweepPreset::Main(int(rest.size()), rest.data(), program, arg)
                       : FaultSweepPreset::Main(int(rest.size()), rest.data(), program, arg);
        }
        if (arg.rfind("--preset", 0) == 0)
        {
            std::cerr << PROGRAM << ": error: --preset takes delay or fault\n";
            return 1;
        }
    }
    Options o;
    SweepDriver driver(PROGRAM, TAG, "--merge with the same --out");
    int own = argc;
    for (int i = 1; i < argc; ++i)
    {
        if (std::string(argv[i]) == "--")
        {
            own = i;
            o.simFlags.assign(argv + i + 1, argv + argc);
            break;
        }
    }
    return RunProgram(
        own,
        argv,
        PROGRAM,
        __FILE__,
        "Runs photonic-rails-sim over a cartesian product of its flags, "
        "here (--workers) or as a Slurm job array (--slurm), and merges "
        "every run's summary.json into DIR/sweep.csv.\nFlags after '--' go "
        "to every run. --preset=delay and --preset=fault run the delay and "
        "fault sweeps (their own flags: --preset=delay --help).",
        [&o, &driver](StrictCommandLine& cmd) {
            cmd.AddRepeated("vary",
                            "an axis: flag=value1,value2,... (the first varies slowest)",
                            o.vary);
            cmd.AddRepeated("skip",
                            "leave out the points where flag=value[,flag!=value...] all hold",
                            o.skip);
            cmd.AddRepeated("only", "keep only the points where these all hold", o.only);
            cmd.Add("file", "a sweep file (JSON: vary, flags, skip, only)", o.file);
            cmd.Add("out", "the sweep's folder", o.out);
            cmd.Add("metric", "the summary.json scalar plotted (a CSV column)", o.metric);
            cmd.Add("plot", "render the PNG with gnuplot when it is installed", o.plot);
            cmd.Add("list", "print the points and where each stands, run nothing", o.list);
            cmd.Add("merge", "write the CSV of what finished, run nothing", o.merge);
            cmd.Add("simulator",
                    "photonic-rails-sim's path (default: beside this program)",
                    o.simulator);
            driver.AddFlags(cmd);
        },
        [&o, &driver](const StrictCommandLine& cmd) {
            driver.CheckFlags(cmd);
            if (o.merge || o.list)
            {
                cmd.RefuseGiven({"slurm", "workers", "points"},
                                o.merge ? "runs points: --merge collects what finished"
                                        : "runs points: --list runs nothing");
            }
            if (o.merge && o.list)
            {
                throw std::invalid_argument("--list and --merge: give one");
            }
            SweepRunner runner = MakeRunner(o, cmd);
            if (o.list)
            {
                List(runner); // reads the folder, changes nothing
                return 0;
            }
            FolderLock lock(runner.GetDir());
            if (!o.merge)
            {
                if (std::optional<int> status = driver.RunToEnd(runner, o.out))
                {
                    return *status;
                }
            }
            // With --points the others may rightly be pending: only failures count then.
            return Merge(o, runner, driver, !o.merge && !cmd.IsGiven("points"));
        });
}

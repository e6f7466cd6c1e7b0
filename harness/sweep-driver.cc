/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sweep-driver.h"

#include "child-processes.h"
#include "strict-command-line.h"
#include "sweep-progress.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <stdexcept>

namespace ns3
{

SweepDriver::SweepDriver(std::string program, std::string tag, std::string collect)
    : m_program(std::move(program)),
      m_tag(std::move(tag)),
      m_collect(std::move(collect))
{
}

void
SweepDriver::AddFlags(StrictCommandLine& cmd)
{
    cmd.Add("workers",
            "points at once on this machine (child processes)",
            m_workers,
            FlagRange{1, 256, "points at once"});
    cmd.Add("points", "run these points only (numbers or folder names, comma-separated)", m_points);
    cmd.Add("slurm", "submit the points as a Slurm job array (sbatch --array)", m_slurm);
    cmd.Add("wait", "with --slurm: wait for the job array to end, then merge", m_wait);
    cmd.Add("partition", "with --slurm: sbatch --partition", m_batch.partition);
    cmd.Add("time", "with --slurm: sbatch --time per task (e.g. 30, 2:00:00)", m_batch.time);
    cmd.Add("mem", "with --slurm: sbatch --mem per task (e.g. 4G)", m_batch.memory);
    cmd.Add("poll",
            "with --slurm: seconds between squeue calls",
            m_poll,
            FlagRange{0.1, 3600, "seconds"});
}

void
SweepDriver::CheckFlags(const StrictCommandLine& cmd) const
{
    if (m_slurm)
    {
        cmd.RefuseGiven({"workers"}, "is for points run here: Slurm places the tasks");
    }
    else
    {
        cmd.RefuseGiven({"partition", "time", "mem", "wait", "poll"}, "is for --slurm");
    }
    for (const auto& [flag, value] :
         {std::pair<const char*, std::string>{"partition", m_batch.partition},
          {"time", m_batch.time},
          {"mem", m_batch.memory}})
    {
        if (value.find_first_of(" \t\r\n\"'\\$`#;") != std::string::npos)
        {
            throw std::invalid_argument("--" + std::string(flag) + " " +
                                        StrictCommandLine::Quote(value) +
                                        ": one sbatch value, without blanks or quotes");
        }
    }
}

std::vector<SweepPoint>
SweepDriver::PresetPoints(std::vector<SweepPoint> points,
                          int argc,
                          char* argv[],
                          const std::string& preset,
                          const std::string& out)
{
    static const std::vector<std::string> dropped = {"workers",
                                                     "points",
                                                     "slurm",
                                                     "wait",
                                                     "partition",
                                                     "time",
                                                     "mem",
                                                     "poll",
                                                     "out",
                                                     "plot",
                                                     "point"};
    std::vector<std::string> forwarded;
    if (!preset.empty())
    {
        forwarded.push_back(preset);
    }
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        std::size_t equal = arg.find('=');
        std::string name = arg.substr(2, equal == std::string::npos ? equal : equal - 2);
        if (std::find(dropped.begin(), dropped.end(), name) == dropped.end())
        {
            forwarded.push_back(arg);
        }
    }
    for (SweepPoint& point : points)
    {
        point.arguments = forwarded;
        point.arguments.push_back("--out=" + out);
        point.arguments.push_back("--point=" + point.folder);
    }
    return points;
}

std::vector<std::size_t>
SweepDriver::PointsToRun(const SweepRunner& runner) const
{
    const std::size_t total = runner.GetPoints().size();
    std::vector<std::size_t> which;
    if (m_points.empty())
    {
        for (std::size_t i = 0; i < total; ++i)
        {
            if (runner.StateOf(i) != SweepRunner::FINISHED)
            {
                which.push_back(i);
            }
        }
        return which;
    }
    const std::vector<SweepPoint>& points = runner.GetPoints();
    for (const std::string& text : StrictCommandLine::SplitList("points", m_points))
    {
        // A folder's name (a preset's ocs-10ms, or 0003), or a point's number.
        auto named = std::find_if(points.begin(), points.end(), [&text](const SweepPoint& p) {
            return p.folder == text;
        });
        bool digits = text.find_first_not_of("0123456789") == std::string::npos;
        std::size_t i = named != points.end()        ? std::size_t(named - points.begin())
                        : digits && text.size() < 10 ? std::stoul(text)
                                                     : total;
        if (i >= total)
        {
            throw std::invalid_argument("--points " + StrictCommandLine::Quote(text) +
                                        ": the sweep's points are 0 to " +
                                        std::to_string(total - 1) + " (or their folders' names)");
        }
        if (std::find(which.begin(), which.end(), i) == which.end())
        {
            which.push_back(i);
        }
    }
    std::sort(which.begin(), which.end());
    return which;
}

namespace
{

/// Prints point \p i, which ended, on a progress line.
void
SayEnded(const std::string& tag,
         const SweepRunner& runner,
         std::size_t i,
         SweepProgress& progress,
         std::chrono::steady_clock::time_point start)
{
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    bool finished = runner.StateOf(i) == SweepRunner::FINISHED;
    std::cerr << tag << " " << progress.Ended(!finished, elapsed.count()) << ": point "
              << runner.GetPoints()[i].folder << " (" << runner.Describe(i) << ") "
              << (finished ? "finished" : "failed: " + runner.FailureOf(i)) << "\n";
}

} // namespace

void
SweepDriver::RunHere(const SweepRunner& runner, const std::vector<std::size_t>& which) const
{
    const std::size_t total = runner.GetPoints().size();
    std::cerr << m_tag << " running " << which.size() << " of " << total << " points here, "
              << std::min<std::size_t>(m_workers, which.size()) << " at a time\n";
    SweepProgress progress(total, total - which.size());
    auto start = std::chrono::steady_clock::now();
    runner.RunHere(which, m_workers, [&](std::size_t i) {
        SayEnded(m_tag, runner, i, progress, start);
    });
}

bool
SweepDriver::RunOnSlurm(const SweepRunner& runner,
                        const std::vector<std::size_t>& which,
                        const std::string& out) const
{
    for (std::size_t i : which)
    {
        runner.Forget(i); // ended before: its new end is what is awaited
    }
    std::string script = SlurmArray(runner).WriteScript(which, m_batch);
    std::string job = SlurmArray::Submit(script);
    SlurmArray(runner).Remember(job);
    std::cerr << m_tag << " submitted Slurm job " << job << ": " << which.size() << " task"
              << (which.size() == 1 ? "" : "s") << " (" << script << ")\n";
    if (!m_wait)
    {
        std::cerr << m_tag << " not waiting: once it ends, " << m_collect << " collects it\n";
        return false;
    }
    std::cerr << m_tag << " waiting for it (Ctrl-C stops the waiting, not the job; 'scancel " << job
              << "' stops the job)\n";
    const std::size_t total = runner.GetPoints().size();
    SweepProgress progress(total, total - which.size());
    auto start = std::chrono::steady_clock::now();
    std::vector<std::size_t> waiting = which;
    StopSignals stops;
    for (bool queued = true; !waiting.empty() && queued;)
    {
        if (int signal = stops.WaitFor(m_poll))
        {
            throw StopSignalReceived(signal,
                                     "stopped waiting; Slurm job " + job + " goes on ('scancel " +
                                         job + "' stops it), and once it ends " + m_collect +
                                         " collects it");
        }
        queued = SlurmArray::InQueue(job); // first: a task that left the queue has ended
        for (auto it = waiting.begin(); it != waiting.end();)
        {
            if (runner.StateOf(*it) == SweepRunner::PENDING)
            {
                ++it;
                continue;
            }
            SayEnded(m_tag, runner, *it, progress, start);
            it = waiting.erase(it);
        }
    }
    for (std::size_t i : waiting)
    {
        std::cerr << m_tag << " point " << runner.GetPoints()[i].folder << " ("
                  << runner.Describe(i) << "): job " << job
                  << " ended without finishing it (Slurm's output of the task: " << out << "/slurm/"
                  << job << "_" << i << ".out)\n";
    }
    return true;
}

bool
SweepDriver::Run(const SweepRunner& runner, const std::string& out) const
{
    // Before anything is written: the queued job's tasks read these folders.
    SlurmArray(runner).CheckNoneQueued();
    runner.Prepare();
    std::vector<std::size_t> which = PointsToRun(runner);
    std::size_t finished = 0;
    for (std::size_t i = 0; i < runner.GetPoints().size(); ++i)
    {
        finished += runner.StateOf(i) == SweepRunner::FINISHED ? 1 : 0;
    }
    if (finished > 0 && m_points.empty())
    {
        std::cerr << m_tag << " " << finished << " of " << runner.GetPoints().size()
                  << " points already finished in " << out << ": skipped\n";
    }
    if (which.empty())
    {
        return true;
    }
    if (m_slurm)
    {
        return RunOnSlurm(runner, which, out);
    }
    RunHere(runner, which);
    return true;
}

std::optional<int>
SweepDriver::RunToEnd(const SweepRunner& runner, const std::string& out) const
{
    try
    {
        if (!Run(runner, out))
        {
            return 0; // on Slurm, not waited for: --merge or the same command collects it
        }
    }
    catch (const StopSignalReceived& stopped)
    {
        std::cerr << m_program << ": " << stopped.what() << "\n";
        return stopped.ExitStatus();
    }
    return std::nullopt;
}

void
SweepDriver::CheckAllRan(const SweepRunner& runner) const
{
    std::size_t pending = 0;
    std::string first;
    for (std::size_t i = 0; i < runner.GetPoints().size(); ++i)
    {
        if (runner.StateOf(i) == SweepRunner::PENDING)
        {
            first = pending++ == 0 ? runner.GetPoints()[i].folder : first;
        }
    }
    if (pending > 0)
    {
        throw std::runtime_error(std::to_string(pending) + " of " +
                                 std::to_string(runner.GetPoints().size()) +
                                 " points did not run (the first: " + first +
                                 "; left out by --points, or stopped): the same command "
                                 "without --points runs them");
    }
}

std::string
SweepDriver::PointError(const SweepRunner& runner, std::size_t i) const
{
    std::string why = runner.FailureOf(i);
    const std::string prefix = "exit status 1: " + m_program + ": error: ";
    return why.rfind(prefix, 0) == 0 ? why.substr(prefix.size()) : why;
}

std::size_t
SweepDriver::ReportUnfinished(const SweepRunner& runner) const
{
    std::size_t failed = 0;
    std::size_t pending = 0;
    for (std::size_t i = 0; i < runner.GetPoints().size(); ++i)
    {
        SweepRunner::State state = runner.StateOf(i);
        if (state == SweepRunner::FAILED)
        {
            ++failed;
            std::cerr << m_tag << " failed: point " << runner.GetPoints()[i].folder << " ("
                      << runner.Describe(i) << "): " << runner.FailureOf(i) << "\n";
        }
        pending += state == SweepRunner::PENDING ? 1 : 0;
    }
    if (failed + pending > 0)
    {
        std::cerr << m_tag << " the same command runs what did not finish (finished points "
                  << "are skipped); --points=N runs point N alone\n";
    }
    return failed;
}

} // namespace ns3

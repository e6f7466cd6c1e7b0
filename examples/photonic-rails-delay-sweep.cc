/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-delay-sweep: iteration time against the OCS reconfiguration delay, for Opus
 * on demand and with provisioning, normalized to electrical rails (the paper's Fig. 8), by
 * running the job packet by packet once per point.
 *
 *   photonic-rails-delay-sweep                               # the paper's Llama3-8B job
 *   photonic-rails-delay-sweep --delays=0,25,100 --jobs=2 --out=sweep
 *   photonic-rails-delay-sweep --model=llama3-8b --tp=4 --fsdp=2 --pp=2 --preset=perlmutter
 *
 * Writes DIR/delay-sweep.csv, DIR/delay-sweep.plt and (gnuplot installed) DIR/delay-sweep.png,
 * and every run's CONTRACT outputs in DIR/runs/<fabric>-<delay>ms/. Runs go in parallel
 * child processes (--jobs). Errors are one line on stderr with a non-zero exit status.
 * SIGINT, SIGTERM or SIGHUP (unless ignored, as under nohup) stop the running children too
 * (the signal is forwarded to them and they are reaped); the sweep then exits with 128 + the
 * signal's number after a one-line message.
 */

#include "ns3/core-module.h"
#include "ns3/delay-ms-list.h"
#include "ns3/experiment-output.h"
#include "ns3/gnuplot.h"
#include "ns3/job-runner.h"
#include "ns3/job-workload.h"
#include "ns3/json-input.h"
#include "ns3/strict-command-line.h"
#include "ns3/testbed-measurements.h"
#include "ns3/text-table.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-delay-sweep";

/// Every flag of the program, with its default.
struct Options : JobOptions
{
    JobWorkload source;                                //!< --dag or the generator's flags
    std::string delays{"0,1,5,10,25,50,100"};          //!< ms, comma-separated
    std::string baseline{"eps"};                       //!< Electrical rails to normalize to
    std::string modes{"ocs,ocs-provisioning"};         //!< The Opus fabrics swept
    uint32_t jobs{2};                                  //!< Runs at once
    std::string out{"photonic-rails-delay-sweep-out"}; //!< Output folder
    bool plot{true};                                   //!< Render the PNG
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

/// Name of a run's log in its folder: what it printed (photonic-rails-sim's messages).
const char* const RUN_LOG = "run.log";

/// Writes \p line and a newline to stderr in one write, so that it never shares a line.
void
PrintLine(const std::string& line)
{
    std::string text = line + "\n";
    std::cerr.write(text.data(), std::streamsize(text.size())).flush();
}

/**
 * Sends this process's stdout and stderr to \p path: runs in parallel would interleave
 * their messages mid-line on the terminal.
 * \return false (with a line on stderr) if the file cannot be opened
 */
bool
RedirectOutput(const std::string& dir, const std::string& path)
{
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
    {
        PrintLine(std::string(PROGRAM) + ": error: " + path + ": cannot open the file for writing");
        return false;
    }
    close(fd);
    return true;
}

/// Runs one point in this process (a child): its summary.json is the result, its messages
/// go to its run.log.
int
RunPoint(Options o, std::shared_ptr<const WorkloadDag> dag, const Point& point)
{
    if (!RedirectOutput(point.dir, point.dir + "/" + RUN_LOG))
    {
        return 1;
    }
    int status = 0;
    try
    {
        o.reconfigDelayTime = NanoSeconds(std::llround(point.delayMs * 1e6));
        o.progress = 0;
        JobRunner::Run(o, dag, point.fabric, point.dir);
    }
    catch (const std::exception& e)
    {
        // The parent shows this last line of the log.
        std::cerr << PROGRAM << ": error: " << point.fabric.name << " at "
                  << DelayText(point.delayMs, 0) << " ms: " << e.what() << "\n";
        status = 1;
    }
    std::cout.flush(); // the child ends with _exit, which flushes nothing
    std::cerr.flush();
    std::fflush(nullptr);
    return status;
}

/// \return the last line of a run's log that is not blank ("" if none or unreadable)
std::string
LastLogLine(const Point& point)
{
    std::ifstream in(point.dir + "/" + RUN_LOG);
    std::string line;
    std::string last;
    while (std::getline(in, line))
    {
        if (line.find_first_not_of(" \t\r") != std::string::npos)
        {
            last = line;
        }
    }
    return last;
}

/// \return why a failed run failed, in one line: its error line (from its log) or status
std::string
Failure(const Point& point, int status)
{
    std::string where = point.fabric.name + " at " + DelayText(point.delayMs, 0) + " ms";
    std::string log = point.dir + "/" + RUN_LOG;
    if (WIFSIGNALED(status))
    {
        return where + " was killed by signal " + std::to_string(WTERMSIG(status)) +
               " (its messages: " + log + ")";
    }
    std::string last = LastLogLine(point);
    const std::string prefix = std::string(PROGRAM) + ": error: ";
    if (last.rfind(prefix, 0) == 0)
    {
        return last.substr(prefix.size()) + " (its messages: " + log + ")";
    }
    return where + " failed with exit status " + std::to_string(WEXITSTATUS(status)) +
           (last.empty() ? " and no message" : ": " + last) + " (its messages: " + log + ")";
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

/// The sweep received a signal that ends it; its running simulations are stopped and reaped.
class SweepStopped : public std::runtime_error
{
  public:
    SweepStopped(int signal, std::size_t stopped)
        : std::runtime_error("stopped by " + SignalName(signal) + ": " + std::to_string(stopped) +
                             " running simulation" + (stopped == 1 ? "" : "s") + " stopped"),
          m_signal(signal)
    {
    }

    /// \return the exit status a shell reports for a program ended by the signal
    int ExitStatus() const
    {
        return 128 + m_signal;
    }

  private:
    static std::string SignalName(int signal)
    {
        return signal == SIGINT    ? "SIGINT"
               : signal == SIGTERM ? "SIGTERM"
               : signal == SIGHUP  ? "SIGHUP"
                                   : "signal " + std::to_string(signal);
    }

    int m_signal; //!< The signal received
};

/**
 * Child processes running points. SIGINT, SIGTERM and SIGHUP (those not ignored when the
 * sweep started) stop the sweep: Wait() forwards the signal to every running child, reaps
 * them and throws SweepStopped. On destruction (an error) the running ones are stopped with
 * SIGTERM.
 *
 * The parent blocks those signals and SIGCHLD and takes them with sigwaitinfo(), so a signal
 * that arrives between a check and a wait is not lost; children restore the parent's mask.
 */
class Children
{
  public:
    Children()
    {
        sigemptyset(&m_stopSignals);
        for (int signal : {SIGINT, SIGTERM, SIGHUP})
        {
            // One ignored on purpose stays ignored (nohup ignores SIGHUP; a shell without
            // job control starts background commands with SIGINT ignored).
            struct sigaction action;
            if (sigaction(signal, nullptr, &action) == 0 && action.sa_handler != SIG_IGN)
            {
                sigaddset(&m_stopSignals, signal);
            }
        }
        m_awaited = m_stopSignals;
        sigaddset(&m_awaited, SIGCHLD);
        sigprocmask(SIG_BLOCK, &m_awaited, &m_previousMask);
    }

    ~Children()
    {
        Stop(SIGTERM);
        if (!m_stopped)
        {
            sigprocmask(SIG_SETMASK, &m_previousMask, nullptr);
        }
    }

    Children(const Children&) = delete;
    Children& operator=(const Children&) = delete;

    /// Starts point \p index in a child running \p run.
    template <typename F>
    void Start(std::size_t index, F run)
    {
        std::cout.flush();
        std::cerr.flush();
        pid_t pid = fork();
        if (pid < 0)
        {
            throw std::runtime_error("cannot start a child process");
        }
        if (pid == 0)
        {
            sigprocmask(SIG_SETMASK, &m_previousMask, nullptr);
            _exit(run());
        }
        m_running[pid] = index;
    }

    /// \return the number of running children
    std::size_t Running() const
    {
        return m_running.size();
    }

    /// Throws SweepStopped (after stopping the children) if a stop signal is pending.
    void ThrowIfStopped()
    {
        const timespec now{0, 0};
        int signal = sigtimedwait(&m_stopSignals, nullptr, &now);
        if (signal > 0)
        {
            StopAndThrow(signal);
        }
    }

    /// Waits for a child to end. \param status its exit status \return its point
    std::size_t Wait(int& status)
    {
        while (true)
        {
            // A stop signal first: a child killed by the terminal's Ctrl-C is not a failure.
            ThrowIfStopped();
            pid_t pid = waitpid(-1, &status, WNOHANG);
            if (pid > 0)
            {
                return Reaped(pid);
            }
            if (pid < 0 && errno != EINTR)
            {
                throw std::runtime_error("lost track of the child processes");
            }
            siginfo_t info;
            int signal = sigwaitinfo(&m_awaited, &info); // a child ended, or a stop signal
            if (signal > 0 && signal != SIGCHLD)
            {
                StopAndThrow(signal);
            }
        }
    }

  private:
    std::size_t Reaped(pid_t pid)
    {
        auto found = m_running.find(pid);
        if (found == m_running.end())
        {
            throw std::runtime_error("lost track of a child process");
        }
        std::size_t index = found->second;
        m_running.erase(found);
        return index;
    }

    /// Sends \p signal to every running child and reaps them all.
    void Stop(int signal)
    {
        for (const auto& [pid, index] : m_running)
        {
            kill(pid, signal);
        }
        for (const auto& [pid, index] : m_running)
        {
            while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR)
            {
            }
        }
        m_running.clear();
    }

    [[noreturn]] void StopAndThrow(int signal)
    {
        std::size_t running = m_running.size();
        Stop(signal);
        m_stopped = true; // stays blocked: the program ends with 128 + signal
        throw SweepStopped(signal, running);
    }

    std::map<pid_t, std::size_t> m_running; //!< pid -> point
    sigset_t m_stopSignals;                 //!< SIGINT, SIGTERM, SIGHUP
    sigset_t m_awaited;                     //!< Those and SIGCHLD
    sigset_t m_previousMask;                //!< The mask before (children get it back)
    bool m_stopped{false};                  //!< A stop signal ended the sweep
};

/// Runs every point, at most \p jobs at once, each in a child process.
void
RunAll(const Options& o, std::shared_ptr<const WorkloadDag> dag, std::vector<Point>& points)
{
    Children children;
    std::size_t next = 0;
    std::size_t done = 0;
    std::string failure;
    while (done < next || (failure.empty() && next < points.size()))
    {
        while (failure.empty() && next < points.size() && children.Running() < o.jobs)
        {
            const Point& point = points[next];
            children.Start(next++, [&o, &dag, &point]() { return RunPoint(o, dag, point); });
        }
        int status = 0;
        std::size_t index = children.Wait(status);
        ++done;
        Point& point = points[index];
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        {
            // The first failure is the error; the running ones finish, the rest do not start.
            std::string why = Failure(point, status);
            PrintLine("[sweep] " + std::to_string(done) + "/" + std::to_string(points.size()) +
                      ": failed: " + why);
            failure = failure.empty() ? why : failure;
            continue;
        }
        point.result = ReadPoint(point);
        std::ostringstream line;
        line << "[sweep] " << done << "/" << points.size() << ": " << point.fabric.name << " at "
             << DelayText(point.delayMs, 0) << " ms: iteration "
             << point.result.steadyIterationTime * 1e3 << " ms (" << point.result.wall
             << " s wall; messages in " << point.dir << "/" << RUN_LOG << ")";
        PrintLine(line.str());
    }
    children.ThrowIfStopped(); // one that came after the last child ended
    if (!failure.empty())
    {
        throw std::runtime_error(failure);
    }
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
main(int argc, char* argv[])
{
    Options o;
    return RunProgram(
        argc,
        argv,
        PROGRAM,
        __FILE__,
        "Iteration time vs OCS reconfiguration delay for Opus on demand "
        "and with provisioning, normalized to electrical rails (paper "
        "Fig. 8).\nWithout --dag or generator flags it runs the paper's "
        "measured job (--job=b16) on the testbed as measured, at 0, 100, "
        "1000 and 3000 ms, in the testbed's emulation and on optical "
        "rails, beside the measured steps and their slopes.",
        [&o](StrictCommandLine& cmd) {
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
            cmd.Add("jobs", "simulations at once (child processes)", o.jobs);
            cmd.Add("out", "output folder", o.out);
            cmd.Add("plot", "render the PNG with gnuplot when it is installed", o.plot);
        },
        [&o](const StrictCommandLine& cmd) {
            try
            {
                if (cmd.IsGiven("reconfigDelay"))
                {
                    throw std::invalid_argument(
                        "--reconfigDelay is what the sweep varies: use --delays");
                }
                if (o.jobs == 0 || o.jobs > 64)
                {
                    throw std::invalid_argument("--jobs must be in [1, 64]");
                }
                if (o.source.ApplyDefault(cmd, o))
                {
                    if (!cmd.IsGiven("delays"))
                    {
                        o.delays = "0,100,1000,3000";
                    }
                    if (!cmd.IsGiven("modes"))
                    {
                        o.modes = "emulated,emulated-provisioning,ocs,ocs-provisioning";
                    }
                    std::cerr << "[sweep] the paper's measured job (--job=b16) on the testbed as "
                                 "measured (perlmutter-testbed), "
                              << o.iterations << " iterations per run\n";
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
                for (const std::string& note : o.source.GetNotes())
                {
                    std::cerr << "[sweep] " << note << "\n";
                }
                ExperimentOutput out(o.out, "[sweep]");
                std::vector<Point> points = MakePoints(o, out.GetDir().string());
                std::vector<JobFabric> fabrics;
                for (const Point& point : points)
                {
                    fabrics.push_back(point.fabric);
                }
                JobRunner::CheckAttributesApply(cmd.GetAttributes(),
                                                o,
                                                fabrics,
                                                dag->GetRankCount());
                for (const std::string& note : JobRunner::CheckBeforeRuns(o, fabrics, *dag))
                {
                    std::cerr << "[sweep] " << note << "\n";
                }
                if (o.iterations < 2)
                {
                    std::cerr
                        << "[sweep] note: with 1 iteration provisioning never acts (it profiles "
                           "the first iteration)\n";
                }
                std::cerr << "[sweep] " << points.size() << " runs, " << o.jobs << " at a time\n";
                RunAll(o, dag, points);
                std::ofstream csv = out.Open("delay-sweep.csv");
                Report(points, measuredJob, o.ringSteps, csv);
                std::ofstream slopes = out.Open("delay-sweep-slopes.csv");
                ReportSlopes(points, measuredJob, slopes);
                std::cerr << "[sweep] wrote " << (out.GetDir() / "delay-sweep.csv").string()
                          << " and " << (out.GetDir() / "delay-sweep-slopes.csv").string() << "\n";
                Plot(points, measuredJob, out, o.plot);
                return 0;
            }
            catch (const SweepStopped& stopped)
            {
                std::cerr << PROGRAM << ": " << stopped.what() << "\n";
                return stopped.ExitStatus();
            }
        });
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sweep-runner.h"

#include "child-processes.h"
#include "experiment-output.h"

#include "ns3/json-input.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

namespace
{

const char* const EXIT_STATUS = "exit-status"; //!< A point's exit status, written last
const char* const RUN_LOG = "run.log";         //!< What photonic-rails-sim printed
const char* const SCRIPT = "command.sh";       //!< How the point runs

/// \return a file's whole text, "" if it cannot be read
std::string
ReadText(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

SweepRunner::SweepRunner(std::filesystem::path dir,
                         std::string program,
                         std::vector<SweepPoint> points)
    : m_dir(std::filesystem::absolute(dir).lexically_normal()),
      m_workdir(std::filesystem::current_path().string()),
      m_program(std::move(program)),
      m_points(std::move(points))
{
    // A rebuilt program may print other numbers: its size and time make the points' scripts
    // differ, so that they run anew rather than mix with the old build's results.
    struct stat info;
    m_build = stat(m_program.c_str(), &info) != 0
                  ? "unknown"
                  : std::to_string(info.st_size) + " bytes, modified at " +
                        std::to_string(info.st_mtim.tv_sec) + "." +
                        std::to_string(info.st_mtim.tv_nsec) + " s (Unix time)";
}

std::string
SweepRunner::Describe(std::size_t i) const
{
    std::string text;
    for (const auto& [flag, value] : m_points.at(i).labels)
    {
        text += (text.empty() ? "" : " ") + flag + "=" + value;
    }
    return text;
}

std::string
SweepRunner::Script(std::size_t i) const
{
    std::ostringstream s;
    s << "#!/bin/sh\n"
      << "# Point " << m_points[i].folder << " of a photonic-rails sweep: " << Describe(i) << "\n"
      << "# Its exit status goes to " << EXIT_STATUS
      << " last, by a rename: a point without one did not end.\n"
      << "# It runs where the sweep started, so that relative paths in its flags hold.\n"
      << "# The program's build: " << m_build << "\n"
      << "cd " << ExperimentOutput::ShellQuote(m_workdir) << " || exit 1\n"
      << "folder=" << ExperimentOutput::ShellQuote(FolderOf(i).string()) << "\n"
      << "rm -f \"$folder/" << EXIT_STATUS << "\"\n"
      << ExperimentOutput::ShellQuote(m_program);
    for (const std::string& argument : m_points[i].arguments)
    {
        s << " \\\n  " << ExperimentOutput::ShellQuote(argument);
    }
    s << " >\"$folder/" << RUN_LOG << "\" 2>&1\n"
      << "status=$?\n"
      << "echo \"$status\" >\"$folder/" << EXIT_STATUS << ".part\" && mv \"$folder/" << EXIT_STATUS
      << ".part\" \"$folder/" << EXIT_STATUS << "\"\n"
      << "exit \"$status\"\n";
    return s.str();
}

void
SweepRunner::Prepare() const
{
    std::string list;
    for (std::size_t i = 0; i < m_points.size(); ++i)
    {
        std::filesystem::path folder = FolderOf(i);
        std::string script = Script(i);
        if (ReadText(folder / SCRIPT) != script)
        {
            Forget(i); // what ended there ran other flags: this point runs anew
        }
        std::error_code error;
        std::filesystem::create_directories(folder, error);
        if (error)
        {
            throw std::runtime_error(folder.string() + ": cannot make the folder (" +
                                     error.message() + ")");
        }
        ExperimentOutput::WriteAtomically(folder / SCRIPT, script);
        list += m_points[i].folder + "\n";
    }
    ExperimentOutput::WriteAtomically(m_dir / "points.txt", list);
    nlohmann::json saved = {{"program", m_program},
                            {"workdir", m_workdir},
                            {"points", nlohmann::json::array()}};
    for (const SweepPoint& p : m_points)
    {
        saved["points"].push_back(
            {{"folder", p.folder}, {"labels", p.labels}, {"arguments", p.arguments}});
    }
    ExperimentOutput::WriteAtomically(m_dir / "sweep.json", saved.dump(1) + "\n");
}

SweepRunner
SweepRunner::Load(const std::filesystem::path& dir)
{
    std::string path = (dir / "sweep.json").string();
    if (!std::filesystem::exists(path))
    {
        throw std::runtime_error(dir.string() + ": no sweep here (no sweep.json)");
    }
    nlohmann::json saved = JsonInput::ReadFile(path, "sweep");
    try
    {
        std::vector<SweepPoint> points;
        for (const nlohmann::json& p : saved.at("points"))
        {
            points.push_back({p.at("folder").get<std::string>(),
                              p.at("labels").get<decltype(SweepPoint::labels)>(),
                              p.at("arguments").get<std::vector<std::string>>()});
        }
        if (points.empty())
        {
            throw std::runtime_error("no point");
        }
        SweepRunner runner(dir, saved.at("program").get<std::string>(), points);
        runner.m_workdir = saved.at("workdir").get<std::string>();
        runner.m_asSaved = true;
        return runner;
    }
    catch (const std::exception& e)
    {
        throw std::runtime_error(path + ": not a sweep that photonic-rails-sweep wrote (" +
                                 e.what() + ")");
    }
}

void
SweepRunner::Forget(std::size_t i) const
{
    std::error_code error;
    std::filesystem::remove(FolderOf(i) / EXIT_STATUS, error);
}

bool
SweepRunner::SamePoints(const SweepRunner& other) const
{
    return std::equal(m_points.begin(),
                      m_points.end(),
                      other.m_points.begin(),
                      other.m_points.end(),
                      [](const SweepPoint& a, const SweepPoint& b) {
                          return a.folder == b.folder && a.labels == b.labels &&
                                 a.arguments == b.arguments;
                      });
}

const std::filesystem::path&
SweepRunner::GetDir() const
{
    return m_dir;
}

const std::vector<SweepPoint>&
SweepRunner::GetPoints() const
{
    return m_points;
}

std::filesystem::path
SweepRunner::FolderOf(std::size_t i) const
{
    return m_dir / "runs" / m_points.at(i).folder;
}

SweepRunner::State
SweepRunner::StateOf(std::size_t i) const
{
    std::filesystem::path path = FolderOf(i) / EXIT_STATUS;
    // A sweep read back from its folder (--merge --out=DIR) takes what each run folder says:
    // the folder may have moved (copied off a cluster), which changes every script's paths.
    if (!std::filesystem::exists(path) ||
        (!m_asSaved && ReadText(FolderOf(i) / SCRIPT) != Script(i)))
    {
        return PENDING; // not run, stopped, or run with other flags (another sweep's)
    }
    return ReadText(path) == "0\n" ? FINISHED : FAILED;
}

std::string
SweepRunner::FailureOf(std::size_t i) const
{
    std::filesystem::path log = FolderOf(i) / RUN_LOG;
    std::istringstream lines(ReadText(log));
    std::string last;
    for (std::string line; std::getline(lines, line);)
    {
        if (line.find_first_not_of(" \t\r") != std::string::npos)
        {
            last = line;
        }
    }
    std::string status = ReadText(FolderOf(i) / EXIT_STATUS);
    std::string why = status.empty() ? "it did not end (stopped, or killed)"
                                     : "exit status " + status.substr(0, status.find('\n'));
    return why + (last.empty() ? "" : ": " + last) + " (its messages: " + log.string() + ")";
}

void
SweepRunner::RunHere(const std::vector<std::size_t>& which,
                     uint32_t workers,
                     const std::function<void(std::size_t)>& ended) const
{
    ChildProcesses children;
    std::size_t next = 0;
    while (next < which.size() || children.Running() > 0)
    {
        while (next < which.size() && children.Running() < workers)
        {
            std::size_t i = which[next++];
            std::string script = (FolderOf(i) / SCRIPT).string();
            children.Start(i, [&script]() {
                execl("/bin/sh", "sh", script.c_str(), static_cast<char*>(nullptr));
                return 127; // no shell: the point failed without a run
            });
        }
        int status = 0;
        ended(children.Wait(status)); // its exit-status file says how it ended
    }
    children.ThrowIfStopped(); // one that came after the last child ended
}

std::string
SweepRunner::ThisProgram()
{
    std::error_code error;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
    {
        throw std::runtime_error("cannot tell where this program is (/proc/self/exe)");
    }
    return self.string();
}

std::string
SweepRunner::FindSimulator(const std::string& program)
{
    std::filesystem::path self = ThisProgram();
    std::string name = self.filename().string();
    std::size_t at = name.rfind(program);
    if (at == std::string::npos)
    {
        throw std::runtime_error("cannot find photonic-rails-sim beside this program: give "
                                 "--simulator=PATH");
    }
    std::filesystem::path simulator =
        self.parent_path() / name.replace(at, program.size(), "photonic-rails-sim");
    if (access(simulator.c_str(), X_OK) != 0)
    {
        throw std::runtime_error("cannot find photonic-rails-sim beside this program (no " +
                                 simulator.string() + "): give --simulator=PATH");
    }
    return simulator.string();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slurm-array.h"

#include "experiment-output.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

namespace ns3
{

namespace
{

/// Runs \p command under sh. \param output receives its stdout and stderr \return its status
int
Capture(const std::string& command, std::string& output)
{
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr)
    {
        throw std::runtime_error("cannot run " + command);
    }
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0;)
    {
        output.append(buffer, n);
    }
    int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// \return \p text on one line, without its trailing blanks
std::string
OneLine(std::string text)
{
    for (char& c : text)
    {
        c = c == '\n' ? ' ' : c;
    }
    return text.substr(0, text.find_last_not_of(" \t\r") + 1);
}

} // namespace

SlurmArray::SlurmArray(const SweepRunner& runner)
    : m_runner(runner)
{
}

std::string
SlurmArray::ArrayList(const std::vector<std::size_t>& which)
{
    std::string list;
    for (std::size_t i = 0; i < which.size();)
    {
        std::size_t j = i;
        while (j + 1 < which.size() && which[j + 1] == which[j] + 1)
        {
            ++j;
        }
        list += (list.empty() ? "" : ",") + std::to_string(which[i]) +
                (j > i ? "-" + std::to_string(which[j]) : "");
        i = j + 1;
    }
    return list;
}

void
SlurmArray::Remember(const std::string& job) const
{
    std::ofstream(m_runner.GetDir() / "slurm" / "job") << job << "\n";
}

void
SlurmArray::CheckNoneQueued() const
{
    std::ifstream in(m_runner.GetDir() / "slurm" / "job");
    std::string job;
    if (!std::getline(in, job) || job.empty())
    {
        return;
    }
    bool queued = false;
    try
    {
        queued = InQueue(job);
    }
    catch (const std::runtime_error&)
    {
        return; // no Slurm to ask here (the folder came from a cluster): nothing runs twice
    }
    if (queued)
    {
        throw std::runtime_error("Slurm job " + job + " of this sweep is still queued or " +
                                 "running: wait for it to end ('scancel " + job +
                                 "' stops it), then run what it left");
    }
}

std::string
SlurmArray::WriteScript(const std::vector<std::size_t>& which, const Options& options) const
{
    std::filesystem::path dir = m_runner.GetDir();
    std::filesystem::create_directories(dir / "slurm");
    std::ostringstream s;
    s << "#!/bin/sh\n"
      << "#SBATCH --job-name=photonic-rails-sweep\n"
      << "#SBATCH --array=" << ArrayList(which) << "\n"
      << "#SBATCH --output=" << (dir / "slurm" / "%A_%a.out").string() << "\n"
      << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    if (!options.partition.empty())
    {
        s << "#SBATCH --partition=" << options.partition << "\n";
    }
    if (!options.time.empty())
    {
        s << "#SBATCH --time=" << options.time << "\n";
    }
    if (!options.memory.empty())
    {
        s << "#SBATCH --mem=" << options.memory << "\n";
    }
    s << "# One point of the sweep per task (photonic-rails-sim is single-threaded): task N\n"
      << "# runs the point on line N + 1 of points.txt, as photonic-rails-sweep does here.\n"
      << "folder=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" "
      << ExperimentOutput::ShellQuote((dir / "points.txt").string()) << ")\n"
      << "exec sh "
      << ExperimentOutput::ShellQuote((dir / "runs").string()) + "/\"$folder\"/command.sh\n";
    std::string path = (dir / "sweep.sbatch").string();
    ExperimentOutput::WriteAtomically(path, s.str());
    return path;
}

std::string
SlurmArray::Submit(const std::string& script)
{
    std::string output;
    if (Capture("command -v sbatch", output) != 0)
    {
        throw std::runtime_error("--slurm: sbatch is not installed here (Debian: slurm-client); "
                                 "submit from a machine of the cluster");
    }
    output.clear();
    int status = Capture("sbatch --parsable " + ExperimentOutput::ShellQuote(script), output);
    std::string id = output.substr(0, output.find_first_of(";\n"));
    if (status != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    {
        throw std::runtime_error("sbatch refused the sweep (exit status " + std::to_string(status) +
                                 "): " + OneLine(output));
    }
    return id;
}

bool
SlurmArray::InQueue(const std::string& job)
{
    std::string output;
    int status = Capture("squeue --noheader --format=%i --jobs=" + job, output);
    if (status != 0)
    {
        // Once a job has left the controller's memory squeue calls its id invalid.
        if (output.find("Invalid job id") != std::string::npos)
        {
            return false;
        }
        throw std::runtime_error("squeue cannot tell how job " + job +
                                 " stands: " + OneLine(output));
    }
    return output.find_first_not_of(" \t\r\n") != std::string::npos;
}

} // namespace ns3

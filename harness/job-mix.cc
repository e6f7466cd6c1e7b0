/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-mix.h"

#include "ns3/input-text.h"
#include "ns3/job-placement.h"
#include "ns3/job-workload.h"
#include "ns3/log.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/strict-command-line.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobMix");

namespace
{

/// \return the flag's name in \p token ("--tp=2" -> "tp")
std::string
FlagName(const std::string& token)
{
    std::size_t dashes = token.rfind("--", 0) == 0 ? 2 : (token.rfind('-', 0) == 0 ? 1 : 0);
    std::size_t equal = token.find('=');
    return token.substr(dashes, equal == std::string::npos ? std::string::npos : equal - dashes);
}

/// \return \p token with a relative path of a file flag taken from \p folder (the jobs
///         file's): a jobs file names its workloads where it lies
std::string
InFolder(const std::string& token,
         const std::vector<std::string>& fileFlags,
         const std::string& folder)
{
    std::size_t equal = token.find('=');
    bool file = std::find(fileFlags.begin(), fileFlags.end(), FlagName(token)) != fileFlags.end();
    if (!file || equal == std::string::npos || equal + 1 == token.size() ||
        token[equal + 1] == '/' || folder.empty())
    {
        return token;
    }
    std::filesystem::path path = std::filesystem::path(folder) / token.substr(equal + 1);
    return token.substr(0, equal + 1) + path.lexically_normal().string();
}

/// \return "job \"a\": " for messages
std::string
JobPrefix(const JobEntry& entry)
{
    return "job \"" + entry.name + "\": ";
}

} // namespace

JobMix::JobMix(const std::string& path, const std::vector<JobEntry>& entries, const JobOptions& o)
    : m_path(path),
      m_folder(path.find('/') == std::string::npos
                   ? ""
                   : path.substr(0, std::max<std::size_t>(1, path.rfind('/'))))
{
    NS_LOG_FUNCTION(path << entries.size());
    m_gpusPerServer = o.GpusPerServer();
    m_servers = o.servers > 0 ? o.servers : JobPlacement::ServersNeeded(entries);
    if (uint64_t(m_servers) * m_gpusPerServer > RailFabricSpec::MAX_GPUS)
    {
        // Before placement, which keeps a name per server.
        throw InputFileError(path,
                             "the jobs need " + std::to_string(m_servers) + " servers of " +
                                 std::to_string(m_gpusPerServer) + " GPUs, beyond the " +
                                 std::to_string(RailFabricSpec::MAX_GPUS) +
                                 " GPUs a fabric may have");
    }
    std::vector<std::vector<uint32_t>> placed;
    try
    {
        placed = JobPlacement::Place(entries, m_servers, o.seed);
    }
    catch (const std::invalid_argument& e)
    {
        throw InputFileError(path, e.what());
    }
    for (std::size_t j = 0; j < entries.size(); ++j)
    {
        JobSlice slice;
        slice.name = entries[j].name;
        slice.servers = placed[j];
        slice.start = entries[j].start;
        slice.iterations = entries[j].iterations;
        m_dags.push_back(Load(entries[j], o, slice.workload));
        uint64_t ranks = uint64_t(slice.servers.size()) * m_gpusPerServer;
        if (m_dags.back()->GetRankCount() != ranks)
        {
            throw InputFileError(path,
                                 JobPrefix(entries[j]) + "its workload has " +
                                     std::to_string(m_dags.back()->GetRankCount()) +
                                     " ranks and its " + std::to_string(slice.servers.size()) +
                                     " servers hold " + std::to_string(ranks) + " GPUs (" +
                                     std::to_string(m_gpusPerServer) + " per server)");
        }
        uint32_t held = std::max(1u, m_dags.back()->GetIterationCount());
        uint32_t first = std::max(1u, m_dags.front()->GetIterationCount());
        if (held != first)
        {
            // Opus's shims and the reports count a job's iterations as replay x the DAG's
            // iterations over the one merged DAG.
            throw InputFileError(
                path,
                JobPrefix(entries[j]) + "its workload holds " + std::to_string(held) +
                    " iterations (op iteration labels) and job \"" + entries.front().name +
                    "\"'s holds " + std::to_string(first) +
                    ": the jobs of one file must hold the same number (replays are each "
                    "job's \"iterations\")");
        }
        for (uint32_t rank = 0; rank < ranks; ++rank)
        {
            slice.gpus.push_back(slice.servers[rank / m_gpusPerServer] * m_gpusPerServer +
                                 rank % m_gpusPerServer);
        }
        m_jobs.push_back(std::move(slice));
    }
    std::vector<std::size_t> all(m_jobs.size());
    for (std::size_t j = 0; j < all.size(); ++j)
    {
        all[j] = j;
    }
    m_merged = Merge(all);
}

std::shared_ptr<const WorkloadDag>
JobMix::Load(const JobEntry& entry, const JobOptions& o, std::string& description) const
{
    JobWorkload workload;
    StrictCommandLine cmd(__FILE__, "a job's workload");
    workload.AddFlags(cmd);
    std::vector<std::string> names = workload.GetFlagNames();
    std::vector<char*> argv = {const_cast<char*>("job")};
    std::vector<std::string> tokens;
    for (const std::string& token : entry.workload)
    {
        // Only workload flags: an attribute or a global would change every job's run.
        if (std::find(names.begin(), names.end(), FlagName(token)) == names.end())
        {
            throw InputFileError(
                m_path,
                JobPrefix(entry) + StrictCommandLine::Quote(token) +
                    " is not a workload flag (a job's workload takes --dag, --chakra "
                    "with --commGroups, --job or the generator's flags; "
                    "hardware, fabric and attributes go on the command line)");
        }
        tokens.push_back(InFolder(token, workload.GetFileFlagNames(), m_folder));
    }
    for (const std::string& token : tokens)
    {
        argv.push_back(const_cast<char*>(token.c_str()));
    }
    JobOptions jo = o;
    jo.iterations = entry.iterations;
    try
    {
        cmd.Parse(int(argv.size()), argv.data());
        workload.ApplyDefault(cmd, jo);
        if (jo.gpusPerServer != 0 && jo.gpusPerServer != m_gpusPerServer)
        {
            throw std::invalid_argument("its --job runs " + std::to_string(jo.gpusPerServer) +
                                        " GPUs per server and the fabric has " +
                                        std::to_string(m_gpusPerServer) +
                                        " (--gpusPerServer, --preset)");
        }
        jo.gpusPerServer = m_gpusPerServer;
        std::shared_ptr<const WorkloadDag> dag = workload.Load(cmd, jo);
        description = jo.workload;
        return dag;
    }
    catch (const std::invalid_argument& e)
    {
        throw InputFileError(m_path, JobPrefix(entry) + e.what());
    }
    catch (const InputFileError& e)
    {
        throw InputFileError(m_path, JobPrefix(entry) + e.what());
    }
}

std::shared_ptr<const WorkloadDag>
JobMix::Merge(const std::vector<std::size_t>& which) const
{
    // One job keeps its group names: its run is the run of that job, byte for byte.
    bool prefix = m_jobs.size() > 1;
    WorkloadDag::GroupMap groups;
    std::vector<WorkloadOp> ops;
    for (std::size_t j : which)
    {
        const JobSlice& job = m_jobs[j];
        JobPlacement::Relocate(*m_dags[j], job.gpus, prefix ? job.name + "/" : "", groups, ops);
    }
    // Ranks up to the highest GPU a job runs on: the GPUs past it have no runtime, as in a
    // job's own run on more servers than it needs.
    uint32_t ranks = 0;
    for (const JobSlice& job : m_jobs)
    {
        for (uint32_t gpu : job.gpus)
        {
            ranks = std::max(ranks, gpu + 1);
        }
    }
    return std::make_shared<const WorkloadDag>(ranks, std::move(groups), std::move(ops));
}

uint32_t
JobMix::GetServers() const
{
    return m_servers;
}

const std::vector<JobSlice>&
JobMix::GetJobs() const
{
    return m_jobs;
}

std::shared_ptr<const WorkloadDag>
JobMix::GetDag() const
{
    return m_merged;
}

std::shared_ptr<const WorkloadDag>
JobMix::GetAloneDag(std::size_t job) const
{
    return Merge({job});
}

uint32_t
JobMix::GetMaxIterations() const
{
    uint32_t most = 1;
    for (const JobSlice& job : m_jobs)
    {
        most = std::max(most, job.iterations);
    }
    return most;
}

JobResult
JobMix::Run(const JobOptions& o, const JobFabric& fabric, const std::string& dir) const
{
    std::vector<JobSlice> slices = m_jobs;
    JobOptions all = o;
    all.servers = m_servers;
    all.iterations = GetMaxIterations();
    all.workload = slices.size() > 1 ? std::to_string(slices.size()) + " jobs (" + m_path + ")"
                                     : slices.front().workload;
    for (std::size_t j = 0; slices.size() > 1 && j < slices.size(); ++j)
    {
        JobOptions alone = all;
        alone.iterations = slices[j].iterations;
        alone.workload = slices[j].workload;
        try
        {
            JobResult result = JobRunner::Run(alone,
                                              GetAloneDag(j),
                                              fabric,
                                              dir + "/alone/" + slices[j].name,
                                              {slices[j]});
            slices[j].aloneIterationTime = result.steadyIterationTime;
            slices[j].aloneDuration = result.makespan - slices[j].start.GetSeconds();
        }
        catch (const std::runtime_error& e)
        {
            // Its ranks in the messages above are the fabric's GPUs (JobSlice::gpus).
            throw std::runtime_error("job \"" + slices[j].name + "\" alone on " + fabric.name +
                                     ": " + e.what());
        }
    }
    try
    {
        return JobRunner::Run(all, m_merged, fabric, dir, slices);
    }
    catch (const std::runtime_error& e)
    {
        throw std::runtime_error((slices.size() > 1 ? "the jobs together on " : "the job on ") +
                                 fabric.name + ": " + e.what());
    }
}

} // namespace ns3

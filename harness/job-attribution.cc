/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-attribution.h"

#include <set>

namespace ns3
{

namespace
{

/// \return the number \p text starts with at \p at (\p ok false if none)
uint32_t
NumberAt(const std::string& text, std::size_t at, bool& ok)
{
    std::size_t end = at;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9')
    {
        ++end;
    }
    ok = end > at && end - at <= 9;
    return ok ? uint32_t(std::stoul(text.substr(at, end - at))) : 0;
}

} // namespace

JobAttribution::JobAttribution(const std::vector<JobSlice>& jobs,
                               uint32_t gpus,
                               uint32_t gpusPerServer)
    : m_jobs(jobs),
      m_ofGpu(gpus, NONE),
      m_gpusPerServer(gpusPerServer)
{
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        for (uint32_t gpu : jobs[j].gpus)
        {
            m_ofGpu.at(gpu) = int(j);
        }
    }
}

int
JobAttribution::OfGpu(uint32_t gpu) const
{
    return gpu < m_ofGpu.size() ? m_ofGpu[gpu] : NONE;
}

int
JobAttribution::OfName(const std::string& name) const
{
    for (const char* repair : {"reconnect:", "detour:"})
    {
        std::string prefix(repair);
        if (name.rfind(prefix, 0) == 0)
        {
            std::string rest = name.substr(prefix.size());
            bool ok = false;
            uint32_t gpu = NumberAt(rest, 0, ok);
            return ok ? OfGpu(gpu) : OfName(rest); // "a-b", or a communication's name
        }
    }
    if (name.rfind("p:", 0) == 0)
    {
        bool ok = false;
        uint32_t gpu = NumberAt(name, 2, ok);
        return ok ? OfGpu(gpu) : NONE;
    }
    std::string group = name.rfind("g:", 0) == 0 ? name.substr(2) : name;
    std::size_t slash = group.find('/');
    for (std::size_t j = 0; slash != std::string::npos && j < m_jobs.size(); ++j)
    {
        if (group.compare(0, slash, m_jobs[j].name) == 0 && m_jobs[j].name.size() == slash)
        {
            return int(j);
        }
    }
    return NONE;
}

std::string
JobAttribution::JobsOf(const std::vector<std::string>& names) const
{
    std::set<int> jobs;
    for (const std::string& name : names)
    {
        int job = OfName(name);
        if (job != NONE)
        {
            jobs.insert(job);
        }
    }
    std::string text;
    for (int job : jobs)
    {
        text += (text.empty() ? "" : " ") + m_jobs[job].name;
    }
    return text;
}

std::vector<std::string>
JobAttribution::GpuJobs() const
{
    std::vector<std::string> names;
    for (int job : m_ofGpu)
    {
        names.push_back(job == NONE ? "" : m_jobs[job].name);
    }
    return names;
}

std::vector<std::string>
JobAttribution::ServerJobs() const
{
    std::vector<std::string> names;
    for (uint32_t gpu = 0; gpu < m_ofGpu.size(); gpu += m_gpusPerServer)
    {
        names.push_back(m_ofGpu[gpu] == NONE ? "" : m_jobs[m_ofGpu[gpu]].name);
    }
    return names;
}

} // namespace ns3

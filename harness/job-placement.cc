/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-placement.h"

#include "ns3/log.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobPlacement");

namespace
{

/// \return \p count of \p free chosen by \p policy (removed from \p free)
std::vector<uint32_t>
Take(std::vector<uint32_t>& free, uint32_t count, JobPlacementPolicy policy, std::mt19937& rng)
{
    std::vector<std::size_t> picks;
    for (uint32_t i = 0; i < count; ++i)
    {
        if (policy == JobPlacementPolicy::SPREAD)
        {
            picks.push_back(uint64_t(i) * free.size() / count);
        }
        else if (policy == JobPlacementPolicy::PACKED)
        {
            picks.push_back(i);
        }
    }
    if (policy == JobPlacementPolicy::RANDOM)
    {
        // A partial Fisher-Yates shuffle drawn with rejection sampling from mt19937's
        // standard output (std::shuffle and the distributions differ between libraries).
        std::vector<uint32_t> pool = free;
        std::vector<uint32_t> chosen;
        for (uint32_t i = 0; i < count; ++i)
        {
            uint64_t range = pool.size() - i;
            uint64_t limit = (uint64_t(1) << 32) - ((uint64_t(1) << 32) % range);
            uint64_t draw;
            do
            {
                draw = rng();
            } while (draw >= limit);
            std::swap(pool[i], pool[i + draw % range]);
            chosen.push_back(pool[i]);
        }
        for (uint32_t server : chosen)
        {
            free.erase(std::find(free.begin(), free.end(), server));
        }
        return chosen;
    }
    std::vector<uint32_t> chosen;
    for (std::size_t pick : picks)
    {
        chosen.push_back(free[pick]);
    }
    for (auto it = picks.rbegin(); it != picks.rend(); ++it)
    {
        free.erase(free.begin() + *it);
    }
    return chosen;
}

} // namespace

uint32_t
JobPlacement::ServersNeeded(const std::vector<JobEntry>& jobs)
{
    uint64_t total = 0;
    uint32_t highest = 0;
    for (const JobEntry& job : jobs)
    {
        total += job.serverCount;
        for (uint32_t server : job.servers)
        {
            highest = std::max(highest, server + 1);
        }
    }
    return uint32_t(std::min<uint64_t>(UINT32_MAX, std::max<uint64_t>(total, highest)));
}

std::vector<std::vector<uint32_t>>
JobPlacement::Place(const std::vector<JobEntry>& jobs, uint32_t servers, uint32_t seed)
{
    NS_LOG_FUNCTION(jobs.size() << servers << seed);
    std::vector<std::string> owner(servers);
    std::vector<std::vector<uint32_t>> placed(jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        for (uint32_t server : jobs[j].servers)
        {
            if (server >= servers)
            {
                throw std::invalid_argument("job \"" + jobs[j].name + "\" names server " +
                                            std::to_string(server) + ", beyond the fabric's " +
                                            std::to_string(servers) + " (--servers)");
            }
            if (!owner[server].empty())
            {
                throw std::invalid_argument("jobs \"" + owner[server] + "\" and \"" + jobs[j].name +
                                            "\" both name server " + std::to_string(server) +
                                            " (a job holds its servers for the whole run)");
            }
            owner[server] = jobs[j].name;
        }
        placed[j] = jobs[j].servers;
    }
    std::vector<uint32_t> free;
    for (uint32_t server = 0; server < servers; ++server)
    {
        if (owner[server].empty())
        {
            free.push_back(server);
        }
    }
    std::mt19937 rng(seed);
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        if (!jobs[j].servers.empty())
        {
            continue;
        }
        if (jobs[j].serverCount > free.size())
        {
            throw std::invalid_argument(
                "job \"" + jobs[j].name + "\" needs " + std::to_string(jobs[j].serverCount) +
                " servers and " + std::to_string(free.size()) + " of the fabric's " +
                std::to_string(servers) + " are left (--servers, or fewer servers per job)");
        }
        placed[j] = Take(free, jobs[j].serverCount, jobs[j].placement, rng);
    }
    return placed;
}

void
JobPlacement::Relocate(const WorkloadDag& dag,
                       const std::vector<uint32_t>& gpus,
                       const std::string& tag,
                       WorkloadDag::GroupMap& groups,
                       std::vector<WorkloadOp>& ops)
{
    for (const auto& [name, members] : dag.GetGroups())
    {
        std::vector<uint32_t>& moved = groups[tag + name];
        for (uint32_t member : members)
        {
            moved.push_back(gpus.at(member));
        }
    }
    for (const WorkloadOp& op : dag.GetAllOps())
    {
        WorkloadOp moved = op;
        moved.rank = gpus.at(op.rank);
        moved.peer = op.peer >= 0 ? gpus.at(op.peer) : op.peer;
        moved.root = op.root >= 0 ? gpus.at(op.root) : op.root;
        moved.group = op.group.empty() ? op.group : tag + op.group;
        ops.push_back(std::move(moved));
    }
}

} // namespace ns3

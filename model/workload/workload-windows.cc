/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-windows.h"

#include "ns3/log.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadWindows");

namespace
{

std::string
FormatMib(uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
    return text;
}

} // namespace

double
WorkloadWindow::DurationS() const
{
    return endS - startS;
}

WorkloadWindows::WorkloadWindows(uint32_t gpusPerServer)
    : m_topology(gpusPerServer > 0
                     ? gpusPerServer
                     : throw std::invalid_argument("windows: gpusPerServer must be >= 1"))
{
}

std::string
WorkloadWindows::Parallelism(const std::string& group)
{
    if (group.empty())
    {
        return "pp"; // point-to-point transfers of a training job are pipeline traffic
    }
    std::size_t end = group.size();
    while (end > 0 && group[end - 1] >= '0' && group[end - 1] <= '9')
    {
        --end;
    }
    return end == 0 ? group : group.substr(0, end);
}

std::vector<WorkloadWindows::Comm>
WorkloadWindows::Merge(const WorkloadTimeline& timeline) const
{
    // Each rank's records in the order it issued them.
    std::vector<const WorkloadCommRecord*> records;
    for (const auto& r : timeline.GetRecords())
    {
        records.push_back(&r);
    }
    std::stable_sort(records.begin(), records.end(), [](const auto* a, const auto* b) {
        return std::tie(a->rank, a->startS, a->id) < std::tie(b->rank, b->startS, b->id);
    });
    std::vector<Comm> comms;
    std::map<std::tuple<std::string, uint32_t, uint32_t, bool>, uint32_t> occurrence;
    std::map<std::tuple<std::string, uint32_t, uint32_t, uint32_t>, std::size_t> index;
    for (const auto* r : records)
    {
        // Key: (group, k) for collectives, (src, dst, k) for transfers with a known peer.
        std::tuple<std::string, uint32_t, uint32_t, uint32_t> key;
        bool p2p = IsWorkloadPointToPoint(r->type);
        if (p2p && r->peer < 0)
        {
            key = {"", r->rank, UINT32_MAX, uint32_t(comms.size())}; // stands alone
        }
        else if (p2p)
        {
            bool send = r->type == WorkloadOpType::SEND;
            uint32_t src = send ? r->rank : uint32_t(r->peer);
            uint32_t dst = send ? uint32_t(r->peer) : r->rank;
            uint32_t k = occurrence[{"", src, dst, send}]++;
            key = {"", src, dst, k};
        }
        else
        {
            uint32_t k = occurrence[{r->group, r->rank, 0, false}]++;
            key = {r->group, UINT32_MAX, UINT32_MAX, k};
        }
        auto [it, fresh] = index.try_emplace(key, comms.size());
        if (fresh)
        {
            Comm comm;
            comm.type = r->type;
            comm.parallelism = Parallelism(r->group);
            comm.startS = r->startS;
            comm.endS = r->endS;
            comm.iteration = r->iteration;
            comm.lastIteration = r->iteration;
            comms.push_back(comm);
        }
        Comm& comm = comms[it->second];
        comm.ranks.push_back(r->rank);
        if (p2p && r->peer >= 0)
        {
            comm.ranks.push_back(uint32_t(r->peer)); // counts even if its record is missing
        }
        comm.bytes = std::max(comm.bytes, r->bytes);
        comm.startS = std::max(comm.startS, r->startS); // the slowest member starts it
        comm.endS = std::max(comm.endS, r->endS);
        comm.iteration = std::min(comm.iteration, r->iteration);
        comm.lastIteration = std::max(comm.lastIteration, r->iteration);
    }
    for (auto& comm : comms)
    {
        std::sort(comm.ranks.begin(), comm.ranks.end());
        comm.ranks.erase(std::unique(comm.ranks.begin(), comm.ranks.end()), comm.ranks.end());
    }
    return comms;
}

bool
WorkloadWindows::IsScaleOut(const Comm& comm) const
{
    for (uint32_t rank : comm.ranks)
    {
        if (!m_topology.SameServer(rank, comm.ranks.front()))
        {
            return true;
        }
    }
    return false;
}

std::vector<WorkloadPhase>
WorkloadWindows::Phases(std::vector<const Comm*> comms)
{
    std::stable_sort(comms.begin(), comms.end(), [](const Comm* a, const Comm* b) {
        return std::tie(a->startS, a->endS) < std::tie(b->startS, b->endS);
    });
    std::vector<WorkloadPhase> phases;
    std::map<std::string, uint64_t> bytesByType;
    std::map<uint32_t, uint64_t> bytesByRank;
    auto close = [&phases, &bytesByType, &bytesByRank]() {
        if (phases.empty())
        {
            return;
        }
        WorkloadPhase& p = phases.back();
        uint64_t most = 0;
        for (const auto& [type, bytes] : bytesByType)
        {
            if (bytes > most || p.mainType.empty())
            {
                most = bytes;
                p.mainType = type;
            }
        }
        for (const auto& entry : bytesByRank)
        {
            p.bytes = std::max(p.bytes, entry.second);
        }
        p.label = p.parallelism + " " + p.mainType + " " + FormatMib(p.bytes);
        bytesByType.clear();
        bytesByRank.clear();
    };
    for (const Comm* c : comms)
    {
        if (phases.empty() || phases.back().parallelism != c->parallelism)
        {
            close();
            WorkloadPhase phase;
            phase.parallelism = c->parallelism;
            phase.startS = c->startS;
            phase.endS = c->endS;
            phase.iteration = c->iteration;
            phase.lastIteration = c->lastIteration;
            phases.push_back(phase);
        }
        WorkloadPhase& p = phases.back();
        p.startS = std::min(p.startS, c->startS);
        p.endS = std::max(p.endS, c->endS);
        p.iteration = std::min(p.iteration, c->iteration);
        p.lastIteration = std::max(p.lastIteration, c->lastIteration);
        ++p.comms;
        bool p2p = IsWorkloadPointToPoint(c->type);
        bytesByType[p2p ? "sendrecv" : WorkloadOpTypeName(c->type)] += c->bytes;
        for (uint32_t rank : c->ranks)
        {
            bytesByRank[rank] += c->bytes;
        }
    }
    close();
    return phases;
}

std::vector<WorkloadPhase>
WorkloadWindows::RailPhases(const WorkloadTimeline& timeline, uint32_t rail) const
{
    std::vector<Comm> comms = Merge(timeline);
    std::vector<const Comm*> onRail;
    for (const auto& comm : comms)
    {
        bool uses = IsScaleOut(comm) &&
                    std::any_of(comm.ranks.begin(), comm.ranks.end(), [this, rail](uint32_t r) {
                        return m_topology.RailOf(r) == rail;
                    });
        if (uses)
        {
            onRail.push_back(&comm);
        }
    }
    return Phases(onRail);
}

std::vector<uint32_t>
WorkloadWindows::RailRanks(const WorkloadTimeline& timeline, uint32_t rail) const
{
    std::set<uint32_t> ranks;
    for (const auto& comm : Merge(timeline))
    {
        if (IsScaleOut(comm))
        {
            for (uint32_t r : comm.ranks)
            {
                if (m_topology.RailOf(r) == rail)
                {
                    ranks.insert(r);
                }
            }
        }
    }
    return {ranks.begin(), ranks.end()};
}

std::vector<WorkloadPhase>
WorkloadWindows::RankPhases(const WorkloadTimeline& timeline, uint32_t rank) const
{
    std::vector<Comm> comms = Merge(timeline);
    std::vector<const Comm*> mine;
    for (const auto& comm : comms)
    {
        if (IsScaleOut(comm) &&
            std::find(comm.ranks.begin(), comm.ranks.end(), rank) != comm.ranks.end())
        {
            mine.push_back(&comm);
        }
    }
    return Phases(mine);
}

std::vector<WorkloadWindow>
WorkloadWindows::RailWindows(const WorkloadTimeline& timeline, int64_t rail) const
{
    std::set<uint32_t> rails;
    for (const auto& record : timeline.GetRecords())
    {
        rails.insert(m_topology.RailOf(record.rank));
    }
    std::vector<WorkloadWindow> windows;
    for (uint32_t r : rails)
    {
        if (rail >= 0 && r != rail)
        {
            continue;
        }
        std::vector<WorkloadWindow> some = Between(RailPhases(timeline, r), r);
        windows.insert(windows.end(), some.begin(), some.end());
    }
    return windows;
}

std::vector<WorkloadWindow>
WorkloadWindows::RankWindows(const WorkloadTimeline& timeline, uint32_t rank) const
{
    return Between(RankPhases(timeline, rank), rank);
}

std::vector<WorkloadWindow>
WorkloadWindows::Between(const std::vector<WorkloadPhase>& phases,
                         int64_t view,
                         std::vector<WorkloadPhase>* concurrent)
{
    std::vector<WorkloadWindow> windows;
    if (phases.empty())
    {
        return windows;
    }
    // The view is idle only once every earlier phase has ended: with overlapping phases
    // the previous phase need not be the last one to end.
    double busyUntil = phases.front().endS;
    for (std::size_t i = 1; i < phases.size(); ++i)
    {
        if (phases[i].startS < busyUntil)
        {
            // Starts while an earlier phase still runs: the two parallelisms share the view
            // at once, so they are not consecutive and nothing can be reconfigured between.
            if (concurrent)
            {
                concurrent->push_back(phases[i]);
            }
        }
        else
        {
            WorkloadWindow w;
            w.view = view;
            w.iteration = phases[i].iteration;
            w.startS = busyUntil;
            w.endS = phases[i].startS;
            w.before = phases[i - 1].parallelism;
            w.next = phases[i];
            windows.push_back(w);
        }
        busyUntil = std::max(busyUntil, phases[i].endS);
    }
    return windows;
}

WorkloadWindowStats
WorkloadWindows::Summarize(const std::vector<WorkloadWindow>& windows, double thresholdS)
{
    WorkloadWindowStats stats;
    stats.count = windows.size();
    if (windows.empty())
    {
        return stats;
    }
    std::vector<double> d;
    std::size_t above = 0;
    double sum = 0;
    for (const auto& w : windows)
    {
        d.push_back(w.DurationS());
        above += w.DurationS() > thresholdS ? 1 : 0;
        sum += w.DurationS();
        ++stats.perIteration[w.iteration];
    }
    std::sort(d.begin(), d.end());
    std::size_t n = d.size();
    stats.minS = d.front();
    stats.maxS = d.back();
    stats.medianS = n % 2 == 1 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
    stats.meanS = sum / n;
    stats.shareAbove = double(above) / n;
    return stats;
}

std::vector<std::pair<double, double>>
WorkloadWindows::Cdf(const std::vector<WorkloadWindow>& windows)
{
    std::vector<double> d;
    for (const auto& w : windows)
    {
        d.push_back(w.DurationS());
    }
    std::sort(d.begin(), d.end());
    std::vector<std::pair<double, double>> cdf;
    for (std::size_t i = 0; i < d.size(); ++i)
    {
        double fraction = double(i + 1) / d.size();
        if (!cdf.empty() && cdf.back().first == d[i])
        {
            cdf.back().second = fraction; // equal durations: one step
        }
        else
        {
            cdf.emplace_back(d[i], fraction);
        }
    }
    return cdf;
}

std::vector<WorkloadWindowClass>
WorkloadWindows::Classify(const std::vector<WorkloadWindow>& windows)
{
    std::map<std::string, WorkloadWindowClass> classes;
    for (const auto& w : windows)
    {
        WorkloadWindowClass& c = classes[w.next.label];
        double d = w.DurationS();
        c.label = w.next.label;
        c.minS = c.count == 0 ? d : std::min(c.minS, d);
        c.maxS = c.count == 0 ? d : std::max(c.maxS, d);
        c.meanS += d; // sum for now
        ++c.count;
    }
    std::vector<WorkloadWindowClass> rows;
    for (auto& entry : classes)
    {
        entry.second.meanS /= entry.second.count;
        rows.push_back(entry.second);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.meanS > b.meanS;
    });
    return rows;
}

} // namespace ns3

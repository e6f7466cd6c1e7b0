/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-summary.h"

#include "workload-windows.h"

#include "ns3/log.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadSummary");

namespace
{

double
Mib(uint64_t bytes)
{
    return double(bytes) / (1024.0 * 1024.0);
}

/// Counts one view's phases and windows in the given iteration.
WorkloadSummary::View
CountView(const std::vector<WorkloadPhase>& phases, uint32_t iteration)
{
    WorkloadSummary::View v;
    std::set<std::string> parallelisms;
    for (const auto& p : phases)
    {
        // A phase can straddle the iteration boundary (the optimizer AllReduces and the
        // next iteration's first AllGathers are one DP phase): it counts in every
        // iteration it has communications of, so a rail that only ever carries one
        // parallelism shows its one phase, not zero.
        if (p.iteration <= iteration && iteration <= p.lastIteration)
        {
            ++v.phases;
            v.newPhases += p.iteration == iteration ? 1 : 0;
            parallelisms.insert(p.parallelism);
        }
    }
    std::vector<WorkloadPhase> concurrent;
    for (const auto& w : WorkloadWindows::Between(phases, -1, &concurrent))
    {
        v.windows += w.iteration == iteration ? 1 : 0;
    }
    for (const auto& p : concurrent)
    {
        v.concurrent += p.iteration == iteration ? 1 : 0;
    }
    v.parallelisms.assign(parallelisms.begin(), parallelisms.end());
    return v;
}

void
PrintView(std::ostream& os, const std::string& name, const WorkloadSummary::View& v)
{
    os << "  " << name << ": phases per iteration: " << v.phases;
    if (!v.parallelisms.empty())
    {
        os << " (";
        for (std::size_t i = 0; i < v.parallelisms.size(); ++i)
        {
            os << (i ? ", " : "") << v.parallelisms[i];
        }
        os << ")";
    }
    os << "  windows per iteration: " << v.windows << "\n";
    if (v.phases == 0)
    {
        os << "    no scale-out communication: nothing to reconfigure\n";
    }
    else if (v.newPhases == 0)
    {
        os << "    one " << v.parallelisms.front()
           << " phase spans the iterations: the parallelism never changes, so no window\n";
    }
    if (v.concurrent > 0)
    {
        os << "    " << v.concurrent << " phase" << (v.concurrent > 1 ? "s start" : " starts")
           << " while an earlier one still runs: concurrent, no window before "
           << (v.concurrent > 1 ? "them" : "it") << "\n";
    }
}

} // namespace

WorkloadSummary
WorkloadSummary::Build(const WorkloadDag& dag,
                       const WorkloadEstimatorConfig& config,
                       bool estimate,
                       std::function<void(double)> progress)
{
    WorkloadSummary s;
    s.ranks = dag.GetRankCount();
    s.ops = dag.GetOpCount();
    s.groups = dag.GetGroups().size();
    s.iterations = dag.GetIterationCount();
    std::vector<double> compute(s.ranks, 0.0);
    for (const auto& op : dag.GetAllOps())
    {
        ++s.opsByType[WorkloadOpTypeName(op.type)];
        if (op.type == WorkloadOpType::COMPUTE)
        {
            compute[op.rank] += op.durationUs * 1e-6;
            continue;
        }
        Traffic& t =
            s.traffic[{WorkloadWindows::Parallelism(op.group), WorkloadOpTypeName(op.type)}];
        ++t.ops;
        t.bytes += op.bytes;
        t.rank0Bytes += op.rank == 0 ? op.bytes : 0;
    }
    s.maxComputeS = compute.empty() ? 0.0 : *std::max_element(compute.begin(), compute.end());
    s.gpusPerServer = config.gpusPerServer;
    if (!estimate || s.ops == 0)
    {
        return s;
    }
    // Two back-to-back replays: the second one shows the steady state, including the
    // window between one iteration's optimizer step and the next iteration's first phase.
    WorkloadEstimatorConfig twice = config;
    twice.repetitions = 2;
    WorkloadEstimator estimator(twice);
    estimator.SetProgressCallback(progress);
    WorkloadEstimate result = estimator.Run(dag);
    // The estimator numbers replay r's iteration i as r x I + i (I = GetIterationCount(),
    // i = the ops' own iteration, which need not start at 0): the steady iteration is the
    // first one of the second replay.
    uint32_t first = UINT32_MAX;
    for (const auto& op : dag.GetAllOps())
    {
        first = std::min(first, op.iteration);
    }
    uint32_t steady = std::max<uint32_t>(1, s.iterations) + first;
    s.estimated = true;
    s.steadyIteration = steady;
    // iterationTimesS[k] is iteration k's end minus iteration k-1's (0 if k-1 is unused):
    // the steady iteration lasts from the latest end of any earlier iteration to its end.
    double end = 0, before = 0;
    for (std::size_t k = 0; k < result.iterationTimesS.size() && k <= steady; ++k)
    {
        end += result.iterationTimesS[k];
        before = k < steady ? std::max(before, end) : before;
    }
    s.iterationTimeS = result.iterationTimesS.size() > steady ? end - before : 0;
    WorkloadWindows analysis(config.gpusPerServer);
    s.rail0Ranks = analysis.RailRanks(result.timeline, 0);
    s.rail0 = CountView(analysis.RailPhases(result.timeline, 0), steady);
    // A rail carries every stage's groups; one rank's view is what the paper's Fig. 4 shows.
    std::vector<WorkloadPhase> rankPhases = analysis.RankPhases(result.timeline, 0);
    s.rank0 = CountView(rankPhases, steady);
    std::vector<WorkloadWindow> windows;
    for (const auto& w : WorkloadWindows::Between(rankPhases, 0))
    {
        if (w.iteration == steady)
        {
            windows.push_back(w);
        }
    }
    s.windowStats = WorkloadWindows::Summarize(windows, 1e-3);
    s.windowClasses = WorkloadWindows::Classify(windows);
    return s;
}

void
WorkloadSummary::Print(std::ostream& os) const
{
    os << std::fixed << std::setprecision(1);
    os << "ranks: " << ranks << "  ops: " << ops << "  groups: " << groups
       << "  iterations: " << iterations << "\n";
    os << "ops by type:";
    for (const auto& [type, count] : opsByType)
    {
        os << " " << type << "=" << count;
    }
    os << "\ncompute per iteration (busiest rank): " << std::setprecision(3)
       << maxComputeS / std::max<uint32_t>(1, iterations) << " s\n";
    os << "traffic (sum of per-rank buffers, all iterations):\n";
    os << "  " << std::left << std::setw(12) << "parallelism" << std::setw(15) << "type"
       << std::right << std::setw(9) << "ops" << std::setw(14) << "total MiB" << std::setw(14)
       << "rank 0 MiB"
       << "\n";
    for (const auto& [key, t] : traffic)
    {
        os << "  " << std::left << std::setw(12) << key.first << std::setw(15) << key.second
           << std::right << std::setw(9) << t.ops << std::setprecision(1) << std::setw(14)
           << Mib(t.bytes) << std::setw(14) << Mib(t.rank0Bytes) << "\n";
    }
    if (!estimated)
    {
        return;
    }
    os << "estimate (alpha-beta replay without contention, steady iteration " << steadyIteration
       << " = the second replay's first):\n";
    if (gpusPerServerAssumed)
    {
        os << "  assuming " << gpusPerServer << " GPUs per server (--gpusPerServer): the DAG does "
           << "not record it; rail = rank mod " << gpusPerServer << "\n";
    }
    else
    {
        os << "  GPUs per server: " << gpusPerServer << " (--gpusPerServer); rail = rank mod "
           << gpusPerServer << "\n";
    }
    os << std::setprecision(3) << "  iteration time: " << iterationTimeS << " s\n";
    std::string rail = "rail 0 (";
    if (rail0Ranks.empty())
    {
        rail += "no scale-out traffic";
    }
    for (std::size_t i = 0; i < rail0Ranks.size(); ++i)
    {
        if (rail0Ranks.size() > 8 && i == 4)
        {
            rail += ", ...";
            i = rail0Ranks.size() - 2;
            continue;
        }
        rail += (i ? ", " : "ranks ") + std::to_string(rail0Ranks[i]);
    }
    PrintView(os, rail + ")", rail0);
    PrintView(os, "rank 0 view", rank0);
    if (windowStats.count > 0)
    {
        os << "  rank 0 windows: median " << windowStats.medianS * 1e3 << " ms, min "
           << windowStats.minS * 1e3 << " ms, max " << windowStats.maxS * 1e3
           << " ms, above 1 ms: " << std::setprecision(1) << windowStats.shareAbove * 100 << " %\n";
        os << "  by following phase (count, mean ms):\n";
        for (const auto& c : windowClasses)
        {
            os << "    " << std::left << std::setw(34) << c.label << std::right << std::setw(5)
               << c.count << std::setprecision(3) << std::setw(12) << c.meanS * 1e3 << "\n";
        }
    }
}

} // namespace ns3

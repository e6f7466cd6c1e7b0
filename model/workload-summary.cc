#include "workload-summary.h"

#include "workload-windows.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace ns3
{

namespace
{

double
Mib(uint64_t bytes)
{
    return double(bytes) / (1024.0 * 1024.0);
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
    uint32_t steady = std::max<uint32_t>(1, s.iterations);
    s.estimated = true;
    s.iterationTimeS = result.iterationTimesS.size() > steady ? result.iterationTimesS[steady] : 0;
    WorkloadWindows analysis(config.gpusPerServer);
    for (const auto& phase : analysis.RailPhases(result.timeline, 0))
    {
        s.phasesPerIteration += phase.iteration == steady ? 1 : 0;
    }
    auto steadyOnly = [steady](const std::vector<WorkloadWindow>& all) {
        std::vector<WorkloadWindow> kept;
        for (const auto& w : all)
        {
            if (w.iteration == steady)
            {
                kept.push_back(w);
            }
        }
        return kept;
    };
    s.windowsPerIteration = steadyOnly(analysis.RailWindows(result.timeline, 0)).size();
    // A rail carries every stage's groups; one rank's view is what the paper's Fig. 4 shows.
    std::vector<WorkloadWindow> windows = steadyOnly(analysis.RankWindows(result.timeline, 0));
    s.rankWindowsPerIteration = windows.size();
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
    os << "estimate (alpha-beta replay without contention, steady iteration):\n";
    os << std::setprecision(3) << "  iteration time: " << iterationTimeS << " s\n";
    os << "  rail 0: phases per iteration: " << phasesPerIteration
       << "  windows per iteration: " << windowsPerIteration << "\n";
    os << "  rank 0 view: windows per iteration: " << rankWindowsPerIteration << "\n";
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

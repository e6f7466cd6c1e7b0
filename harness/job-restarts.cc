/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-restarts.h"

#include "ns3/experiment-output.h"
#include "ns3/job-placement.h"
#include "ns3/json-input.h"
#include "ns3/ocs-technology.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <set>
#include <stdexcept>

namespace ns3
{

namespace
{

using Json = nlohmann::json;

/// The flags that act on GPU and server failures only.
const std::vector<std::string> RESTART_FLAGS = {"onServerFailure",
                                                "spareServers",
                                                "checkpointInterval",
                                                "failureDetection",
                                                "restoreTime"};

/// \return the servers the job's ranks fill
uint32_t
JobServers(const JobOptions& o, uint32_t ranks)
{
    uint32_t perServer = o.GpusPerServer();
    return (ranks + perServer - 1) / perServer;
}

/// \return the fabric's servers without the spares: --servers, or those the job fills
uint32_t
FabricServers(const JobOptions& o, uint32_t ranks)
{
    return o.servers > 0 ? o.servers : JobServers(o, ranks);
}

/// \return \p seconds rounded to the clock's nanosecond (sums of times in seconds carry
///         binary noise: 180.00119999999998)
double
Ns(double seconds)
{
    return std::round(seconds * 1e9) / 1e9;
}

/// \return how long a swap keeps the job waiting for circuits: one reconfiguration of every
///         rail's OCS, in parallel, on optical rails; nothing on electrical ones
Time
SwapReconfiguration(const JobOptions& o, const JobFabric& fabric)
{
    if (fabric.kind != RailKind::OCS)
    {
        return Seconds(0);
    }
    if (!o.reconfigDelayTime.IsStrictlyNegative())
    {
        return o.reconfigDelayTime;
    }
    OcsTechnology technology;
    OcsTechnologyCatalog::Find(o.ocs, technology); // Check() has checked the name
    return technology.reconfigurationDelay;
}

/// \return \p dag with its ranks on the servers of \p placement
std::shared_ptr<const WorkloadDag>
Placed(const WorkloadDag& dag, const std::vector<uint32_t>& placement, uint32_t perServer)
{
    std::vector<uint32_t> gpus(dag.GetRankCount());
    uint32_t ranks = 0;
    for (uint32_t rank = 0; rank < gpus.size(); ++rank)
    {
        gpus[rank] = placement.at(rank / perServer) * perServer + rank % perServer;
        ranks = std::max(ranks, gpus[rank] + 1);
    }
    WorkloadDag::GroupMap groups;
    std::vector<WorkloadOp> ops;
    JobPlacement::Relocate(dag, gpus, "", groups, ops);
    return std::make_shared<const WorkloadDag>(ranks, std::move(groups), std::move(ops));
}

/// Moves the files of \p from into \p to, and removes \p from.
void
MoveUp(const std::filesystem::path& from, const std::filesystem::path& to)
{
    for (const auto& entry : std::filesystem::directory_iterator(from))
    {
        std::filesystem::path target = to / entry.path().filename();
        std::filesystem::remove_all(target);
        std::filesystem::rename(entry.path(), target);
    }
    std::filesystem::remove(from);
}

/// \return summary.json's "restarts"
Json
RestartsJson(const JobOptions& o, const RestartOutcome& out)
{
    Json failures = Json::array();
    for (const RestartRecord& r : out.restarts)
    {
        failures.push_back({{"part", r.part},
                            {"server", r.server},
                            {"restarted_on_server", r.replacement},
                            {"at_s", Ns(r.failedS)},
                            {"detected_s", Ns(r.detectedS)},
                            {"restart_ordered_s", Ns(r.orderedS)},
                            {"training_again_s", Ns(r.resumedS)},
                            {"checkpoint_iteration", r.checkpoint},
                            {"lost_iterations", r.lostIterations},
                            {"lost_work_s", Ns(r.lostWorkS)},
                            {"reconfigurations", r.reconfigurations}});
    }
    return {{"on_server_failure", o.restart.onServerFailure},
            {"spare_servers", o.restart.spareServers},
            {"checkpoint_interval", o.restart.checkpointInterval},
            {"failure_detection_s", o.restart.failureDetectionTime.GetSeconds()},
            {"restore_s", o.restart.restoreTimeTime.GetSeconds()},
            {"attempts", out.attempts},
            {"restarts", out.Restarts()},
            {"end_s", Ns(out.endS)},
            {"end_without_failures_s", Ns(out.noFailureS)},
            {"lost_work_s", Ns(out.lostWorkS)},
            {"down_s", Ns(out.downS)},
            {"failures", failures},
            {"failures_striking_no_rank", out.idle},
            {"failures_after_the_end", out.afterEnd}};
}

/// Writes faults.csv: time_s, part, event, for every failure and restart step, in time order.
void
WriteFaults(const std::string& path, const RestartOutcome& out)
{
    std::vector<std::pair<double, std::string>> rows; // (time, "part,event")
    for (const RestartRecord& r : out.restarts)
    {
        bool swapped = r.replacement != r.server;
        rows.emplace_back(r.failedS, r.part + ",down");
        rows.emplace_back(r.detectedS, r.part + ",detected");
        rows.emplace_back(
            r.orderedS,
            r.part + "," +
                (swapped ? "restart ordered on spare server " + std::to_string(r.replacement)
                         : std::string("restart ordered on the repaired server")));
        rows.emplace_back(r.resumedS,
                          r.part + ",training again after " + std::to_string(r.checkpoint) +
                              " checkpointed iterations");
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    std::ofstream csv(path);
    if (!csv)
    {
        throw std::runtime_error("cannot write " + path);
    }
    csv << "time_s,part,event\n" << std::fixed << std::setprecision(9); // times are whole ns
    for (const auto& [time, row] : rows)
    {
        csv << time << "," << row << "\n";
    }
}

} // namespace

bool
JobRestarts::Applies(const JobOptions& o)
{
    const auto& faults = o.faultSchedule.GetFaults();
    return std::any_of(faults.begin(), faults.end(), [](const Fault& f) { return f.StopsJob(); });
}

void
JobRestarts::Check(const StrictCommandLine& cmd, const JobOptions& o, const WorkloadDag& dag)
{
    if (!Applies(o))
    {
        for (const std::string& flag : RESTART_FLAGS)
        {
            if (cmd.IsGiven(flag))
            {
                throw std::invalid_argument("--" + flag +
                                            " acts on GPU and server failures: give gpu:gpuG or "
                                            "server:S in --fault or --faults");
            }
        }
        return;
    }
    for (const Fault& fault : o.faultSchedule.GetFaults())
    {
        if (!fault.StopsJob())
        {
            throw std::invalid_argument(
                "fault \"" + fault.entry +
                "\": GPU and server failures run without other fault kinds (each restart "
                "runs the job again from a fresh start)");
        }
    }
    if (o.restart.action == RestartPolicy::WAIT && o.restart.spareServers > 0)
    {
        throw std::invalid_argument(
            "--spareServers: spares are taken by "
            "--onServerFailure=swap (wait restarts on the repaired server)");
    }
    std::set<std::string> seen;
    for (const Fault& fault : o.faultSchedule.GetFaults())
    {
        std::string key = fault.part + "@" + std::to_string(fault.down.GetTimeStep()) + "-" +
                          std::to_string(fault.up.GetTimeStep());
        if (!seen.insert(key).second)
        {
            throw std::invalid_argument("fault \"" + fault.entry + "\" is given twice");
        }
    }
    uint32_t perReplay = dag.GetIterationCount();
    if (o.restart.checkpointInterval % perReplay != 0)
    {
        throw std::invalid_argument(
            "--checkpointInterval=" + std::to_string(o.restart.checkpointInterval) +
            ": the workload holds " + std::to_string(perReplay) +
            " iterations, and a restart replays it whole: give a multiple of " +
            std::to_string(perReplay));
    }
}

JobResult
JobRestarts::Run(const JobOptions& o,
                 std::shared_ptr<const WorkloadDag> dag,
                 const JobFabric& fabric,
                 const std::string& outDir)
{
    uint32_t perServer = o.GpusPerServer();
    uint32_t jobServers = JobServers(o, dag->GetRankCount());
    uint32_t perReplay = dag->GetIterationCount();
    uint32_t fabricServers = FabricServers(o, dag->GetRankCount());
    RestartPlanner planner(o.restart,
                           jobServers,
                           fabricServers + o.restart.spareServers,
                           uint64_t(perReplay) * o.iterations,
                           SwapReconfiguration(o, fabric),
                           perServer,
                           dag->GetRankCount());
    JobResult last;
    std::vector<std::string> folders;
    auto attempt = [&](const std::vector<uint32_t>& placement, uint64_t iterations) {
        JobOptions run = o;
        run.servers = fabricServers; // the spares come on top (JobRunner::MakeSpec)
        run.iterations = static_cast<uint32_t>(iterations / perReplay);
        run.faultSchedule = FaultSchedule(); // what they do, the planner plays
        folders.push_back(outDir + "/attempt-" + std::to_string(folders.size() + 1));
        ExperimentOutput::MakeFolder(folders.back());
        last = JobRunner::Run(run, Placed(*dag, placement, perServer), fabric, folders.back());
        std::vector<double> ends(last.iterationTimes.size());
        std::partial_sum(last.iterationTimes.begin(), last.iterationTimes.end(), ends.begin());
        return ends;
    };
    RestartOutcome outcome = planner.Run(o.faultSchedule.GetFaults(), attempt);
    MoveUp(folders.back(), outDir);
    std::cerr << "[sim] " << fabric.name << ": " << outcome.Restarts() << " restart(s); attempt "
              << folders.size() << " is the last: its files are in " << outDir << "/\n";
    Json summary = JsonInput::ReadFile(outDir + "/summary.json", "summary");
    summary["restarts"] = RestartsJson(o, outcome);
    std::ofstream(outDir + "/summary.json") << summary.dump(2) << "\n";
    WriteFaults(outDir + "/faults.csv", outcome);
    last.restarts = outcome;
    return last;
}

} // namespace ns3

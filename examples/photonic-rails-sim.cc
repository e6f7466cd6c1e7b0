/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-sim: runs one LLM training job, packet by packet, on a rail-optimized
 * fabric and writes what happened (the main program's CONTRACT in the module docs).
 *
 *   photonic-rails-sim                                  # the built-in default job
 *   photonic-rails-sim --dag=job.json --gpusPerServer=4 --fabric=eps --out=run1
 *   photonic-rails-sim --model=llama3-8b --tp=4 --fsdp=2 --pp=2 --preset=perlmutter
 *   photonic-rails-sim --fabric=eps,eps-clos             # several fabrics, one table
 *   photonic-rails-sim --jobs=jobs.json --fabric=eps,ocs # several jobs on one fabric
 *
 * Outputs in --out (one subdirectory per fabric when several are given): summary.json,
 * collectives.csv, reconfigurations.csv, timeline.json (Chrome trace, opens in Perfetto).
 * Errors are one line on stderr with a non-zero exit status; progress goes to stderr.
 */

#include "ns3/core-module.h"
#include "ns3/experiment-output.h"
#include "ns3/job-mix.h"
#include "ns3/job-restarts.h"
#include "ns3/job-runner.h"
#include "ns3/job-workload.h"
#include "ns3/jobs-file.h"
#include "ns3/strict-command-line.h"
#include "ns3/testbed-measurements.h"
#include "ns3/text-table.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-sim";

using AlgorithmCount = std::map<std::string, uint64_t>; //!< Algorithm -> ops that ran it

/// Every flag of the program, with its default: the job's, and which workload and fabrics.
struct Options : JobOptions
{
    JobWorkload source;                        //!< --dag or the generator's flags
    std::string jobs;                          //!< --jobs: several jobs on one fabric
    std::string fabric{"eps"};                 //!< Comma-separated fabrics
    std::string out{"photonic-rails-sim-out"}; //!< Output directory
};

/// \return the measured step of \p job on the paper's testbed that run \p r compares with
///         (electrical: no controller; Opus or its emulation: its mode at its delay), if any
std::optional<double>
Measured(const std::string& job, const JobResult& r)
{
    bool provisioning = r.fabric == "ocs-provisioning" || r.fabric == "emulated-provisioning";
    bool onDemand = r.fabric == "ocs" || r.fabric == "emulated";
    if (r.fabric == "eps")
    {
        return TestbedMeasurements::Find(job, "no-controller", 0);
    }
    if (!provisioning && !onDemand)
    {
        return std::nullopt;
    }
    return TestbedMeasurements::Find(job,
                                     provisioning ? "provisioning" : "on-demand",
                                     std::round(r.reconfigurationDelay * 1e6) / 1e3);
}

/// \return the first result of \p network (the base of its "vs" column)
const JobResult&
FirstOfModel(const std::vector<JobResult>& results, const std::string& network)
{
    return *std::find_if(results.begin(), results.end(), [&network](const JobResult& r) {
        return r.network == network;
    });
}

/// \return the result of \p fabric in \p network
const JobResult&
SameFabric(const std::vector<JobResult>& results,
           const std::string& network,
           const std::string& fabric)
{
    return *std::find_if(results.begin(), results.end(), [&](const JobResult& r) {
        return r.network == network && r.fabric == fabric;
    });
}

/// \return true if \p results come from several network models
bool
SeveralModels(const std::vector<JobResult>& results)
{
    return std::any_of(results.begin(), results.end(), [&results](const JobResult& r) {
        return r.network != results.front().network;
    });
}

/// Adds the columns that name a run: its network model (with several) and its fabric.
void
AddRunColumns(TextTable& table, bool models)
{
    if (models)
    {
        table.AddColumn("network", TextTable::LEFT, 9);
    }
    table.AddColumn("fabric", TextTable::LEFT, 18);
}

/// \return the cells of the columns AddRunColumns added, for \p r
std::vector<std::string>
RunCells(const JobResult& r, bool models)
{
    return models ? std::vector<std::string>{r.network, r.fabric}
                  : std::vector<std::string>{r.fabric};
}

/// Prints the comparison of the fabrics (TextTable: cells of adjacent columns never touch),
/// with the measured step beside each run that has one (\p job on the testbed preset), and
/// with several network models, each run beside the same fabric in the first model.
void
PrintTable(const std::vector<JobResult>& results, const std::string& job)
{
    const JobResult& base = results.front();
    bool measured = std::any_of(results.begin(), results.end(), [&job](const JobResult& r) {
        return Measured(job, r).has_value();
    });
    bool models = SeveralModels(results);
    TextTable table;
    AddRunColumns(table, models);
    table.AddColumn("iteration (ms)", TextTable::RIGHT, 16);
    table.AddColumn("vs " + base.fabric, TextTable::RIGHT, 14);
    table.AddColumn("reconfigurations", TextTable::RIGHT, 18);
    table.AddColumn("exposed (ms)", TextTable::RIGHT, 16);
    table.AddColumn("wall (s)", TextTable::RIGHT, 12);
    if (models)
    {
        table.AddColumn("vs " + base.network, TextTable::RIGHT, 12);
    }
    if (measured)
    {
        table.AddColumn("measured (ms)", TextTable::RIGHT, 16);
        table.AddColumn("vs measured", TextTable::RIGHT, 13);
    }
    for (const JobResult& r : results)
    {
        std::vector<std::string> row = RunCells(r, models);
        const JobResult& first = FirstOfModel(results, r.network);
        std::vector<std::string> cells = {
            TextTable::Fixed(r.steadyIterationTime * 1e3, 3),
            TextTable::Percent(r.steadyIterationTime, first.steadyIterationTime),
            std::to_string(r.reconfigurations),
            TextTable::Fixed(r.exposedReconfiguration * 1e3, 3),
            TextTable::Fixed(r.wall, 1)};
        row.insert(row.end(), cells.begin(), cells.end());
        if (models)
        {
            // The same fabric in the first model: how far the two models' numbers are apart.
            double reference = SameFabric(results, base.network, r.fabric).steadyIterationTime;
            row.push_back(TextTable::Percent(r.steadyIterationTime, reference));
        }
        if (measured)
        {
            std::optional<double> step = Measured(job, r);
            row.push_back(step ? TextTable::Fixed(*step * 1e3, 1) : "-");
            row.push_back(step ? TextTable::Percent(r.steadyIterationTime, *step) : "-");
        }
        table.AddRow(row);
    }
    table.Print(std::cout);
    if (measured)
    {
        std::cout << "measured: the paper's testbed, job " << job
                  << " (data/measured-step-times.csv). It had no OCS: its controller slept the "
                     "delay where it would switch, which the emulated rows reproduce; the ocs "
                     "rows are what a real OCS would need (every shift, blackouts, leases).\n";
    }
}

/// Prints, for runs with GPU or server failures, what the restarts cost each fabric.
void
PrintRestarts(const std::vector<JobResult>& results)
{
    if (results.front().restarts.attempts == 0)
    {
        return;
    }
    bool models = SeveralModels(results);
    TextTable table;
    AddRunColumns(table, models);
    table.AddColumn("failures", TextTable::RIGHT, 10);
    table.AddColumn("restarts", TextTable::RIGHT, 10);
    table.AddColumn("lost work (s)", TextTable::RIGHT, 15);
    table.AddColumn("down (s)", TextTable::RIGHT, 12);
    table.AddColumn("end (s)", TextTable::RIGHT, 14);
    table.AddColumn("no failure (s)", TextTable::RIGHT, 16);
    table.AddColumn("longer", TextTable::RIGHT, 10);
    for (const JobResult& r : results)
    {
        std::vector<std::string> row = RunCells(r, models);
        const RestartOutcome& out = r.restarts;
        std::vector<std::string> cells = {std::to_string(out.restarts.size()),
                                          std::to_string(out.Restarts()),
                                          TextTable::Fixed(out.lostWorkS, 6),
                                          TextTable::Fixed(out.downS, 6),
                                          TextTable::Fixed(out.endS, 6),
                                          TextTable::Fixed(out.noFailureS, 6),
                                          TextTable::Percent(out.endS, out.noFailureS)};
        row.insert(row.end(), cells.begin(), cells.end());
        table.AddRow(row);
    }
    std::cout << "GPU and server failures: the table above shows each fabric's last attempt "
                 "(from its restart); failures while the job is down share its restart "
                 "(faults.csv and summary.json's restarts list them):\n";
    table.Print(std::cout);
}

/// \return "ring x 12, tree x 4": the algorithms one collective type ran
std::string
ListAlgorithms(const std::map<std::string, uint64_t>& counts)
{
    std::ostringstream os;
    for (const auto& [name, count] : counts)
    {
        os << (os.tellp() > 0 ? ", " : "") << name << " x " << count;
    }
    return counts.empty() ? "none" : os.str();
}

/// Says, below the table, where a fabric's collectives ran other algorithms than the first
/// fabric's: its times then compare algorithms as well as rails.
void
PrintAlgorithmDifferences(const std::vector<JobResult>& results)
{
    const JobResult& base = results.front();
    for (const JobResult& r : results)
    {
        if (r.network != base.network)
        {
            continue; // plans do not depend on the network model: its notes would repeat
        }
        std::set<std::string> types;
        for (const auto* counts : {&base.algorithms, &r.algorithms})
        {
            for (const auto& entry : *counts)
            {
                types.insert(entry.first);
            }
        }
        for (const std::string& type : types)
        {
            auto ours = r.algorithms.count(type) ? r.algorithms.at(type) : AlgorithmCount{};
            auto theirs = base.algorithms.count(type) ? base.algorithms.at(type) : AlgorithmCount{};
            if (ours != theirs)
            {
                std::cout << "note: " << type << " ran other algorithms on " << r.fabric << " ("
                          << ListAlgorithms(ours) << ") than on " << base.fabric << " ("
                          << ListAlgorithms(theirs) << ")\n";
            }
        }
    }
}

/// Says where provisioning guessed wrong: a speculative setup its communication did not
/// run on costs a reconfiguration for nothing, and one that switches ports a request needs
/// makes that request wait; either can make provisioning lose.
void
PrintWrongGuesses(const std::vector<JobResult>& results)
{
    bool models = results.front().network != results.back().network;
    for (const JobResult& r : results)
    {
        std::string run = models ? r.fabric + " (" + r.network + ")" : r.fabric;
        if (r.speculativeUnused > 0)
        {
            std::cout << "note: " << run << ": " << r.speculativeUnused << " of " << r.speculative
                      << " speculative reconfigurations set up circuits that the communication "
                         "they guessed did not run on (see reconfigurations.csv, used = 0)\n";
        }
        if (r.speculativeDelaying > 0)
        {
            std::cout << "note: " << run << ": " << r.speculativeDelaying << " of " << r.speculative
                      << " speculative reconfigurations were still switching ports a request "
                         "needed, which waited for them (see reconfigurations.csv, "
                         "delayed_request = 1)\n";
        }
    }
}

void
AddFlags(StrictCommandLine& cmd, Options& o)
{
    o.source.AddFlags(cmd);
    cmd.Add("jobs",
            "several jobs on one fabric: a JSON file of jobs, each with a name, its workload "
            "flags, its servers (a list, or a count placed packed, spread or random), a start "
            "and iterations (see the user documentation); each job's slowdown against the "
            "same job alone on the same fabric is printed",
            o.jobs);
    cmd.Add("fabric",
            "rails: eps|eps-clos|ocs|ocs-provisioning|ocs-oracle|ocs-static, or the paper's "
            "testbed emulation: emulated|emulated-provisioning (comma-separated: one run each, "
            "compared)",
            o.fabric);
    cmd.Add("out", "output directory", o.out);
    o.AddFlags(cmd);
    o.restart.AddFlags(cmd);
}

/// \return true if \p spec builds Clos rails with spines (eps beyond one switch's radix
///         too): the only rails where routing has another way round a failure
bool
HasSpines(const RailFabricSpec& spec)
{
    ClosPlan plan;
    return spec.EffectiveKind() == RailKind::EPS_CLOS &&
           ClosPlan::Make(spec.PortsPerRail(), spec.switchRadix, spec.oversubscription, plan)
               .empty() &&
           plan.spines > 0;
}

/// Every --fabric entry, checked with the job before any run.
std::vector<JobFabric>
ParseFabrics(const StrictCommandLine& cmd, const Options& o, const WorkloadDag& dag)
{
    std::vector<JobFabric> fabrics = JobFabric::ParseList(o.fabric);
    JobRunner::CheckAttributesApply(cmd.GetAttributes(), o, fabrics, dag.GetRankCount());
    for (const std::string& note : JobRunner::CheckBeforeRuns(o, fabrics, dag))
    {
        std::cerr << "[sim] " << note << "\n";
    }
    bool optical = false;
    bool electrical = false;
    bool opus = false;
    bool clos = false; // routing has another way round a failure only in a Clos
    for (const JobFabric& fabric : fabrics)
    {
        electrical = electrical || fabric.kind != RailKind::OCS;
        optical = optical || fabric.kind == RailKind::OCS;
        opus = opus || fabric.IsOpus();
        clos = clos || (fabric.kind != RailKind::OCS &&
                        HasSpines(JobRunner::MakeSpec(o, fabric, dag.GetRankCount())));
    }
    // Routing moves around failed leaf-spine cables and switches of a Clos rail, nothing
    // else: a NIC cable or a single switch leaves no other way to route.
    const auto& faults = o.faultSchedule.GetFaults();
    bool routed = std::any_of(faults.begin(), faults.end(), [](const Fault& fault) {
        return fault.kind == Fault::LINK || fault.kind == Fault::SWITCH;
    });
    if (cmd.IsGiven("detectionDelay") && (!clos || !routed))
    {
        throw std::invalid_argument(
            !clos ? "--detectionDelay applies to routing around failures in a Clos rail with "
                    "spines: add eps-clos to --fabric, with a --radix below a rail's NIC ports"
                  : "--detectionDelay applies to failed leaf-spine cables and switches (routing "
                    "around them): give a link: or switch: fault in --fault or --faults");
    }
    // What acts on failures only, without any.
    for (const std::string& attribute : cmd.GetAttributes())
    {
        bool onFailures = attribute == "ns3::RailTransport::Detour" ||
                          attribute == "ns3::FlowTransport::RetransmitTimeout" ||
                          attribute == "ns3::OpusController::FailureHoldDown";
        if (onFailures && faults.empty())
        {
            throw std::invalid_argument("--" + attribute +
                                        " acts on failures (detours, Opus's wait before it "
                                        "plans around a failed port): give --fault or --faults");
        }
    }
    bool controllerFaults = std::any_of(faults.begin(), faults.end(), [](const Fault& fault) {
        return fault.kind == Fault::CONTROLLER;
    });
    if (cmd.IsGiven("controllerFailover") && !controllerFaults)
    {
        throw std::invalid_argument("--controllerFailover applies to controller faults: give "
                                    "controller@TIME in --fault or --faults");
    }
    bool switched = std::any_of(fabrics.begin(), fabrics.end(), [](const JobFabric& f) {
        return f.kind == RailKind::OCS && f.IsOpus(); // ocs-static never reconfigures
    });
    if (cmd.IsGiven("ocsSwitching") && !switched)
    {
        throw std::invalid_argument("--ocsSwitching applies to optical rails that Opus "
                                    "reconfigures (what their OCS darkens to do it): add ocs, "
                                    "ocs-provisioning or ocs-oracle to --fabric");
    }
    if (o.qpsPerConnection > 1 && !electrical)
    {
        throw std::invalid_argument("--qpsPerConnection acts on electrical rails (ECMP and DCQCN "
                                    "per QP): add eps, eps-clos, emulated or "
                                    "emulated-provisioning to --fabric");
    }
    for (const char* flag : {"ocs", "reconfigDelay", "controlLatency"})
    {
        // The emulation sleeps a delay (the technology's, or --reconfigDelay) and pays the
        // control latency like Opus on optical rails.
        if (cmd.IsGiven(flag) && !optical && !opus)
        {
            throw std::invalid_argument(std::string("--") + flag +
                                        " applies to optical rails or their emulation: add ocs, "
                                        "ocs-provisioning, ocs-oracle, ocs-static, emulated or "
                                        "emulated-provisioning to --fabric");
        }
        // The static split sets its circuits once, before the run: no delay, no control;
        // only a swap onto a spare server re-points them (JobRestarts).
        bool swaps = optical && JobRestarts::Applies(o) && o.restart.action == RestartPolicy::SWAP;
        bool used = std::string(flag) == "ocs" || (std::string(flag) == "reconfigDelay" && swaps);
        if (!used && cmd.IsGiven(flag) && !opus)
        {
            throw std::invalid_argument(std::string("--") + flag +
                                        " applies to rails that Opus or its emulation "
                                        "reconfigures, and ocs-static never does (but for "
                                        "--onServerFailure=swap): add ocs, "
                                        "ocs-provisioning, ocs-oracle, emulated or "
                                        "emulated-provisioning to --fabric");
        }
    }
    return fabrics;
}

/// Runs \p run on every network model and fabric, each into its folder of --out (a
/// subfolder per model and per fabric when there are several), made before the first run.
std::vector<JobResult>
RunEverywhere(
    const Options& o,
    const std::vector<JobFabric>& fabrics,
    const std::function<JobResult(const JobOptions&, const JobFabric&, const std::string&)>& run)
{
    ExperimentOutput::MakeFolder(o.out);
    std::vector<std::string> networks = o.Networks();
    std::vector<JobResult> results;
    for (const std::string& network : networks)
    {
        JobOptions options = o;
        options.network = network;
        std::string base = networks.size() > 1 ? o.out + "/" + network : o.out;
        for (const JobFabric& fabric : fabrics)
        {
            std::string dir = fabrics.size() > 1 ? base + "/" + fabric.name : base;
            results.push_back(run(options, fabric, dir));
        }
    }
    return results;
}

/// Prints each job's time beside its time alone on the same fabric, per fabric.
void
PrintJobsTable(const std::vector<JobResult>& results)
{
    bool models = SeveralModels(results);
    TextTable table;
    AddRunColumns(table, models);
    table.AddColumn("job", TextTable::LEFT, 12);
    table.AddColumn("time (ms)", TextTable::RIGHT, 12);
    table.AddColumn("alone (ms)", TextTable::RIGHT, 12);
    table.AddColumn("slowdown", TextTable::RIGHT, 10);
    table.AddColumn("iteration (ms)", TextTable::RIGHT, 16);
    table.AddColumn("reconfigurations", TextTable::RIGHT, 18);
    table.AddColumn("exposed (ms)", TextTable::RIGHT, 14);
    for (const JobResult& r : results)
    {
        for (const JobShare& share : r.jobs)
        {
            std::vector<std::string> row = RunCells(r, models);
            std::vector<std::string> cells = {
                share.name,
                TextTable::Fixed((share.end - share.start) * 1e3, 3),
                TextTable::Fixed(share.aloneDuration * 1e3, 3),
                TextTable::Fixed(share.Slowdown(), 3),
                TextTable::Fixed(share.steadyIterationTime * 1e3, 3),
                std::to_string(share.reconfigurations),
                TextTable::Fixed(share.exposedReconfiguration * 1e3, 3)};
            row.insert(row.end(), cells.begin(), cells.end());
            table.AddRow(row);
        }
    }
    table.Print(std::cout);
    std::cout << "time: from the job's start to its last op's end; slowdown: over the same job "
                 "alone on the same servers of the same fabric (in alone/ of each fabric's "
                 "output); iteration: its mean after its first, or its only one\n";
}

/// Refuses what --jobs takes from each job instead: workload flags and --iterations.
void
CheckJobsFlags(const StrictCommandLine& cmd, const Options& o)
{
    for (const std::string& flag : o.source.GetFlagNames())
    {
        if (cmd.IsGiven(flag))
        {
            throw std::invalid_argument("--" + flag +
                                        " is a workload flag: with --jobs each job names its "
                                        "workload in the jobs file (\"workload\")");
        }
    }
    if (cmd.IsGiven("iterations"))
    {
        throw std::invalid_argument("--iterations: with --jobs each job's replays are its "
                                    "\"iterations\" in the jobs file");
    }
}

/// Runs the jobs of --jobs on every fabric: each job alone first (with several), then all.
int
RunJobs(const StrictCommandLine& cmd, Options& o)
{
    CheckJobsFlags(cmd, o);
    o.Check();
    if (JobRestarts::Applies(o))
    {
        throw std::invalid_argument("GPU and server failures (gpu:, server:) run with one job: "
                                    "--jobs does not take them");
    }
    JobMix mix(o.jobs, JobsFile::Read(o.jobs), o);
    const std::vector<JobSlice>& slices = mix.GetJobs();
    o.servers = mix.GetServers();
    o.iterations = mix.GetMaxIterations();
    for (const JobSlice& job : slices)
    {
        std::cerr << "[sim] job " << job.name << ": " << job.gpus.size() << " GPUs on servers ";
        for (std::size_t i = 0; i < job.servers.size(); ++i)
        {
            std::cerr << (i ? "," : "") << job.servers[i];
        }
        std::cerr << " from " << job.start.GetSeconds() << " s, " << job.iterations
                  << " iteration(s): " << job.workload << "\n";
    }
    std::vector<JobFabric> fabrics = ParseFabrics(cmd, o, *mix.GetDag());
    JobRestarts::Check(cmd, o, *mix.GetDag()); // refuses the restart flags
    std::vector<JobResult> results = RunEverywhere(
        o,
        fabrics,
        [&mix](const JobOptions& run, const JobFabric& fabric, const std::string& dir) {
            return mix.Run(run, fabric, dir);
        });
    if (slices.size() > 1)
    {
        PrintJobsTable(results);
    }
    else
    {
        PrintTable(results, "");
        PrintAlgorithmDifferences(results);
    }
    PrintWrongGuesses(results);
    return 0;
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
        "Runs an LLM training job packet by packet on a rail-optimized "
        "fabric.\nWithout --dag or generator flags it runs the paper's "
        "measured job (--job=b16) on the testbed as measured "
        "(--preset=perlmutter-testbed) on electrical rails, Opus on "
        "optical rails and the testbed's emulation, at 100 ms, for 2 "
        "iterations with 60 KiB coalesced rail frames (flags given "
        "explicitly win). The measured steps are printed beside a "
        "run of --job=b16 or b24 with no other generator flag on that "
        "preset's hardware, from 2 iterations on.",
        [&o](StrictCommandLine& cmd) { AddFlags(cmd, o); },
        [&o](const StrictCommandLine& cmd) {
            if (cmd.IsGiven("jobs"))
            {
                return RunJobs(cmd, o);
            }
            if (o.source.ApplyDefault(cmd, o))
            {
                if (!cmd.IsGiven("fabric"))
                {
                    o.fabric = "eps,ocs,ocs-provisioning,emulated,emulated-provisioning";
                }
                std::cerr
                    << "[sim] default job: the paper's measured run (--job=b16): Llama3-8B, "
                       "TP 4, FSDP 2, PP 2 (1F1B), 2 micro-batches of 4 x 8192 tokens, on the "
                       "testbed as measured (perlmutter-testbed: 4 x 4 A100, 1.0 GiB/s per "
                       "GPU scale-out), Opus at "
                    << o.reconfigDelay << "\n";
            }
            o.Check();
            auto dag = o.source.Load(cmd, o);
            for (const std::string& note : o.source.GetNotes())
            {
                std::cerr << "[sim] " << note << "\n";
            }
            std::cerr << "[sim] workload: " << dag->GetRankCount() << " ranks, "
                      << dag->GetOpCount() << " ops, " << o.iterations << " iteration(s)\n";
            std::vector<JobFabric> fabrics = ParseFabrics(cmd, o, *dag);
            JobRestarts::Check(cmd, o, *dag);
            std::vector<JobResult> results = RunEverywhere(
                o,
                fabrics,
                [&dag](const JobOptions& run, const JobFabric& fabric, const std::string& dir) {
                    return JobRestarts::Applies(run) ? JobRestarts::Run(run, dag, fabric, dir)
                                                     : JobRunner::Run(run, dag, fabric, dir);
                });
            PrintTable(results, o.iterations >= 2 ? o.source.GetMeasuredJob() : "");
            PrintRestarts(results);
            if (o.iterations < 2 && !o.source.GetMeasuredJob().empty())
            {
                std::cout << "note: the testbed's measured steps are steady ones; with one "
                             "iteration (Opus's profiling one) none is printed: use "
                             "--iterations=2\n";
            }
            PrintAlgorithmDifferences(results);
            PrintWrongGuesses(results);
            return 0;
        });
}

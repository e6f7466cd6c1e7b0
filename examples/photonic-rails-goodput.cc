/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-goodput: over weeks of training with realistic failure rates, what goodput
 * (useful training time / wall time) photonic rails give against electrical rails.
 *
 *   photonic-rails-goodput                                   # b16's iteration, 16,384 GPUs
 *   photonic-rails-goodput --weeks=8 --seeds=50 --spareServers=32 --out=goodput
 *   photonic-rails-goodput --iterationTime=20s --checkpointInterval=90 --gpus=8192
 *
 * The job runs once per fabric (flow model by default) for its steady iteration time
 * (--iterationTime skips that). A seeded Monte-Carlo (GoodputModel) then plays --seeds
 * campaigns of --weeks on a cluster of --gpus GPUs whose parts are the cost model's
 * (OpusCostModel: electrical switches and transceivers of a rail-optimized network, or the
 * OCSes and GPU-side transceivers of Opus) plus GPUs, hosts and NICs; each class fails as a
 * Poisson process (per-part rates from the Llama 3 paper's Table 5, each a flag), and every
 * failure costs what the restart policy says (--failureDetection, a spare's OCS
 * reconfiguration or the repair, --restoreTime, the work since --checkpointInterval).
 * Each fabric is played without spares (wait) and with --spareServers (swap).
 *
 * Writes DIR/goodput.csv, DIR/interruptions.csv, DIR/goodput.plt and (gnuplot installed)
 * DIR/goodput.png, and each simulated run's outputs in DIR/runs/<fabric>/. Errors are one
 * line on stderr with a non-zero exit status.
 */

#include "ns3/core-module.h"
#include "ns3/experiment-output.h"
#include "ns3/goodput-model.h"
#include "ns3/job-runner.h"
#include "ns3/job-workload.h"
#include "ns3/ocs-technology.h"
#include "ns3/opus-cost-model.h"
#include "ns3/strict-command-line.h"
#include "ns3/text-table.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-goodput";

/// The Llama 3 network switch/cable interruptions put on switches (the rest on
/// transceivers and their cables): the paper does not split them; half is an assumption.
const double SWITCH_SHARE = 0.5;

const FlagRange WEEKS(0.001, 520, "weeks");
const FlagRange SEEDS(1, 100000, "campaigns");
const FlagRange RATE(0, 1000, "failures per part per year");

/// Every flag of the program, with its default.
struct Options : JobOptions
{
    JobWorkload source;                            //!< --dag or the generator's flags
    std::string fabrics{"eps,eps-clos,ocs"};       //!< Fabrics compared
    double weeks{4};                               //!< Campaign length
    uint32_t seeds{20};                            //!< Campaigns per fabric and policy
    uint32_t gpus{16384};                          //!< Cluster GPUs (0: the job's)
    std::string iterationTime;                     //!< Given iteration time ("" = simulate)
    std::string repairTime{"2h"};                  //!< A failed server back in service
    std::map<std::string, double> rates;           //!< Per class, failures per part-year
    std::string out{"photonic-rails-goodput-out"}; //!< Output folder
    bool plot{true};                               //!< Render the PNG
};

/// A fabric compared, with what the campaigns need of it.
struct Fabric
{
    JobFabric fabric;   //!< The rails
    double iterationS;  //!< Steady iteration time
    double swapS;       //!< What a swap costs the network (an OCS reconfiguration, or 0)
    ClusterParts parts; //!< Part counts of the cluster on it
};

/// One fabric under one policy, over the seeds.
struct Variant
{
    const Fabric* fabric;              //!< The fabric
    bool swap;                         //!< With spares
    std::vector<FailureClass> classes; //!< Its failure classes
    std::vector<GoodputRun> runs;      //!< One per seed
};

/// \return the failure classes of a cluster with \p parts
std::vector<FailureClass>
ClassesOf(const Options& o, const ClusterParts& parts)
{
    return {{"gpu", o.rates.at("gpu"), parts.gpus, FailureClass::SERVER},
            {"host", o.rates.at("host"), parts.hosts, FailureClass::SERVER},
            {"nic", o.rates.at("nic"), parts.nics, FailureClass::SERVER},
            {"software", o.rates.at("software"), parts.gpus, FailureClass::IN_PLACE},
            {"switch", o.rates.at("switch"), parts.switches, FailureClass::IN_PLACE},
            {"transceiver", o.rates.at("transceiver"), parts.transceivers, FailureClass::IN_PLACE},
            {"ocs", o.rates.at("ocs"), parts.ocses, FailureClass::IN_PLACE}};
}

/// \return the steady iteration time of the job on \p fabric, simulated
double
SimulatedIteration(const Options& o,
                   std::shared_ptr<const WorkloadDag> dag,
                   const JobFabric& fabric)
{
    JobOptions run = o;
    // Spares idle in the campaign; the simulated fabric is the job's own servers.
    run.restart.spareServers = 0;
    run.restart.onServerFailure = "wait";
    run.restart.action = RestartPolicy::WAIT;
    JobResult r = JobRunner::Run(run, dag, fabric, o.out + "/runs/" + fabric.name);
    if (!(r.steadyIterationTime > 0))
    {
        throw std::runtime_error(fabric.name + ": the job's iteration took no time");
    }
    return r.steadyIterationTime;
}

/// \return what a swap costs on \p fabric: one reconfiguration of every rail's OCS, in
///         parallel, on optical rails; nothing on electrical rails
double
SwapSeconds(const Options& o, const JobFabric& fabric)
{
    if (fabric.kind != RailKind::OCS)
    {
        return 0;
    }
    if (!o.reconfigDelayTime.IsStrictlyNegative())
    {
        return o.reconfigDelayTime.GetSeconds();
    }
    OcsTechnology technology;
    OcsTechnologyCatalog::Find(o.ocs, technology); // Check() refused unknown ones
    return technology.reconfigurationDelay.GetSeconds();
}

/// Plays every campaign of \p v, with progress lines on stderr.
void
Play(const Options& o, double wallS, Variant& v)
{
    GoodputJob job;
    job.iterationS = v.fabric->iterationS;
    job.checkpointEvery = o.restart.checkpointInterval;
    job.detectionS = o.restart.failureDetectionTime.GetSeconds();
    job.restoreS = o.restart.restoreTimeTime.GetSeconds();
    job.repairS = StrictCommandLine::ParseTime("repairTime", o.repairTime).GetSeconds();
    job.swap = v.swap;
    job.spares = v.swap ? o.restart.spareServers : 0;
    job.swapS = v.fabric->swapS;
    GoodputModel model(v.classes, job);
    auto last = std::chrono::steady_clock::now();
    for (uint32_t s = 0; s < o.seeds; ++s)
    {
        // Each campaign its own seed; the same seeds on every fabric and policy.
        v.runs.push_back(model.Run(wallS, (uint64_t(o.seed) << 32) + s));
        auto now = std::chrono::steady_clock::now();
        if (o.progress > 0 && std::chrono::duration<double>(now - last).count() >= o.progress)
        {
            std::cerr << "[goodput] " << v.fabric->fabric.name << (v.swap ? " swap" : " wait")
                      << ": " << s + 1 << " of " << o.seeds << " campaigns\n";
            last = now;
        }
    }
}

/// \return the goodput of each of \p v's campaigns
std::vector<double>
Goodputs(const Variant& v)
{
    std::vector<double> g;
    for (const GoodputRun& r : v.runs)
    {
        g.push_back(r.Goodput());
    }
    return g;
}

/// \return per campaign, \p of of class \p c
template <typename F>
GoodputStats
PerClass(const Variant& v, F of)
{
    std::vector<double> x;
    for (const GoodputRun& r : v.runs)
    {
        x.push_back(of(r));
    }
    return GoodputStats::Of(x);
}

/// \return the policy's name
std::string
PolicyName(const Variant& v)
{
    return v.swap ? "swap" : "wait";
}

/// Refuses rates and a campaign that would draw more failures than memory holds (each
/// campaign's failures are drawn before they are played).
void
CheckFailureCount(const Variant& v, double wallS)
{
    const double most = 2e7; // about 320 MB of drawn failures, tens of seconds per campaign
    double years = wallS / (365.25 * 86400);
    double expected = 0;
    for (const FailureClass& k : v.classes)
    {
        expected += k.perPartYear * k.parts * years;
    }
    if (expected > most)
    {
        std::ostringstream text;
        text << "the failure rates and --weeks draw about " << std::setprecision(3) << expected
             << " failures per campaign on " << v.fabric->fabric.name
             << " (at most 2e+07): lower the rates, --weeks or --gpus";
        throw std::invalid_argument(text.str());
    }
}

/// Prints the tables and writes goodput.csv and interruptions.csv.
void
Report(const Options& o,
       double wallS,
       const std::vector<Variant>& variants,
       const ExperimentOutput& out)
{
    TextTable table;
    table.AddColumn("fabric", TextTable::LEFT, 10);
    table.AddColumn("policy", TextTable::LEFT, 7);
    table.AddColumn("iteration (s)", TextTable::RIGHT, 14);
    table.AddColumn("goodput", TextTable::RIGHT, 9);
    table.AddColumn("stddev", TextTable::RIGHT, 8);
    table.AddColumn("min", TextTable::RIGHT, 8);
    table.AddColumn("max", TextTable::RIGHT, 8);
    table.AddColumn("iterations (k)", TextTable::RIGHT, 15);
    table.AddColumn("interruptions", TextTable::RIGHT, 14);
    table.AddColumn("lost (h)", TextTable::RIGHT, 10);
    std::ofstream csv = out.Open("goodput.csv");
    csv << "fabric,policy,spare_servers,iteration_s,swap_s,weeks,seeds,goodput_mean,"
           "goodput_stddev,goodput_min,goodput_max,iterations_mean,interruptions_mean,lost_h_mean\n"
        << std::setprecision(12);
    for (const Variant& v : variants)
    {
        GoodputStats g = GoodputStats::Of(Goodputs(v));
        GoodputStats n = PerClass(v, [](const GoodputRun& r) {
            uint64_t sum = 0;
            for (uint64_t c : r.count)
            {
                sum += c;
            }
            return static_cast<double>(sum);
        });
        GoodputStats lost =
            PerClass(v, [](const GoodputRun& r) { return (r.wallS - r.usefulS) / 3600; });
        table.AddRow({v.fabric->fabric.name,
                      PolicyName(v),
                      TextTable::Fixed(v.fabric->iterationS, 6),
                      TextTable::Fixed(g.mean, 4),
                      TextTable::Fixed(g.stddev, 4),
                      TextTable::Fixed(g.min, 4),
                      TextTable::Fixed(g.max, 4),
                      // Goodput is a share of time; iterations also count a slower fabric's
                      // iteration
                      TextTable::Fixed(g.mean * wallS / v.fabric->iterationS / 1000, 1),
                      TextTable::Fixed(n.mean, 1),
                      TextTable::Fixed(lost.mean, 1)});
        csv << v.fabric->fabric.name << ',' << PolicyName(v) << ','
            << (v.swap ? o.restart.spareServers : 0) << ',' << v.fabric->iterationS << ','
            << v.fabric->swapS << ',' << o.weeks << ',' << o.seeds << ',' << g.mean << ','
            << g.stddev << ',' << g.min << ',' << g.max << ','
            << g.mean * wallS / v.fabric->iterationS << ',' << n.mean << ',' << lost.mean << '\n';
    }
    std::cout << "Goodput over " << o.weeks << " weeks, " << o.seeds << " campaigns each\n";
    table.Print(std::cout);

    TextTable causes;
    causes.AddColumn("fabric", TextTable::LEFT, 10);
    causes.AddColumn("policy", TextTable::LEFT, 7);
    causes.AddColumn("cause", TextTable::LEFT, 12);
    causes.AddColumn("parts", TextTable::RIGHT, 8);
    causes.AddColumn("per part-year", TextTable::RIGHT, 14);
    causes.AddColumn("count", TextTable::RIGHT, 8);
    causes.AddColumn("lost work (h)", TextTable::RIGHT, 14);
    causes.AddColumn("down (h)", TextTable::RIGHT, 10);
    std::ofstream ic = out.Open("interruptions.csv");
    ic << "fabric,policy,cause,recovery,parts,per_part_year,count_mean,count_stddev,"
          "lost_work_h_mean,down_h_mean,lost_h_mean\n"
       << std::setprecision(12);
    for (const Variant& v : variants)
    {
        for (size_t c = 0; c < v.classes.size(); ++c)
        {
            const FailureClass& k = v.classes[c];
            GoodputStats n = PerClass(v, [c](const GoodputRun& r) { return double(r.count[c]); });
            GoodputStats work =
                PerClass(v, [c](const GoodputRun& r) { return r.lostWorkS[c] / 3600; });
            GoodputStats down = PerClass(v, [c](const GoodputRun& r) { return r.downS[c] / 3600; });
            if (k.parts > 0)
            {
                causes.AddRow({v.fabric->fabric.name,
                               PolicyName(v),
                               k.name,
                               std::to_string(k.parts),
                               TextTable::Fixed(k.perPartYear, 6),
                               TextTable::Fixed(n.mean, 1),
                               TextTable::Fixed(work.mean, 2),
                               TextTable::Fixed(down.mean, 2)});
            }
            ic << v.fabric->fabric.name << ',' << PolicyName(v) << ',' << k.name << ','
               << (k.recovery == FailureClass::SERVER ? "server" : "in-place") << ',' << k.parts
               << ',' << k.perPartYear << ',' << n.mean << ',' << n.stddev << ',' << work.mean
               << ',' << down.mean << ',' << work.mean + down.mean << '\n';
        }
    }
    std::cout << "\nInterruptions by cause (means per campaign)\n";
    causes.Print(std::cout);
}

/// goodput.png: mean goodput of each fabric and policy, with the seeds' stddev.
void
Plot(const Options& o, const std::vector<Variant>& variants, const ExperimentOutput& out)
{
    out.WriteFigure(
        "goodput",
        900,
        520,
        [&variants, &o](std::ostream& plt) {
            plt << "set title 'Goodput over " << o.weeks << " weeks (" << o.seeds
                << " campaigns, mean and stddev)'\n"
                   "set ylabel 'goodput (useful / wall time)'\n"
                   "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
                   "set style fill solid 0.8 border -1\nset boxwidth 0.8\n"
                   "set grid ytics\nunset key\nset yrange [0:1]\n"
                   "plot '-' using 2:3:xtic(1) lc rgb '#3060a0'\n";
            for (const Variant& v : variants)
            {
                GoodputStats g = GoodputStats::Of(Goodputs(v));
                plt << '"' << v.fabric->fabric.name << ' ' << PolicyName(v) << "\" " << g.mean
                    << ' ' << g.stddev << '\n';
            }
            plt << "e\n";
        },
        o.plot);
}

/// Registers the per-part rate flags, their defaults from the Llama 3 paper.
void
AddRateFlags(StrictCommandLine& cmd, Options& o)
{
    for (const auto& [name, rate] : Llama3Rates::PerPartYear(SWITCH_SHARE))
    {
        o.rates[name] = rate;
    }
    o.rates["ocs"] = o.rates["switch"]; // no published OCS rate: an electrical switch's
    const std::vector<std::pair<std::string, std::string>> help{
        {"gpu",
         "GPU failures per GPU per year (Llama 3 Table 5: GPU, HBM3, SRAM, system "
         "processor, SDC, thermal)"},
        {"host",
         "host failures per server per year (Llama 3: host maintenance, SSD, power "
         "supply, chassis, IO board, CPU, memory)"},
        {"nic", "NIC failures per NIC per year (Llama 3: NIC)"},
        {"software",
         "software failures per GPU per year (Llama 3: software bug, dependency, "
         "NCCL watchdog)"},
        {"switch",
         "electrical switch failures per switch per year (Llama 3: half the network "
         "switch/cable interruptions)"},
        {"transceiver",
         "transceiver and cable failures per transceiver per year (Llama 3: "
         "the other half)"},
        {"ocs",
         "OCS failures per OCS per year (assumed an electrical switch's: no published "
         "rate)"}};
    for (const auto& [name, text] : help)
    {
        cmd.Add(name + "Failures", text, o.rates[name], RATE);
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    // This program's defaults (the simulator's are for one run of a job, not a campaign).
    o.network = "flow";
    o.iterations = 3;
    o.restart.checkpointInterval = 100;
    o.restart.spareServers = 16;
    return RunProgram(
        argc,
        argv,
        PROGRAM,
        __FILE__,
        "Goodput (useful training time / wall time) over --weeks of training on a cluster of "
        "--gpus GPUs whose parts fail as Poisson processes at per-part rates (the Llama 3 "
        "paper's record by default), for each fabric without spares (wait for the repair) "
        "and with --spareServers (swap; optical rails reconfigure once), over --seeds "
        "campaigns. The iteration time is the job's, simulated once per fabric (--network, "
        "flow by default) unless --iterationTime gives it. Without --dag or generator flags "
        "it runs the paper's measured job (--job=b16).",
        [&o](StrictCommandLine& cmd) {
            o.source.AddFlags(cmd);
            o.AddFlags(cmd);
            o.restart.AddFlags(cmd);
            cmd.Add("fabrics", "fabrics compared: eps, eps-clos, ocs (comma-separated)", o.fabrics);
            cmd.Add("weeks", "length of each training campaign", o.weeks, WEEKS);
            cmd.Add("seeds", "campaigns per fabric and policy (seeded)", o.seeds, SEEDS);
            cmd.Add("gpus",
                    "GPUs of the cluster whose parts fail (0: the job's); the job's iteration "
                    "time stands for the whole cluster's",
                    o.gpus);
            cmd.Add("iterationTime",
                    "the job's steady iteration time on every fabric, instead of simulating it",
                    o.iterationTime);
            cmd.Add(
                "repairTime",
                "a failed server (GPU, host, NIC) back in service: wait waits for it, swap gets "
                "it back as a spare",
                o.repairTime);
            AddRateFlags(cmd, o);
            cmd.Add("out", "output folder", o.out);
            cmd.Add("plot", "render the PNG with gnuplot when it is installed", o.plot);
        },
        [&o](const StrictCommandLine& cmd) {
            cmd.RefuseGiven({"fault", "faults"},
                            "is not for the goodput study: it draws its failures from the "
                            "per-part rates");
            cmd.RefuseGiven({"controllerFailover", "detectionDelay"},
                            "acts on simulated faults, and the goodput study simulates none");
            o.source.ApplyDefault(cmd, o);
            o.Check();
            StrictCommandLine::ParseTime("repairTime", o.repairTime);
            std::vector<bool> policies;
            if (!cmd.IsGiven("onServerFailure") || o.restart.action == RestartPolicy::WAIT)
            {
                policies.push_back(false);
            }
            if ((!cmd.IsGiven("onServerFailure") && o.restart.spareServers > 0) ||
                o.restart.action == RestartPolicy::SWAP)
            {
                policies.push_back(true);
            }
            std::vector<JobFabric> jobFabrics = JobFabric::ParseList(o.fabrics, "fabrics");
            for (const JobFabric& f : jobFabrics)
            {
                if (f.emulated || f.staticSplit)
                {
                    throw std::invalid_argument("--fabrics: " + f.name +
                                                " is not compared (eps, eps-clos, ocs and its "
                                                "provisioning forms are)");
                }
            }
            std::shared_ptr<const WorkloadDag> dag;
            uint64_t gpus = o.gpus;
            if (o.iterationTime.empty() || gpus == 0)
            {
                dag = o.source.Load(cmd, o);
                if (gpus == 0)
                {
                    gpus = dag->GetRankCount();
                }
            }
            OpusCostModel::Config config;
            config.gpusPerServer = o.GpusPerServer();
            OpusCostModel cost(config);
            std::string error = cost.CheckGpus(gpus);
            if (!error.empty())
            {
                throw std::invalid_argument("--gpus: " + error);
            }
            if (!o.iterationTime.empty() && !cmd.GetAttributes().empty())
            {
                throw std::invalid_argument("--" + cmd.GetAttributes().front() +
                                            " would change nothing: --iterationTime skips the "
                                            "simulation");
            }
            if (o.iterationTime.empty())
            {
                JobRunner::CheckAttributesApply(cmd.GetAttributes(),
                                                o,
                                                jobFabrics,
                                                dag->GetRankCount());
                JobRunner::CheckBeforeRuns(o, jobFabrics, *dag);
            }
            double given =
                o.iterationTime.empty()
                    ? 0
                    : StrictCommandLine::ParseTime("iterationTime", o.iterationTime).GetSeconds();
            if (!o.iterationTime.empty() && given <= 0)
            {
                throw std::invalid_argument("--iterationTime: an iteration takes some time");
            }
            std::vector<Fabric> fabrics;
            for (const JobFabric& f : jobFabrics)
            {
                CostNetwork network =
                    f.kind == RailKind::OCS ? CostNetwork::OPUS : CostNetwork::RAIL_OPTIMIZED;
                fabrics.push_back(
                    {f,
                     given > 0 ? given : SimulatedIteration(o, dag, f),
                     SwapSeconds(o, f),
                     ClusterParts::FromBill(cost.Bill(network, gpus), config.gpusPerServer)});
            }
            std::vector<Variant> variants;
            for (const Fabric& f : fabrics)
            {
                for (bool swap : policies)
                {
                    variants.push_back({&f, swap, ClassesOf(o, f.parts), {}});
                }
            }
            double wallS = o.weeks * 7 * 86400;
            for (const Variant& v : variants)
            {
                CheckFailureCount(v, wallS);
            }
            for (Variant& v : variants)
            {
                Play(o, wallS, v);
            }
            ExperimentOutput out(o.out, "[goodput]");
            Report(o, wallS, variants, out);
            Plot(o, variants, out);
            return 0;
        });
}

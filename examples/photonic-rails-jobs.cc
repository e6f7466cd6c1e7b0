/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-jobs: several training jobs on one fabric, and what sharing it costs each
 * of them on every kind of rail. Runs a mix of jobs (a --jobs file; by default four jobs on
 * 16 servers of 4 A100: the paper's b16 job, Llama3-70B with FSDP, Mixtral-8x7B with expert
 * parallelism and Llama3-8B with data parallelism) on electrical rails (one switch per rail,
 * a 1:1 and a 2:1 Clos), on optical rails whose OCS switches only the ports it changes and
 * whose OCS darkens the whole switch to reconfigure (Opus serving requests in order, or
 * joining the shifts that come during a blackout into the next one), and on a static split
 * of the OCS ports. Each job also runs alone on the same servers of the same fabric, and its
 * slowdown is its time from start to end in the mix over that time alone.
 *
 *   photonic-rails-jobs                                   # the built-in mix, flow model
 *   photonic-rails-jobs --jobs=data/jobs/mix-16.json      # with a Chakra trace
 *   photonic-rails-jobs --variants=eps-clos-2:1,ocs-whole --network=packet
 *
 * Writes DIR/jobs.json (the mix), DIR/slowdowns.csv, DIR/slowdown-cdf.plt and, with
 * gnuplot, DIR/slowdown-cdf.png, and every run's outputs in DIR/<variant>/ (the main
 * program's CONTRACT, with the jobs array and job columns). Errors are one line on stderr
 * with a non-zero exit status.
 */

#include "ns3/config.h"
#include "ns3/experiment-output.h"
#include "ns3/gnuplot.h"
#include "ns3/job-mix.h"
#include "ns3/job-runner.h"
#include "ns3/jobs-file.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/strict-command-line.h"
#include "ns3/string.h"
#include "ns3/text-table.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-jobs";

/// The built-in mix: four generated jobs of 4 servers each, spread over the 16 (so that the
/// jobs share the Clos variants' leaves), written to DIR/jobs.json.
const char* const DEFAULT_MIX = R"({
  "placement": "spread",
  "jobs": [
    {"name": "b16", "workload": "--job=b16", "servers": 4, "iterations": 3},
    {"name": "llama70b-fsdp",
     "workload": "--model=llama3-70b --layers=4 --tp=4 --fsdp=4 --microBatches=2 --seqLen=4096",
     "servers": 4, "iterations": 3},
    {"name": "mixtral-ep",
     "workload": "--model=mixtral-8x7b --layers=4 --tp=2 --fsdp=8 --ep=8 --microBatches=2 --seqLen=4096",
     "servers": 4, "iterations": 3},
    {"name": "llama8b-dp",
     "workload": "--model=llama3-8b --layers=8 --tp=4 --dp=4 --microBatches=2 --seqLen=4096",
     "servers": 4, "iterations": 3}
  ]
}
)";

/// One way to build the rails the mix runs on.
struct Variant
{
    std::string name;             //!< As printed and as its output folder
    std::string fabric;           //!< --fabric name
    double oversubscription{1.0}; //!< Clos leaves' down:up
    std::string ocsSwitching;     //!< OCS reconfiguration granularity ("" = the technology's)
    std::string arbitration;      //!< Opus's OpusController::Arbitration
    std::string what;             //!< One line for --help
};

/// Every variant, in the order of the table.
const std::vector<Variant>&
Variants()
{
    static const std::vector<Variant> all = {
        {"eps", "eps", 1.0, "", "Fcfs", "one packet switch per rail (non-blocking)"},
        {"eps-clos-1:1", "eps-clos", 1.0, "", "Fcfs", "a leaf-spine Clos per rail, 1:1"},
        {"eps-clos-2:1",
         "eps-clos",
         2.0,
         "",
         "Fcfs",
         "a leaf-spine Clos per rail, 2:1 oversubscribed"},
        {"ocs-partial",
         "ocs",
         1.0,
         "per-port",
         "Fcfs",
         "Opus, an OCS that switches only the ports it changes"},
        {"ocs-whole",
         "ocs",
         1.0,
         "whole-switch",
         "Fcfs",
         "Opus, an OCS that darkens all its ports to reconfigure, requests served in order"},
        {"ocs-whole-batch",
         "ocs",
         1.0,
         "whole-switch",
         "Batch",
         "the same OCS, Opus joining the shifts that come during a blackout into the next"},
        {"ocs-static", "ocs-static", 1.0, "", "Fcfs", "the OCS ports split once, never switched"},
    };
    return all;
}

/// Every flag of the program, with its default.
struct Options : JobOptions
{
    std::string jobs; //!< --jobs ("": the built-in mix)
    std::string variants{
        "eps,eps-clos-1:1,eps-clos-2:1,ocs-partial,ocs-whole,ocs-whole-batch,ocs-static"};
    std::string out{"photonic-rails-jobs-out"}; //!< Output folder
    bool plot{true};                            //!< Render the PNG
};

/// \return the variants --variants names, in its order
std::vector<Variant>
ParseVariants(const std::string& text)
{
    std::vector<Variant> chosen;
    for (const std::string& name : StrictCommandLine::SplitList("variants", text))
    {
        auto it = std::find_if(Variants().begin(), Variants().end(), [&name](const Variant& v) {
            return v.name == name;
        });
        if (it == Variants().end())
        {
            std::string names;
            for (const Variant& v : Variants())
            {
                names += (names.empty() ? "" : ", ") + v.name;
            }
            throw std::invalid_argument("--variants: unknown variant " +
                                        StrictCommandLine::Quote(name) + " (" + names + ")");
        }
        if (std::any_of(chosen.begin(), chosen.end(), [&name](const Variant& v) {
                return v.name == name;
            }))
        {
            throw std::invalid_argument("--variants names " + name + " twice");
        }
        chosen.push_back(*it);
    }
    return chosen;
}

/// One job's slowdown on one variant.
struct Row
{
    std::string variant; //!< The variant
    JobShare share;      //!< The job's measurements, with its time alone
};

/// Prints a job per row, a variant per column: the slowdowns.
void
PrintTable(const std::vector<Row>& rows, const std::vector<Variant>& variants)
{
    TextTable table;
    table.AddColumn("job", TextTable::LEFT, 16);
    for (const Variant& v : variants)
    {
        table.AddColumn(v.name, TextTable::RIGHT, std::max<int>(12, v.name.size() + 2));
    }
    std::vector<std::string> jobs;
    for (const Row& row : rows)
    {
        if (std::find(jobs.begin(), jobs.end(), row.share.name) == jobs.end())
        {
            jobs.push_back(row.share.name);
        }
    }
    for (const std::string& job : jobs)
    {
        std::vector<std::string> cells = {job};
        for (const Variant& v : variants)
        {
            for (const Row& row : rows)
            {
                if (row.variant == v.name && row.share.name == job)
                {
                    cells.push_back(TextTable::Fixed(row.share.Slowdown(), 3));
                }
            }
        }
        table.AddRow(cells);
    }
    std::cout << "slowdown (the job's time from start to end in the mix / alone on the same "
                 "servers):\n";
    table.Print(std::cout);
}

/// Writes one row per variant and job.
void
WriteCsv(const std::vector<Row>& rows, const ExperimentOutput& out)
{
    std::ofstream csv = out.Open("slowdowns.csv");
    csv << "variant,job,duration_s,alone_duration_s,slowdown,iteration_s,alone_iteration_s,"
           "reconfigurations,exposed_reconfiguration_s,bytes_sent\n"
        << std::setprecision(12);
    for (const Row& row : rows)
    {
        const JobShare& s = row.share;
        csv << row.variant << ',' << s.name << ',' << s.end - s.start << ',' << s.aloneDuration
            << ',' << s.Slowdown() << ',' << s.steadyIterationTime << ',' << s.aloneIterationTime
            << ',' << s.reconfigurations << ',' << s.exposedReconfiguration << ',' << s.bytesSent
            << '\n';
    }
}

/// The CDF of the jobs' slowdowns, one step curve per variant.
void
Plot(const std::vector<Row>& rows,
     const std::vector<Variant>& variants,
     const ExperimentOutput& out,
     bool render)
{
    Gnuplot plot;
    plot.SetTitle("Slowdown of each job sharing the fabric (CDF over jobs)");
    plot.SetLegend("slowdown (job time in the mix / alone)", "fraction of jobs");
    plot.SetExtra("set grid\nset key bottom right\nset yrange [0:1.05]");
    for (const Variant& v : variants)
    {
        std::vector<double> slowdowns;
        for (const Row& row : rows)
        {
            if (row.variant == v.name)
            {
                slowdowns.push_back(row.share.Slowdown());
            }
        }
        std::sort(slowdowns.begin(), slowdowns.end());
        Gnuplot2dDataset curve(v.name);
        curve.SetStyle(Gnuplot2dDataset::LINES_POINTS);
        for (std::size_t i = 0; i < slowdowns.size(); ++i)
        {
            // A step: the fraction rises from i / n to (i + 1) / n at each slowdown.
            curve.Add(slowdowns[i], double(i) / slowdowns.size());
            curve.Add(slowdowns[i], double(i + 1) / slowdowns.size());
        }
        plot.AddDataset(curve);
    }
    out.WriteFigure(
        "slowdown-cdf",
        900,
        560,
        [&plot](std::ostream& os) { plot.GenerateOutput(os); },
        render);
}

/// \return the options of \p v's runs of \p mix: on eps, one switch with a port for every
///         NIC port of its rail, whatever --radix (which sizes the Clos variants' switches)
JobOptions
VariantOptions(const Options& o, const Variant& v, const JobMix& mix)
{
    JobOptions run = o;
    run.servers = mix.GetServers();
    run.iterations = mix.GetMaxIterations();
    run.oversubscription = v.oversubscription;
    if (!v.ocsSwitching.empty())
    {
        run.ocsSwitching = v.ocsSwitching;
    }
    if (v.fabric == "eps")
    {
        // Ports per rail from a spec that checks no radix (an OCS's).
        RailFabricSpec spec =
            JobRunner::MakeSpec(run, JobFabric::Parse("ocs"), mix.GetDag()->GetRankCount());
        run.radix = std::max(run.radix, spec.PortsPerRail());
    }
    return run;
}

/**
 * \return one line saying what \p v's rails are
 * \throws std::invalid_argument when a Clos variant's leaves would not have its ratio of
 *         down to up ports at --radix (an odd radix rounds), or have no spine
 */
std::string
DescribeRails(const JobOptions& run, const Variant& v, uint32_t ranks)
{
    RailFabricSpec spec = JobRunner::MakeSpec(run, JobFabric::Parse(v.fabric), ranks);
    if (v.fabric == "eps")
    {
        return "one switch of " + std::to_string(spec.PortsPerRail()) + " ports per rail";
    }
    if (v.fabric != "eps-clos")
    {
        return "an OCS of " + std::to_string(spec.PortsPerRail()) + " ports in use per rail";
    }
    ClosPlan plan;
    std::string why =
        ClosPlan::Make(spec.PortsPerRail(), spec.switchRadix, spec.oversubscription, plan);
    std::string ports = "a rail's " + std::to_string(spec.PortsPerRail()) + " NIC ports";
    if (!why.empty() || plan.spines == 0)
    {
        throw std::invalid_argument(v.name + ": at --radix=" + std::to_string(spec.switchRadix) +
                                    " " + ports +
                                    (why.empty() ? " fit on one leaf, with no spine (a smaller "
                                                   "--radix makes a Clos)"
                                                 : ": " + why));
    }
    if (plan.downPerLeaf != v.oversubscription * plan.upPerLeaf)
    {
        throw std::invalid_argument(
            v.name + ": at --radix=" + std::to_string(spec.switchRadix) + " its leaves have " +
            std::to_string(plan.downPerLeaf) + " ports down and " + std::to_string(plan.upPerLeaf) +
            " up, not its ratio (give a --radix that " +
            (v.oversubscription == 1.0 ? "is even)" : "divides into it, e.g. a multiple of 3)"));
    }
    return std::to_string(plan.leaves) + " leaves (" + std::to_string(plan.downPerLeaf) +
           " down, " + std::to_string(plan.upPerLeaf) + " up) and " + std::to_string(plan.spines) +
           (plan.spines == 1 ? " spine" : " spines") + " per rail, radix " +
           std::to_string(spec.switchRadix);
}

void
AddFlags(StrictCommandLine& cmd, Options& o)
{
    std::string variants;
    for (const Variant& v : Variants())
    {
        variants += (variants.empty() ? "" : "; ") + v.name + ": " + v.what;
    }
    cmd.Add("jobs",
            "the jobs: a JSON jobs file as photonic-rails-sim --jobs reads (default: the "
            "built-in mix, written to the output folder's jobs.json)",
            o.jobs);
    cmd.Add("variants", "comma-separated rails to compare (" + variants + ")", o.variants);
    cmd.Add("out", "output folder", o.out);
    cmd.Add("plot", "render the PNG with gnuplot when it is installed", o.plot);
    o.AddFlags(cmd);
    cmd.Reserve("ns3::OpusController::Arbitration",
                "the variant (ocs-whole: Fcfs, ocs-whole-batch: Batch)");
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    o.network = "flow";
    o.radix = 12;   // leaves of 6 down, 6 up (1:1) or 8 down, 4 up (2:1)
    o.nicPorts = 2; // the paper's two ports per GPU on its rail, 200 Gb/s in all
    o.nicRate = 100;
    return RunProgram(
        argc,
        argv,
        PROGRAM,
        __FILE__,
        "Runs several training jobs on one fabric and prints each job's slowdown against "
        "the same job alone, on electrical (one switch, Clos 1:1 and 2:1), optical (per-port "
        "and whole-switch reconfiguration) and statically split rails, with a CDF plot.\n"
        "Defaults: the built-in mix of four jobs on 16 servers (perlmutter, with 2 x 100G NIC "
        "ports per GPU), the flow model, radix 12 for the Clos rails.",
        [&o](StrictCommandLine& cmd) { AddFlags(cmd, o); },
        [&o](const StrictCommandLine& cmd) {
            if (cmd.IsGiven("iterations"))
            {
                throw std::invalid_argument("--iterations: each job's replays are its "
                                            "\"iterations\" in the jobs file");
            }
            cmd.RefuseGiven({"oversubscription", "ocsSwitching"},
                            "is the variants' (see --variants)");
            std::vector<Variant> variants = ParseVariants(o.variants);
            bool clos = std::any_of(variants.begin(), variants.end(), [](const Variant& v) {
                return v.fabric == "eps-clos";
            });
            if (cmd.IsGiven("radix") && !clos)
            {
                throw std::invalid_argument("--radix sizes the Clos variants' switches: add "
                                            "eps-clos-1:1 or eps-clos-2:1 to --variants");
            }
            o.Check();
            if (o.Networks().size() > 1)
            {
                throw std::invalid_argument("--network: one model per run of the variants (" +
                                            o.network + " names several)");
            }
            ExperimentOutput out(o.out, "[jobs]");
            std::string path = o.jobs;
            if (path.empty())
            {
                path = (out.GetDir() / "jobs.json").string();
                out.Open("jobs.json") << DEFAULT_MIX;
            }
            JobMix mix(path, JobsFile::Read(path), o);
            if (mix.GetJobs().size() < 2)
            {
                throw std::invalid_argument(path + " holds one job: a slowdown needs jobs "
                                                   "sharing the fabric (run one job with "
                                                   "photonic-rails-sim --jobs)");
            }
            // Every variant's options and fabric, checked before the first run.
            std::vector<JobOptions> runs;
            std::vector<std::string> rails;
            for (const Variant& v : variants)
            {
                runs.push_back(VariantOptions(o, v, mix));
                rails.push_back(DescribeRails(runs.back(), v, mix.GetDag()->GetRankCount()));
                JobRunner::CheckBeforeRuns(runs.back(),
                                           {JobFabric::Parse(v.fabric)},
                                           *mix.GetDag());
            }
            std::vector<Row> rows;
            for (std::size_t i = 0; i < variants.size(); ++i)
            {
                const Variant& v = variants[i];
                Config::SetDefault("ns3::OpusController::Arbitration", StringValue(v.arbitration));
                std::cerr << "[jobs] " << v.name << ": " << v.what << ": " << rails[i] << "\n";
                JobResult result;
                try
                {
                    result = mix.Run(runs[i],
                                     JobFabric::Parse(v.fabric),
                                     (out.GetDir() / v.name).string());
                }
                catch (const std::runtime_error& e)
                {
                    throw std::runtime_error("variant " + v.name + ": " + e.what());
                }
                for (const JobShare& share : result.jobs)
                {
                    rows.push_back({v.name, share});
                }
            }
            PrintTable(rows, variants);
            WriteCsv(rows, out);
            Plot(rows, variants, out, o.plot);
            std::cout << "wrote " << out.GetDir().string()
                      << "/ (slowdowns.csv, slowdown-cdf.plt, a folder per variant)\n";
            return 0;
        });
}

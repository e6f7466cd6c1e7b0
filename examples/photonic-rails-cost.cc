/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-cost: the paper's Fig. 7 and Table 3. Counts and prices the GPU back-end
 * network of fat-tree, rail-optimized and Opus (photonic rails) designs at 1,024 to 8,192
 * GPUs (DGX H200 servers, 400G), prints Opus's largest savings against rail-optimized (the
 * paper: 70.5% cost, 95.84% power), and how many GPUs one OCS per rail reaches with each
 * OCS technology for GB200 NVL72 and DGX H200 scale-up domains.
 *
 *   photonic-rails-cost
 *   photonic-rails-cost --gpus=512,1024,2048 --ocsPortCost=800 --out=cost-out
 *   photonic-rails-cost --preset=gb200-nvl72 --gpus=1152,2304,4608
 *
 * Writes DIR/cost-power.csv, DIR/ocs-scalability.csv, DIR/cost-power.plt and, if gnuplot is
 * installed, DIR/cost-power.png. Errors are one line on stderr with a non-zero exit status.
 */

#include "ns3/experiment-output.h"
#include "ns3/gnuplot.h"
#include "ns3/ocs-technology.h"
#include "ns3/opus-cost-model.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/strict-command-line.h"
#include "ns3/text-table.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-cost";

/// The paper's headline, printed next to what the model gives.
const double PAPER_COST_SAVING = 70.5;
const double PAPER_POWER_SAVING = 95.84;

/// Every flag of the program, with its default.
struct Options
{
    std::string gpus{"1024,2048,4096,8192"};
    std::string preset{"dgx-h200"};
    uint32_t ocsPorts{2};
    uint32_t ocsTransceivers{1};
    CostUnitPrices prices;
    std::string scaleUp{"gb200-nvl72,dgx-h200"};
    std::string out{"photonic-rails-cost-out"};
    bool plot{true};
};

/// The network sizes of --gpus, ascending and without repeats, each checked by the model.
std::vector<uint64_t>
ParseSizes(const std::string& text, const OpusCostModel& model)
{
    std::vector<uint64_t> sizes;
    for (const auto& item : StrictCommandLine::SplitList("gpus", text))
    {
        char* end = nullptr;
        errno = 0;
        unsigned long long value = std::strtoull(item.c_str(), &end, 10);
        if (item[0] == '-' || *end != '\0' || errno == ERANGE)
        {
            throw std::invalid_argument("--gpus: " + StrictCommandLine::Quote(item) +
                                        " is not a GPU count");
        }
        std::string reason = model.CheckGpus(value);
        if (!reason.empty())
        {
            throw std::invalid_argument("--gpus: " + reason);
        }
        sizes.push_back(value);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

/// A preset of rail-fabric-spec by name, or a one-line error naming the valid ones.
RailFabricSpec
PresetOf(const std::string& flag, const std::string& name)
{
    RailFabricSpec spec;
    if (!RailFabricSpec::Preset(name, spec))
    {
        throw std::invalid_argument("--" + flag + ": unknown preset " +
                                    StrictCommandLine::Quote(name) +
                                    " (valid: " + RailFabricSpec::PresetNames() + ")");
    }
    return spec;
}

/// A delay in the unit that reads best (10 ns, 7 us, 15 ms, 120 s).
std::string
DelayText(const Time& delay)
{
    const std::pair<double, const char*> units[] = {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}};
    double seconds = delay.GetSeconds();
    for (const auto& [scale, unit] : units)
    {
        if (seconds >= scale)
        {
            std::ostringstream text;
            text << seconds / scale << " " << unit;
            return text.str();
        }
    }
    return std::to_string(delay.GetNanoSeconds()) + " ns";
}

/// The Table-3 technologies of which one switch has the ports a rail of this Opus bill needs.
std::string
TechnologiesFor(const CostBill& opus)
{
    std::string names;
    for (const auto& technology : OcsTechnologyCatalog::All())
    {
        if (technology.radix >= opus.radix)
        {
            names += (names.empty() ? "" : ", ") + technology.name;
        }
    }
    return names.empty() ? "no technology of Table 3 has that many ports"
                         : "technologies with that radix: " + names;
}

/// Prints the Fig. 7 table; returns the bills, per size the networks in Networks() order.
std::vector<std::vector<CostBill>>
PrintCostTable(const OpusCostModel& model,
               const RailFabricSpec& server,
               const std::vector<uint64_t>& sizes)
{
    const CostUnitPrices& p = model.GetConfig().prices;
    std::cout << "GPU back-end network cost and power (paper Fig. 7): " << server.name
              << " servers, " << server.gpusPerServer << " GPUs and rails each, fibers excluded\n"
              << std::fixed << std::setprecision(2) << "unit prices: transceiver $"
              << p.transceiverUsd << " / " << p.transceiverW << " W, switch port $"
              << p.switchPortUsd << " / " << p.switchPortW << " W, OCS port $" << p.ocsPortUsd
              << " / " << std::setprecision(3) << p.ocsPortW << " W\n\n";
    // Every column widens to its widest cell: large prices never run into the next one.
    TextTable table;
    table.AddColumn("GPUs", TextTable::RIGHT, 6);
    table.AddColumn("network", TextTable::LEFT, 18);
    for (const auto& [header, width] :
         std::vector<std::pair<std::string, std::size_t>>{{"radix", 6},
                                                          {"switches", 10},
                                                          {"switch ports", 14},
                                                          {"OCS ports", 11},
                                                          {"transceivers", 14},
                                                          {"cost (M$)", 11},
                                                          {"power (kW)", 12}})
    {
        table.AddColumn(header, TextTable::RIGHT, width);
    }
    table.AddColumn("Opus saves (cost, power)", TextTable::LEFT, 3);
    std::vector<std::vector<CostBill>> bills;
    for (uint64_t gpus : sizes)
    {
        std::vector<CostBill> row;
        for (CostNetwork network : OpusCostModel::Networks())
        {
            row.push_back(model.Bill(network, gpus));
        }
        const CostBill& opus = row.back();
        for (const CostBill& b : row)
        {
            std::ostringstream saves;
            if (b.network != CostNetwork::OPUS)
            {
                OpusCostModel::Saving s = OpusCostModel::Compare(b, opus);
                saves << std::fixed << std::setprecision(2) << " " << std::setw(6) << s.cost * 100
                      << "%, " << std::setw(6) << s.power * 100 << "%";
            }
            table.AddRow({std::to_string(b.gpus),
                          OpusCostModel::NetworkName(b.network),
                          std::to_string(b.radix),
                          std::to_string(b.switches),
                          std::to_string(b.switchPorts),
                          std::to_string(b.ocsPorts),
                          std::to_string(b.transceivers),
                          TextTable::Fixed(b.costUsd / 1e6, 3),
                          TextTable::Fixed(b.powerW / 1e3, 2),
                          saves.str()});
        }
        bills.push_back(row);
    }
    table.Print(std::cout);
    std::cout << "\nOpus needs one OCS per rail with a port per NIC port of the rail:\n";
    for (const auto& row : bills)
    {
        const CostBill& opus = row.back();
        std::cout << std::setw(8) << opus.gpus << " GPUs: " << opus.switches << " OCSes of "
                  << opus.radix << " ports; " << TechnologiesFor(opus) << "\n";
    }
    return bills;
}

/// Prints Opus's largest savings against each electrical design; returns the headline (vs
/// rail-optimized) in a few words, for the figure.
std::string
PrintHeadline(const OpusCostModel& model, const std::vector<uint64_t>& sizes)
{
    std::ostringstream headline;
    std::cout << "\n";
    for (CostNetwork baseline : {CostNetwork::RAIL_OPTIMIZED, CostNetwork::FAT_TREE})
    {
        OpusCostModel::Headline h = model.MaxSaving(baseline, sizes);
        std::cout << "Opus vs " << OpusCostModel::NetworkName(baseline) << ", best over "
                  << sizes.front() << "-" << sizes.back() << " GPUs: saves " << std::setprecision(2)
                  << h.best.cost * 100 << "% cost (" << h.costGpus << " GPUs) and "
                  << h.best.power * 100 << "% power (" << h.powerGpus << " GPUs)";
        if (baseline == CostNetwork::RAIL_OPTIMIZED)
        {
            std::cout << "; paper: up to " << std::setprecision(1) << PAPER_COST_SAVING << "% and "
                      << std::setprecision(2) << PAPER_POWER_SAVING << "%";
            headline << std::fixed << std::setprecision(2) << "Opus vs rail-optimized: up to "
                     << h.best.cost * 100 << "% less cost, " << h.best.power * 100
                     << "% less power";
        }
        std::cout << "\n";
    }
    return headline.str();
}

/// One scale-up domain of Table 3's columns.
struct ScaleUp
{
    std::string name; //!< Preset name
    uint32_t gpus{0}; //!< GPUs per scale-up domain
};

/// Prints Table 3 and writes it as CSV.
void
ScalabilityTable(const std::vector<ScaleUp>& domains, uint32_t nicPorts, std::ostream& csv)
{
    std::cout << "\nOpus scalability per OCS technology (paper Table 3): one OCS per rail, "
              << nicPorts << " NIC ports per GPU; GPUs = GPUs per scale-up domain x radix / "
              << nicPorts << "\n\n";
    std::cout << std::left << std::setw(16) << "technology" << std::setw(31) << "example"
              << std::right << std::setw(16) << "reconfiguration" << std::setw(7) << "radix";
    for (const auto& d : domains)
    {
        std::string head = d.name + " (" + std::to_string(d.gpus) + ")";
        std::cout << std::setw(std::max(12, int(head.size()) + 2)) << head;
    }
    std::cout << "\n";
    csv << "technology,example,reconfiguration_s,radix,scale_up,gpus_per_scale_up,nic_ports,"
           "max_gpus\n";
    for (const auto& t : OcsTechnologyCatalog::All())
    {
        std::cout << std::left << std::setw(16) << t.name << std::setw(31) << t.example
                  << std::right << std::setw(16) << DelayText(t.reconfigurationDelay)
                  << std::setw(7) << t.radix;
        for (const auto& d : domains)
        {
            std::string head = d.name + " (" + std::to_string(d.gpus) + ")";
            uint64_t gpus = t.MaxGpus(d.gpus, nicPorts);
            std::cout << std::setw(std::max(12, int(head.size()) + 2)) << gpus;
            csv << t.name << ',' << t.example << ',' << t.reconfigurationDelay.GetSeconds() << ','
                << t.radix << ',' << d.name << ',' << d.gpus << ',' << nicPorts << ',' << gpus
                << '\n';
        }
        std::cout << "\n";
    }
}

/// Writes every bill as CSV, with Opus's savings against each electrical design.
void
WriteCostCsv(const std::vector<std::vector<CostBill>>& bills, std::ostream& csv)
{
    csv << "gpus,servers,network,radix,switches,switch_ports,ocs_ports,transceivers,cost_usd,"
           "power_w,opus_cost_saving,opus_power_saving\n"
        << std::setprecision(10);
    for (const auto& row : bills)
    {
        for (const CostBill& b : row)
        {
            csv << b.gpus << ',' << b.servers << ',' << OpusCostModel::NetworkName(b.network) << ','
                << b.radix << ',' << b.switches << ',' << b.switchPorts << ',' << b.ocsPorts << ','
                << b.transceivers << ',' << b.costUsd << ',' << b.powerW << ',';
            if (b.network != CostNetwork::OPUS)
            {
                OpusCostModel::Saving s = OpusCostModel::Compare(b, row.back());
                csv << s.cost << ',' << s.power;
            }
            else
            {
                csv << ',';
            }
            csv << '\n';
        }
    }
}

/// One panel of the figure: cost (M$) or power (kW) against GPUs, a line per network.
Gnuplot
Panel(const std::vector<std::vector<CostBill>>& bills, bool cost)
{
    Gnuplot panel;
    panel.SetTitle(cost ? "Cost" : "Power");
    panel.SetLegend("GPUs", cost ? "cost (million USD)" : "power (kW)");
    std::string xtics;
    for (const auto& row : bills)
    {
        xtics += (xtics.empty() ? "" : ", ") + std::to_string(row.front().gpus);
    }
    // A margin around the sizes, or gnuplot drops the tick at the edge of a log axis.
    std::ostringstream extra;
    extra << "set logscale x 2\nset xrange [" << bills.front().front().gpus / 1.25 << ":"
          << bills.back().front().gpus * 1.25 << "]\nset xtics (" << xtics
          << ")\nset yrange [0:*]\nset grid\nset key top left";
    panel.SetExtra(extra.str());
    for (std::size_t n = 0; n < OpusCostModel::Networks().size(); ++n)
    {
        Gnuplot2dDataset line(OpusCostModel::NetworkName(OpusCostModel::Networks()[n]));
        line.SetStyle(Gnuplot2dDataset::LINES_POINTS);
        line.SetExtra("lw 2 pt 7");
        for (const auto& row : bills)
        {
            line.Add(double(row[n].gpus), cost ? row[n].costUsd / 1e6 : row[n].powerW / 1e3);
        }
        panel.AddDataset(line);
    }
    return panel;
}

/// Writes the figure: cost and power panels side by side.
void
Plot(const std::vector<std::vector<CostBill>>& bills,
     const ExperimentOutput& out,
     const std::string& title,
     bool render)
{
    out.WriteFigure(
        "cost-power",
        1200,
        480,
        [&](std::ostream& plt) {
            plt << "set multiplot layout 1,2 title \"GPU back-end network, fibers excluded. "
                << title << "\"\n";
            Panel(bills, true).GenerateOutput(plt);
            Panel(bills, false).GenerateOutput(plt);
            plt << "unset multiplot\n";
        },
        render);
}

/// The range of a price or power flag: beyond, the largest network's totals are infinite
/// (inf and -nan% in the table) or hundreds of digits long. Registered with the flag.
FlagRange
PriceRange(const std::string& flag)
{
    static const std::map<std::string, std::pair<double, const char*>> ranges = {
        {"transceiverCost", {CostUnitPrices::MAX_USD, "USD per 400G transceiver"}},
        {"transceiverPower", {CostUnitPrices::MAX_W, "W per 400G transceiver"}},
        {"switchPortCost", {CostUnitPrices::MAX_USD, "USD per switch port"}},
        {"switchPortPower", {CostUnitPrices::MAX_W, "W per switch port"}},
        {"ocsPortCost", {CostUnitPrices::MAX_USD, "USD per OCS port"}},
        {"ocsPortPower", {CostUnitPrices::MAX_W, "W per OCS port"}},
    };
    const auto& [most, what] = ranges.at(flag);
    return FlagRange(0, most, what);
}

/// Refuses a price or power outside its range, naming its flag.
void
CheckPrices(const CostUnitPrices& p)
{
    const std::pair<const char*, double> flags[] = {
        {"transceiverCost", p.transceiverUsd},
        {"transceiverPower", p.transceiverW},
        {"switchPortCost", p.switchPortUsd},
        {"switchPortPower", p.switchPortW},
        {"ocsPortCost", p.ocsPortUsd},
        {"ocsPortPower", p.ocsPortW},
    };
    for (const auto& [flag, value] : flags)
    {
        StrictCommandLine::CheckRange(flag, value, PriceRange(flag));
    }
}

void
AddFlags(StrictCommandLine& flags, Options& o)
{
    flags.Add("gpus", "network sizes in GPUs, comma-separated", o.gpus);
    flags.Add("preset",
              "server of the cost comparison (sets GPUs per server = rails): " +
                  RailFabricSpec::PresetNames(),
              o.preset);
    flags.Add("ocsPorts", "Opus: OCS ports per GPU (NIC ports on the rail)", o.ocsPorts);
    flags.Add("ocsTransceivers",
              "Opus: transceivers per GPU (1: one 400G module feeds both NIC ports)",
              o.ocsTransceivers);
    auto price = [&flags](const char* name, const std::string& help, double& value) {
        flags.Add(name, help, value, PriceRange(name));
    };
    price("transceiverCost", "USD per 400G transceiver", o.prices.transceiverUsd);
    price("transceiverPower", "W per 400G transceiver", o.prices.transceiverW);
    price("switchPortCost", "USD per electrical switch port", o.prices.switchPortUsd);
    price("switchPortPower", "W per electrical switch port", o.prices.switchPortW);
    price("ocsPortCost", "USD per OCS port", o.prices.ocsPortUsd);
    price("ocsPortPower", "W per OCS port", o.prices.ocsPortW);
    flags.Add("scaleUp", "Table 3: scale-up domains (presets), comma-separated", o.scaleUp);
    flags.Add("out", "folder for the CSV files and the plot", o.out);
    flags.Add("plot", "render the PNG with gnuplot when it is installed", o.plot);
}

/// Runs the program with the flags set.
int
Run(const Options& o)
{
    RailFabricSpec server = PresetOf("preset", o.preset);
    OpusCostModel::Config config;
    config.gpusPerServer = server.gpusPerServer;
    config.ocsPortsPerGpu = o.ocsPorts;
    config.ocsTransceiversPerGpu = o.ocsTransceivers;
    config.prices = o.prices;
    CheckPrices(o.prices);
    std::string reason = config.Validate();
    if (!reason.empty())
    {
        throw std::invalid_argument(reason);
    }
    OpusCostModel model(config);
    std::vector<uint64_t> sizes = ParseSizes(o.gpus, model);
    std::vector<ScaleUp> domains;
    for (const auto& name : StrictCommandLine::SplitList("scaleUp", o.scaleUp))
    {
        domains.push_back({name, PresetOf("scaleUp", name).gpusPerServer});
    }

    // Every input is checked: now the folder.
    ExperimentOutput out(o.out, "[cost]");
    auto bills = PrintCostTable(model, server, sizes);
    std::string headline = PrintHeadline(model, sizes);
    std::ofstream scalabilityCsv = out.Open("ocs-scalability.csv");
    ScalabilityTable(domains, o.ocsPorts, scalabilityCsv);
    std::ofstream costCsv = out.Open("cost-power.csv");
    WriteCostCsv(bills, costCsv);
    std::cerr << "[cost] wrote " << (out.GetDir() / "cost-power.csv").string() << " and "
              << (out.GetDir() / "ocs-scalability.csv").string() << "\n";
    Plot(bills, out, headline, o.plot);
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
        "Cost and power of fat-tree, rail-optimized and Opus GPU "
        "networks (paper Fig. 7), and Opus's scalability per OCS "
        "technology (paper Table 3).",
        [&o](StrictCommandLine& flags) { AddFlags(flags, o); },
        [&o](const StrictCommandLine&) { return Run(o); });
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Electrical rails under contention, as the DCQCN and HPCC papers test them, on one packet
 * switch: N long flows into one egress (each flow's throughput and the egress's utilisation
 * over time, their shares once converged), and an 8:1 incast of short messages (queue depth,
 * PFC pauses). Prints a table per experiment; writes the time series and a figure.
 *
 *   photonic-rails-contention                        (cx7; 2, 4, 8 flows; 100, 200, 400 Gb/s)
 *   photonic-rails-contention --profiles=cx7,paper-40g,pfc-only --rates=100 --flows=2
 */

#include "ns3/attribute-default.h"
#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/strict-command-line.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-contention";

/// Every flag of the program, with its default.
struct Options
{
    std::string flows{"2,4,8"};       //!< Senders into one egress, one experiment each
    std::string rates{"100,200,400"}; //!< Link rates in Gb/s
    std::string profiles{"cx7"};      //!< RailTransport::DcqcnProfile values
    double durationMs{20};            //!< Wire time of all flows together at the egress
    double intervalUs{100};           //!< Sampling period of the time series
    uint64_t incastBytes{256 << 10};  //!< Message of each of the incast's 8 senders
    std::string out{"photonic-rails-contention-out"}; //!< Output folder
    bool plot{true};                                  //!< Render the figure
};

/// What one experiment measured.
struct Result
{
    std::string profile;                     //!< DCQCN profile
    uint32_t gbps{0};                        //!< Link rate
    uint32_t senders{0};                     //!< Flows into the egress
    double doneUs{0};                        //!< Last message complete
    double wireUs{0};                        //!< All payload at the egress's payload rate
    double utilisation{0};                   //!< Egress payload rate / payload line rate, converged
    double minShare{0};                      //!< Smallest flow's share of the egress, converged
    double maxShare{0};                      //!< Largest flow's share
    double jain{0};                          //!< Jain's fairness index of the shares
    uint64_t pauses{0};                      //!< PAUSE frames the switch sent
    uint64_t marks{0};                       //!< ECN marks
    uint64_t cnps{0};                        //!< CNPs the receiver sent
    uint64_t maxQueue{0};                    //!< Deepest egress queue, bytes
    uint64_t timeouts{0};                    //!< Retransmission timeouts of the senders
    std::vector<std::vector<double>> series; //!< time (ms), egress, flow 1.. (payload Gb/s)
};

std::vector<uint32_t>
ParseCounts(const std::string& flag, const std::string& text, uint32_t least, uint32_t most)
{
    std::vector<uint32_t> values;
    for (const std::string& item : StrictCommandLine::SplitList(flag, text))
    {
        std::size_t used = 0;
        unsigned long value = 0;
        try
        {
            value = std::stoul(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used != item.size() || !std::isdigit(static_cast<unsigned char>(item[0])) ||
            value < least || value > most)
        {
            throw std::invalid_argument("--" + flag + ": " + StrictCommandLine::Quote(item) +
                                        " is not a whole number from " + std::to_string(least) +
                                        " to " + std::to_string(most));
        }
        if (std::count(values.begin(), values.end(), value) > 0)
        {
            throw std::invalid_argument("--" + flag + " names " + item + " twice");
        }
        values.push_back(static_cast<uint32_t>(value));
    }
    return values;
}

/// The fabric: one packet switch, GPU 0 the receiver, GPUs 1..senders the senders.
Ptr<RailFabric>
Build(const std::string& profile, uint32_t gbps, uint32_t senders)
{
    Config::SetDefault("ns3::RailTransport::DcqcnProfile", StringValue(profile));
    RailFabricSpec spec;
    spec.servers = senders + 1;
    spec.gpusPerServer = 1;
    spec.kind = RailKind::EPS;
    spec.nicPorts = 1;
    spec.nicPortBps = uint64_t(gbps) * 1000000000;
    spec.scaleUpBps = spec.nicPortBps;
    RailFabricHelper helper;
    helper.SetSpec(spec);
    helper.SetTransportAttribute("Dcqcn", BooleanValue(true));
    Ptr<RailFabric> fabric = helper.Build();
    fabric->AssignStreams(0);
    return fabric;
}

/// Payload bytes per second the egress carries at line rate (4096-byte frames).
double
PayloadLineRate(uint32_t gbps)
{
    const double mtu = 4096;
    return gbps * 1e9 / 8 * mtu / (mtu + RailTransportHeader::FRAME_OVERHEAD);
}

/// Runs \p senders flows of \p bytes into GPU 0, sampling every \p interval.
Result
RunFlows(const std::string& profile, uint32_t gbps, uint32_t senders, uint64_t bytes, Time interval)
{
    Result r;
    r.profile = profile;
    r.gbps = gbps;
    r.senders = senders;
    Ptr<RailFabric> fabric = Build(profile, gbps, senders);
    Ptr<EpsSwitch> sw = fabric->GetRailSwitches(0)[0];
    sw->TraceConnectWithoutContext(
        "QueueLength",
        Callback<void, uint32_t, uint64_t>(
            [&r](uint32_t, uint64_t queued) { r.maxQueue = std::max(r.maxQueue, queued); }));
    uint32_t remaining = senders;
    Time firstDone = Time::Max();
    fabric->GetTransport(0)->SetReceiveCallback(
        Callback<void, uint32_t, uint64_t, uint64_t>([&](uint32_t, uint64_t, uint64_t) {
            firstDone = std::min(firstDone, Simulator::Now());
            if (--remaining == 0)
            {
                r.doneUs = Simulator::Now().ToDouble(Time::US);
            }
        }));
    // Each flow's data frames as they reach GPU 0 (their shares of what the egress carried).
    std::vector<uint64_t> arrived(senders + 1, 0);
    fabric->GetEndpoints()->GetPorts(0)[0]->TraceConnectWithoutContext(
        "MacRx",
        Callback<void, Ptr<const Packet>>([&arrived](Ptr<const Packet> frame) {
            RailTransportHeader header;
            frame->PeekHeader(header);
            if (header.kind == RailTransportHeader::DATA && header.sourceGpu < arrived.size())
            {
                arrived[header.sourceGpu] += frame->GetSize();
            }
        }));
    for (uint32_t gpu = 1; gpu <= senders; ++gpu)
    {
        fabric->GetTransport(gpu)->Send(0, bytes);
    }
    // Samples: cumulative payload GPU 0 accepted, then each flow's frame bytes.
    std::vector<std::vector<uint64_t>> cumulative;
    auto lastProgress = std::chrono::steady_clock::now();
    std::function<void()> sample = [&]() {
        if (std::chrono::steady_clock::now() - lastProgress > std::chrono::seconds(5))
        {
            lastProgress = std::chrono::steady_clock::now();
            std::cerr << "[contention] " << profile << " " << gbps << " Gb/s, " << senders
                      << " flows: " << Simulator::Now().ToDouble(Time::MS) << " ms simulated, "
                      << senders - remaining << " of " << senders << " done\n";
        }
        std::vector<uint64_t> row{fabric->GetTransport(0)->GetCounters().payloadBytesReceived};
        row.insert(row.end(), arrived.begin() + 1, arrived.end());
        cumulative.push_back(row);
        if (remaining > 0)
        {
            Simulator::Schedule(interval, sample);
        }
    };
    Simulator::Schedule(interval, sample);
    Simulator::Run();
    const EpsSwitchCounters& counters = sw->GetCounters();
    r.pauses = counters.pausesSent;
    r.marks = counters.framesMarked;
    r.cnps = fabric->GetTransport(0)->GetCounters().cnpsSent;
    for (uint32_t gpu = 1; gpu <= senders; ++gpu)
    {
        r.timeouts += fabric->GetTransport(gpu)->GetCounters().timeouts;
    }
    Simulator::Destroy();

    const double line = PayloadLineRate(gbps);
    r.wireUs = senders * double(bytes) / line * 1e6;
    std::vector<uint64_t> previous(senders + 1, 0);
    for (std::size_t i = 0; i < cumulative.size(); ++i)
    {
        std::vector<double> row{(i + 1) * interval.ToDouble(Time::MS)};
        for (std::size_t k = 0; k < previous.size(); ++k)
        {
            // Frame bytes to payload (each flow's frames are full 4096-byte ones).
            double payload = k == 0 ? 1 : 4096.0 / (4096 + RailTransportHeader::FRAME_OVERHEAD);
            row.push_back((cumulative[i][k] - previous[k]) * payload * 8 / interval.GetSeconds() /
                          1e9);
            previous[k] = cumulative[i][k];
        }
        r.series.push_back(row);
    }
    // Converged: the second half of the time every flow was still sending.
    std::size_t end =
        std::min<std::size_t>(cumulative.size(), firstDone.GetTimeStep() / interval.GetTimeStep());
    std::size_t begin = end / 2;
    if (end < begin + 2)
    {
        throw std::invalid_argument("--durationMs is too short for --intervalUs: fewer than "
                                    "four samples while every flow sends");
    }
    double egress = double(cumulative[end - 1][0] - cumulative[begin - 1][0]);
    double frames = 0;
    for (uint32_t k = 1; k <= senders; ++k)
    {
        frames += double(cumulative[end - 1][k] - cumulative[begin - 1][k]);
    }
    double sum = 0;
    double squares = 0;
    r.minShare = 1;
    for (uint32_t k = 1; k <= senders; ++k)
    {
        double share = double(cumulative[end - 1][k] - cumulative[begin - 1][k]) / frames;
        r.minShare = std::min(r.minShare, share);
        r.maxShare = std::max(r.maxShare, share);
        sum += share;
        squares += share * share;
    }
    r.jain = sum * sum / (senders * squares);
    r.utilisation = egress / ((end - begin) * interval.GetSeconds() * line);
    return r;
}

/// The 8:1 incast of short messages.
Result
RunIncast(const std::string& profile, uint32_t gbps, uint64_t bytes)
{
    Result r;
    r.profile = profile;
    r.gbps = gbps;
    r.senders = 8;
    Ptr<RailFabric> fabric = Build(profile, gbps, 8);
    Ptr<EpsSwitch> sw = fabric->GetRailSwitches(0)[0];
    sw->TraceConnectWithoutContext(
        "QueueLength",
        Callback<void, uint32_t, uint64_t>(
            [&r](uint32_t, uint64_t queued) { r.maxQueue = std::max(r.maxQueue, queued); }));
    fabric->GetTransport(0)->SetReceiveCallback(Callback<void, uint32_t, uint64_t, uint64_t>(
        [&r](uint32_t, uint64_t, uint64_t) { r.doneUs = Simulator::Now().ToDouble(Time::US); }));
    for (uint32_t gpu = 1; gpu <= 8; ++gpu)
    {
        fabric->GetTransport(gpu)->Send(0, bytes);
    }
    Simulator::Run();
    r.pauses = sw->GetCounters().pausesSent;
    r.marks = sw->GetCounters().framesMarked;
    r.cnps = fabric->GetTransport(0)->GetCounters().cnpsSent;
    for (uint32_t gpu = 1; gpu <= 8; ++gpu)
    {
        r.timeouts += fabric->GetTransport(gpu)->GetCounters().timeouts;
    }
    Simulator::Destroy();
    r.wireUs = 8 * double(bytes) / PayloadLineRate(gbps) * 1e6;
    return r;
}

void
PrintFlows(const std::vector<Result>& results)
{
    std::cout << "\nN long flows into one egress (converged: the second half of the time all "
                 "send)\n"
              << "profile     Gb/s  flows   done (ms)  wire (ms)  vs wire  utilisation  "
                 "share min-max (%)   Jain  pauses    marks    CNPs  max queue (KB)  timeouts\n";
    for (const Result& r : results)
    {
        std::cout << std::left << std::setw(10) << r.profile << std::right << std::setw(6) << r.gbps
                  << std::setw(7) << r.senders << std::fixed << std::setprecision(3)
                  << std::setw(12) << r.doneUs / 1e3 << std::setw(11) << r.wireUs / 1e3
                  << std::showpos << std::setprecision(1) << std::setw(8)
                  << (r.doneUs / r.wireUs - 1) * 100 << "%" << std::noshowpos << std::setw(12)
                  << r.utilisation * 100 << "%" << std::setw(11) << r.minShare * 100 << " - "
                  << std::setw(5) << r.maxShare * 100 << std::setprecision(3) << std::setw(7)
                  << r.jain << std::setw(8) << r.pauses << std::setw(9) << r.marks << std::setw(8)
                  << r.cnps << std::setprecision(0) << std::setw(16) << r.maxQueue / 1e3
                  << std::setw(10) << r.timeouts << "\n";
    }
}

void
PrintIncast(const std::vector<Result>& results, uint64_t bytes)
{
    std::cout << "\n8:1 incast of " << bytes << "-byte messages\n"
              << "profile     Gb/s   done (us)  wire (us)  vs wire  pauses    marks    CNPs  "
                 "max queue (KB)  timeouts\n";
    for (const Result& r : results)
    {
        std::cout << std::left << std::setw(10) << r.profile << std::right << std::setw(6) << r.gbps
                  << std::fixed << std::setprecision(1) << std::setw(12) << r.doneUs
                  << std::setw(11) << r.wireUs << std::showpos << std::setw(8)
                  << (r.doneUs / r.wireUs - 1) * 100 << "%" << std::noshowpos << std::setw(8)
                  << r.pauses << std::setw(9) << r.marks << std::setw(8) << r.cnps
                  << std::setprecision(0) << std::setw(16) << r.maxQueue / 1e3 << std::setw(10)
                  << r.timeouts << "\n";
    }
}

/// Timeouts mean the numbers measure go-back-N, not the congestion control: say so.
void
WarnTimeouts(const std::vector<Result>& results)
{
    uint64_t timeouts = 0;
    for (const Result& r : results)
    {
        timeouts += r.timeouts;
    }
    if (timeouts > 0)
    {
        std::cerr << "[contention] warning: " << timeouts
                  << " retransmission timeouts: queues held frames longer than "
                     "RetransmitTimeout (1 ms by default; slow links and deep buffers), so "
                     "those rows measure go-back-N too; raise "
                     "--ns3::RailTransport::RetransmitTimeout\n";
    }
}

/// One CSV per experiment: time, egress and each flow in Gb/s.
void
WriteSeries(const ExperimentOutput& out, const Result& r)
{
    std::ofstream csv = out.Open(r.profile + "-" + std::to_string(r.gbps) + "g-" +
                                 std::to_string(r.senders) + "-flows.csv");
    csv << "time_ms,egress_gbps";
    for (uint32_t k = 1; k <= r.senders; ++k)
    {
        csv << ",flow" << k << "_gbps";
    }
    csv << "\n";
    for (const auto& row : r.series)
    {
        for (std::size_t i = 0; i < row.size(); ++i)
        {
            csv << (i ? "," : "") << row[i];
        }
        csv << "\n";
    }
}

/// The figure: a panel per experiment, the egress and each flow over time.
void
Plot(const ExperimentOutput& out, const std::vector<Result>& results, bool render)
{
    uint32_t columns = std::min<std::size_t>(3, results.size());
    uint32_t rows = (results.size() + columns - 1) / columns;
    out.WriteFigure(
        "contention",
        420 * columns,
        320 * rows,
        [&](std::ostream& plt) {
            plt << "set multiplot layout " << rows << "," << columns
                << " title \"N flows into one egress: throughput over time\"\n";
            for (const Result& r : results)
            {
                Gnuplot panel;
                panel.SetTitle(r.profile + ", " + std::to_string(r.gbps) + " Gb/s, " +
                               std::to_string(r.senders) + " flows");
                panel.SetLegend("time (ms)", "Gb/s");
                panel.SetExtra("set yrange [0:" + std::to_string(r.gbps * 1.05) +
                               "]\nset grid\nset key off");
                for (std::size_t k = 1; k < r.series.front().size(); ++k)
                {
                    Gnuplot2dDataset line(k == 1 ? "egress" : "flow " + std::to_string(k - 1));
                    line.SetStyle(Gnuplot2dDataset::LINES);
                    line.SetExtra(k == 1 ? "lw 3 lc rgb 'black'" : "lw 1");
                    for (const auto& row : r.series)
                    {
                        line.Add(row[0], row[k]);
                    }
                    panel.AddDataset(line);
                }
                panel.GenerateOutput(plt);
            }
            plt << "unset multiplot\n";
        },
        render);
}

void
AddFlags(StrictCommandLine& cmd, Options& o)
{
    cmd.Add("flows", "senders into one egress, a list (e.g. 2,4,8), 1 to 64 each", o.flows);
    cmd.Add("rates", "link rates in Gb/s, a list (e.g. 100,200,400), 1 to 1600 each", o.rates);
    cmd.Add("profiles", "DCQCN profiles, a list of cx7, paper-40g, pfc-only", o.profiles);
    cmd.Add("durationMs",
            "wire time of all flows together at the egress, ms",
            o.durationMs,
            FlagRange(0.1, 1000, "ms"));
    cmd.Add("intervalUs",
            "sampling period of the time series, us",
            o.intervalUs,
            FlagRange(1, 100000, "us"));
    cmd.Add("incastBytes",
            "message of each sender of the 8:1 incast, bytes",
            o.incastBytes,
            FlagRange(1, 1 << 30, "bytes"));
    cmd.Add("out", "output folder", o.out);
    cmd.Add("plot", "render the figure with gnuplot", o.plot);
    AttributeAudit::ForFabricExample(cmd, false, {});
    cmd.Reserve("ns3::RailTransport::DcqcnProfile", "--profiles");
    cmd.Reserve("ns3::RailTransport::Dcqcn", "--profiles (pfc-only turns it off)");
    cmd.Reserve("ns3::RailNetDevice::DataRate", "--rates");
}

/// DCQCN's attributes where no QP runs DCQCN or no switch marks: they would change nothing.
void
CheckDcqcnApplies(const StrictCommandLine& cmd, const std::vector<std::string>& profiles)
{
    bool marks = AttributeDefault<BooleanValue>(EpsSwitch::GetTypeId(), "EcnEnabled");
    bool dcqcn = std::any_of(profiles.begin(), profiles.end(), [](const std::string& profile) {
        return profile != "pfc-only";
    });
    for (const std::string& attribute : cmd.GetAttributes())
    {
        bool rate = attribute.rfind("ns3::RailTransport::Dcqcn", 0) == 0 ||
                    attribute == "ns3::RailTransport::CnpInterval";
        if (rate && !(dcqcn && marks))
        {
            throw std::invalid_argument("--" + attribute + " acts on DCQCN, which " +
                                        (!dcqcn ? "no profile of --profiles runs (pfc-only)"
                                                : "no ECN mark drives (EcnEnabled is false)"));
        }
    }
}

int
Run(const StrictCommandLine& cmd, const Options& o)
{
    std::vector<uint32_t> flows = ParseCounts("flows", o.flows, 1, 64);
    std::vector<uint32_t> rates = ParseCounts("rates", o.rates, 1, 1600);
    std::vector<std::string> profiles = StrictCommandLine::SplitList("profiles", o.profiles);
    for (std::size_t i = 0; i < profiles.size(); ++i)
    {
        const std::string& profile = profiles[i];
        if (std::count(profiles.begin(), profiles.begin() + i, profile) > 0)
        {
            throw std::invalid_argument("--profiles names " + profile + " twice");
        }
        if (profile != "cx7" && profile != "paper-40g" && profile != "pfc-only")
        {
            throw std::invalid_argument("--profiles: unknown profile " +
                                        StrictCommandLine::Quote(profile) +
                                        " (cx7, paper-40g, pfc-only)");
        }
    }
    CheckDcqcnApplies(cmd, profiles);
    if (o.durationMs * 1e3 / o.intervalUs < 8)
    {
        throw std::invalid_argument("--durationMs is too short for --intervalUs: give at "
                                    "least 8 samples (durationMs x 1000 / intervalUs >= 8)");
    }
    ExperimentOutput out(o.out, "[contention]");
    std::vector<Result> results;
    std::vector<Result> incasts;
    for (const std::string& profile : profiles)
    {
        for (uint32_t gbps : rates)
        {
            for (uint32_t n : flows)
            {
                auto bytes = static_cast<uint64_t>(o.durationMs / 1e3 * PayloadLineRate(gbps) / n);
                results.push_back(RunFlows(profile,
                                           gbps,
                                           n,
                                           std::max<uint64_t>(bytes, 1),
                                           Time::FromDouble(o.intervalUs, Time::US)));
                WriteSeries(out, results.back());
                std::cerr << "[contention] " << profile << " " << gbps << " Gb/s, " << n
                          << " flows: done\n";
            }
            incasts.push_back(RunIncast(profile, gbps, o.incastBytes));
        }
    }
    PrintFlows(results);
    PrintIncast(incasts, o.incastBytes);
    WarnTimeouts(results);
    WarnTimeouts(incasts);
    Plot(out, results, o.plot);
    std::cerr << "[contention] wrote " << out.GetDir().string() << "/\n";
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
        "DCQCN, ECN and PFC on one packet switch: N long flows into one egress, and an 8:1 "
        "incast of short messages.",
        [&o](StrictCommandLine& cmd) { AddFlags(cmd, o); },
        [&o](const StrictCommandLine& cmd) { return Run(cmd, o); });
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Speed benchmark, always against ns-3's own PointToPointNetDevice in the same run:
 *  1. devices: frames per wall-second through OcsNetDevice over an OCS circuit, and through
 *     PointToPointNetDevice, with the same frames;
 *  2. transport: data frame-hops per wall-second of RailTransport moving --transportBytes
 *     across an electrical rail (NIC -> switch -> NIC: two hops a frame) and across an OCS
 *     circuit (one hop), next to raw point-to-point frames of the same size (4158 bytes);
 *     the transport's ACKs are simulated but not counted.
 *
 * Both links are driven identically: a refill event tops the sender's queue up once per
 * batch of frames, so the device itself paces the frames at line rate. Each case runs
 * --repeats times, alternating; the median wall time is reported, with events per second
 * and the process's peak resident memory.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/strict-command-line.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <stdexcept>
#include <string>
#include <sys/resource.h>

using namespace ns3;

namespace
{

const char* const PROGRAM = "photonic-rails-bench";

/// Result of one timed run.
struct Measurement
{
    double wallSeconds{0};
    uint64_t events{0};
    uint64_t framesDelivered{0}; //!< Frames (device cases) or messages' frames (transport)
    uint64_t hops{0};            //!< Frame transmissions on any link
};

uint64_t g_delivered = 0;

bool
CountFrame(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
{
    ++g_delivered;
    return true;
}

/// Keeps a sender's queue topped up until all frames have been handed over.
struct Pump
{
    Ptr<NetDevice> sender;
    Ptr<Queue<Packet>> queue;
    Address peer;
    uint32_t payload;
    uint32_t capacity;
    Time period;
    uint64_t remaining;

    void Refill()
    {
        uint32_t room = capacity - queue->GetNPackets();
        uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(room, remaining));
        for (uint32_t k = 0; k < n; ++k)
        {
            sender->Send(Create<Packet>(payload), peer, 0x0800);
        }
        remaining -= n;
        if (remaining > 0)
        {
            Simulator::Schedule(period, &Pump::Refill, this);
        }
    }
};

/// Builds two nodes joined by either an OCS circuit or a point-to-point link.
NetDeviceContainer
BuildLink(bool optical, DataRate rate, uint32_t queueFrames)
{
    NodeContainer nodes;
    nodes.Create(2);
    std::string queueSize = std::to_string(queueFrames) + "p";
    if (optical)
    {
        OcsHelper ocs;
        ocs.SetDeviceAttribute("DataRate", DataRateValue(rate));
        ocs.SetDeviceAttribute("FiberDelay", TimeValue(NanoSeconds(500)));
        ocs.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(queueSize));
        NetDeviceContainer devices = ocs.Install(nodes);
        DynamicCast<OcsNetDevice>(devices.Get(0))
            ->GetSwitch()
            ->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        return devices;
    }
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(9000));
    p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(1000)));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(queueSize));
    return p2p.Install(nodes);
}

Measurement
RunOnce(bool optical, uint64_t frames, uint32_t payload, DataRate rate)
{
    const uint32_t batch = 256;
    NetDeviceContainer devices = BuildLink(optical, rate, 2 * batch);
    devices.Get(1)->SetReceiveCallback(MakeCallback(&CountFrame));
    Ptr<Queue<Packet>> queue = optical
                                   ? DynamicCast<OcsNetDevice>(devices.Get(0))->GetQueue()
                                   : DynamicCast<PointToPointNetDevice>(devices.Get(0))->GetQueue();
    // Half the queue drains in one period, so it never runs dry nor overflows. The period is
    // the batch's time as a whole: one small frame's time rounds to 0 ns (a 16-byte payload
    // at 400 Gb/s takes 0.32 ns), and a period of 0 refilled a full queue forever without
    // letting the clock advance. At least 1 ns: the tiniest frames then leave faster than
    // they are refilled, which costs speed, not progress.
    Time period = std::max(NanoSeconds(1), rate.CalculateBytesTxTime(payload * batch));
    Pump pump{devices.Get(0),
              queue,
              devices.Get(1)->GetAddress(),
              payload,
              2 * batch,
              period,
              frames};
    Simulator::Schedule(Time(0), &Pump::Refill, &pump);
    g_delivered = 0;
    uint64_t eventsBefore = Simulator::GetEventCount();
    auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    auto end = std::chrono::steady_clock::now();
    Measurement m;
    m.wallSeconds = std::chrono::duration<double>(end - start).count();
    m.events = Simulator::GetEventCount() - eventsBefore;
    m.framesDelivered = g_delivered;
    m.hops = g_delivered;
    Simulator::Destroy();
    return m;
}

/// RailTransport moves \p bytes from GPU 0 to GPU 1 over one rail of \p kind.
Measurement
RunTransport(RailKind kind, uint64_t bytes, DataRate rate)
{
    RailFabricSpec spec;
    spec.servers = 2;
    spec.gpusPerServer = 1;
    spec.kind = kind;
    spec.nicPortBps = rate.GetBitRate();
    RailFabricHelper helper;
    helper.SetSpec(spec);
    Ptr<RailFabric> fabric = helper.Build();
    if (kind == RailKind::OCS)
    {
        fabric->GetOcs(0)->Preset(fabric->RingCircuits(0));
    }
    bool done = false;
    fabric->GetTransport(1)->SetReceiveCallback(Callback<void, uint32_t, uint64_t, uint64_t>(
        [&done](uint32_t, uint64_t, uint64_t) { done = true; }));
    fabric->GetTransport(0)->Send(1, bytes);
    uint64_t eventsBefore = Simulator::GetEventCount();
    auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    auto end = std::chrono::steady_clock::now();
    Measurement m;
    m.wallSeconds = std::chrono::duration<double>(end - start).count();
    m.events = Simulator::GetEventCount() - eventsBefore;
    m.framesDelivered = done ? fabric->GetTransport(1)->GetCounters().payloadBytesReceived : 0;
    // Data frames only, like the point-to-point reference (ACKs ride along uncounted).
    uint32_t hopsPerFrame = kind == RailKind::OCS ? 1 : 2;
    m.hops = fabric->GetTransport(0)->GetCounters().dataFrames * hopsPerFrame;
    Simulator::Destroy();
    return m;
}

double
PeakRssMiB()
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0; // ru_maxrss is in KiB on Linux
}

Measurement
Median(std::vector<Measurement> runs)
{
    std::sort(runs.begin(), runs.end(), [](const Measurement& a, const Measurement& b) {
        return a.wallSeconds < b.wallSeconds;
    });
    return runs[runs.size() / 2];
}

void
Report(const std::string& name, const Measurement& m, const std::string& unit)
{
    std::cout << std::left << std::setw(34) << name << std::right << std::fixed
              << std::setprecision(3) << std::setw(9) << m.wallSeconds << std::setw(12) << m.hops
              << std::setprecision(0) << std::setw(14) << m.hops / m.wallSeconds << " " << unit
              << std::setw(14) << m.events / m.wallSeconds << "\n";
}

/// Every flag of the program, as typed, with its default.
struct Options
{
    uint64_t frames{1000000};            //!< Frames per device run
    uint32_t payload{4096};              //!< Payload bytes per frame in the device runs
    uint64_t transportBytes{1ULL << 30}; //!< Bytes RailTransport moves per transport run
    uint32_t repeats{3};                 //!< Runs per case
    std::string rate{"400Gbps"};         //!< Line rate
};

/// Bounds of the flags, so that a run stays short: a repeat moves 2 x --frames device frames
/// and 3 x --transportBytes / 4096 transport frames, at 0.4 to 1.4 million frames per wall
/// second (a loaded and an idle 2-core machine). At the bounds a repeat took 45 s on the loaded
/// one (the defaults: 5 s), so 5 repeats take at most about 4 minutes.
constexpr uint64_t MAX_FRAMES = 10000000;
constexpr uint64_t MAX_TRANSPORT_BYTES = uint64_t(1) << 33; // 8 GiB: 2^21 frames of 4096 B
constexpr uint32_t MAX_REPEATS = 5;
constexpr uint32_t MAX_PAYLOAD = 8986; // a 9000-byte MTU less the 14-byte Ethernet header

void
AddFlags(StrictCommandLine& cmd, Options& o)
{
    // The command line refuses values outside these ranges (the defaults are inside).
    cmd.Add("frames",
            "frames per device run",
            o.frames,
            FlagRange(1, MAX_FRAMES, "frames per device run"));
    cmd.Add("payload",
            "payload bytes per frame in the device runs",
            o.payload,
            FlagRange(1, MAX_PAYLOAD, "payload bytes of a 9000-byte frame"));
    cmd.Add("transportBytes",
            "bytes RailTransport moves per transport run (2^33 at most)",
            o.transportBytes,
            FlagRange(1, MAX_TRANSPORT_BYTES, "bytes per transport run"));
    cmd.Add("repeats",
            "runs per case (the median is reported)",
            o.repeats,
            FlagRange(1, MAX_REPEATS, "runs per case"));
    cmd.Add("rate",
            "line rate: a number and bps, kbps, Mbps, Gbps or Tbps, 1Mbps to 10Tbps",
            o.rate);
    AttributeAudit::ForFabricExample(cmd,
                                     true,
                                     {"ns3::PointToPointNetDevice", "ns3::PointToPointChannel"});
    cmd.Reserve("ns3::RailNetDevice::DataRate", "--rate");
    cmd.Reserve("ns3::OpticalCircuitSwitch::Radix", "the benchmark (a 2-port OCS)");
    cmd.Reserve("ns3::PointToPointNetDevice::DataRate", "--rate");
    cmd.Reserve("ns3::PointToPointNetDevice::Mtu", "the benchmark (9000, as the OCS runs)");
    cmd.Reserve("ns3::OcsNetDevice::FiberDelay", "the benchmark (500 ns)");
}

/// A line rate such as "400Gbps", within the bounds RailFabricSpec puts on a NIC port.
DataRate
ParseRate(const std::string& text)
{
    static const std::regex format(
        "([0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?)(bps|kbps|Mbps|Gbps|Tbps)");
    static const std::map<std::string, double> scale = {{"bps", 1},
                                                        {"kbps", 1e3},
                                                        {"Mbps", 1e6},
                                                        {"Gbps", 1e9},
                                                        {"Tbps", 1e12}};
    std::smatch match;
    if (!std::regex_match(text, match, format))
    {
        throw std::invalid_argument("--rate: " + StrictCommandLine::Quote(text) +
                                    " is not a line rate (e.g. 400Gbps, 1.6Tbps, 100Mbps)");
    }
    // strtod: a number beyond a double is infinity and fails the range check. Below 1 Mb/s
    // the transport's fabric is refused (an abort), and 0 b/s divided by zero.
    double bps = std::strtod(match[1].str().c_str(), nullptr) * scale.at(match[4].str());
    if (!(bps >= RailFabricSpec::MIN_PORT_GBPS * 1e9 && bps <= RailFabricSpec::MAX_PORT_GBPS * 1e9))
    {
        throw std::invalid_argument("--rate: " + StrictCommandLine::Quote(text) +
                                    " is outside [1Mbps, 10Tbps]");
    }
    return DataRate(static_cast<uint64_t>(std::llround(bps)));
}

/// Runs the benchmark with checked flags. \return the exit status
int
Run(const Options& o, DataRate rate)
{
    const uint64_t frames = o.frames;
    const uint32_t payload = o.payload;
    const uint32_t repeats = o.repeats;
    const uint64_t transportBytes = o.transportBytes;
    // Transport frames: 4096 payload + 48 transport header + 14 Ethernet = 4158 bytes; the
    // point-to-point reference sends 4156 + 2 (PPP) = 4158 bytes.
    uint64_t transportFrames = (transportBytes + 4095) / 4096;

    std::cout << "photonic-rails-bench: median of " << repeats << " runs at "
              << rate.GetBitRate() / 1e9 << " Gb/s\n";
    std::vector<Measurement> p2pRuns;
    std::vector<Measurement> ocsRuns;
    std::vector<Measurement> refRuns;
    std::vector<Measurement> epsRailRuns;
    std::vector<Measurement> ocsRailRuns;
    for (uint32_t r = 0; r < repeats; ++r)
    {
        std::cerr << "[bench] run " << r + 1 << "/" << repeats << "\n";
        p2pRuns.push_back(RunOnce(false, frames, payload, rate));
        ocsRuns.push_back(RunOnce(true, frames, payload, rate));
        refRuns.push_back(RunOnce(false, transportFrames, 4156, rate));
        epsRailRuns.push_back(RunTransport(RailKind::EPS, transportBytes, rate));
        ocsRailRuns.push_back(RunTransport(RailKind::OCS, transportBytes, rate));
    }
    Measurement p2p = Median(p2pRuns);
    Measurement ocs = Median(ocsRuns);
    Measurement ref = Median(refRuns);
    Measurement epsRail = Median(epsRailRuns);
    Measurement ocsRail = Median(ocsRailRuns);
    if (p2p.framesDelivered != frames || ocs.framesDelivered != frames ||
        ref.framesDelivered != transportFrames || epsRail.framesDelivered != transportBytes ||
        ocsRail.framesDelivered != transportBytes)
    {
        std::cerr << PROGRAM << ": error: a run did not deliver everything it sent\n";
        return 1;
    }

    std::cout << "\n1. devices: " << frames << " frames of " << payload << " payload bytes\n";
    std::cout << "case                               wall (s)      frames      per second"
                 "      events/s\n";
    Report("PointToPointNetDevice", p2p, "frames");
    Report("OcsNetDevice (circuit)", ocs, "frames");
    std::cout << "OCS / point-to-point frames per second: " << std::setprecision(2)
              << p2p.wallSeconds / ocs.wallSeconds << "x (target >= 0.80x)\n";

    std::cout << "\n2. transport: " << transportBytes << " bytes in " << transportFrames
              << " frames of 4158 bytes\n";
    std::cout << "case                               wall (s)  frame-hops      per second"
                 "      events/s\n";
    Report("PointToPointNetDevice (raw)", ref, "hops  ");
    Report("RailTransport, eps rail (2 hops)", epsRail, "hops  ");
    Report("RailTransport, ocs circuit (1 hop)", ocsRail, "hops  ");
    double refRate = ref.hops / ref.wallSeconds;
    std::cout << "transport / raw frame-hops per second: eps rail " << std::setprecision(2)
              << epsRail.hops / epsRail.wallSeconds / refRate << "x, ocs circuit "
              << ocsRail.hops / ocsRail.wallSeconds / refRate << "x (target >= 0.50x)\n";

    // 3. Building a 1,024-GPU fabric: 128 DGX H100 servers, 8 leaf-spine Clos rails.
    RailFabricSpec big;
    RailFabricSpec::Preset("dgx-h100", big);
    big.servers = 128;
    big.kind = RailKind::EPS_CLOS;
    double rssBefore = PeakRssMiB();
    auto start = std::chrono::steady_clock::now();
    RailFabricHelper helper;
    helper.SetSpec(big);
    Ptr<RailFabric> fabric = helper.Build();
    double buildS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "\n3. build: " << big.Gpus() << " GPUs, " << fabric->GetRailSwitchCount()
              << " rail switches (" << fabric->GetRailSwitchPortCount() << " ports) in "
              << std::setprecision(2) << buildS << " s, peak RSS " << std::setprecision(1)
              << PeakRssMiB() << " MiB (was " << rssBefore << ") (target < 10 s, < 2 GB)\n";
    Simulator::Destroy();

    std::cout << "\npeak RSS: " << std::setprecision(1) << PeakRssMiB() << " MiB\n";
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
        "Speed benchmark of OcsNetDevice and RailTransport against ns-3's "
        "PointToPointNetDevice.",
        [&o](StrictCommandLine& cmd) { AddFlags(cmd, o); },
        [&o](const StrictCommandLine&) { return Run(o, ParseRate(o.rate)); });
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Speed benchmark: frames per wall-second through OcsNetDevice over an OCS circuit, side by
 * side in the same run with ns-3's own PointToPointNetDevice moving the same frames.
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

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Result of one timed run.
struct Measurement
{
    double wallSeconds{0};
    uint64_t events{0};
    uint64_t framesDelivered{0};
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
    // Half the queue drains in one period, so it never runs dry nor overflows.
    Time period = rate.CalculateBytesTxTime(payload) * batch;
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
Report(const std::string& name, const Measurement& m)
{
    std::cout << std::left << std::setw(26) << name << std::right << std::fixed
              << std::setprecision(3) << std::setw(9) << m.wallSeconds << std::setw(12)
              << m.framesDelivered << std::setprecision(0) << std::setw(14)
              << m.framesDelivered / m.wallSeconds << std::setw(14) << m.events / m.wallSeconds
              << "\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t frames = 1000000;
    uint32_t payload = 4096;
    uint32_t repeats = 3;
    DataRate rate("400Gbps");

    CommandLine cmd(__FILE__);
    cmd.AddValue("frames", "Frames per run", frames);
    cmd.AddValue("payload", "Payload bytes per frame (at most 8986)", payload);
    cmd.AddValue("repeats", "Runs per case (the median is reported)", repeats);
    cmd.AddValue("rate", "Line rate", rate);
    cmd.Parse(argc, argv);
    if (frames == 0 || repeats == 0 || payload == 0 || payload > 8986)
    {
        std::cerr << "error: --frames and --repeats must be positive, --payload in [1, 8986]\n";
        return 1;
    }

    std::cout << "photonic-rails-bench: " << frames << " frames of " << payload
              << " payload bytes at " << rate.GetBitRate() / 1e9 << " Gb/s, median of " << repeats
              << " runs\n\n";
    std::vector<Measurement> p2pRuns;
    std::vector<Measurement> ocsRuns;
    for (uint32_t r = 0; r < repeats; ++r)
    {
        std::cerr << "[bench] run " << r + 1 << "/" << repeats << "\n";
        p2pRuns.push_back(RunOnce(false, frames, payload, rate));
        ocsRuns.push_back(RunOnce(true, frames, payload, rate));
    }
    Measurement p2p = Median(p2pRuns);
    Measurement ocs = Median(ocsRuns);
    for (const auto& m : {p2p, ocs})
    {
        if (m.framesDelivered != frames)
        {
            std::cerr << "error: " << m.framesDelivered << " of " << frames
                      << " frames delivered\n";
            return 1;
        }
    }

    std::cout << "case                        wall (s)      frames      frames/s      events/s\n";
    Report("PointToPointNetDevice", p2p);
    Report("OcsNetDevice (circuit)", ocs);
    double ratio = p2p.wallSeconds / ocs.wallSeconds;
    std::cout << "\nOCS / point-to-point frames per second: " << std::setprecision(2) << ratio
              << "x (target >= 0.80x)\n";
    std::cout << "peak RSS: " << std::setprecision(1) << PeakRssMiB() << " MiB\n";
    return 0;
}

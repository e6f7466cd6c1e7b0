/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The first program to read: a fabric of --servers one-GPU servers on one electrical rail at
 * 100 Gb/s (RailFabricHelper), a communicator per GPU (CollectiveHelper) and one ring
 * AllGather of --bytes per GPU, whose end is printed beside the closed form (n-1) x bytes at
 * the line rate net of 62 header bytes per 4096-byte frame, plus the last frame's trip.
 */

#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/strict-command-line.h"

#include <iomanip>
#include <iostream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// Runs one ring AllGather of \p bytes per GPU on \p servers GPUs. \return the exit status
int
Run(uint32_t servers, uint64_t bytes)
{
    if (bytes % 4096 != 0)
    {
        throw std::invalid_argument("--bytes must be a multiple of 4096 (whole frames)");
    }
    RailFabricSpec spec; // 1. The fabric: one GPU and one 100 G NIC port per server
    spec.servers = servers;
    spec.gpusPerServer = 1;
    spec.nicPorts = 1;
    spec.nicPortBps = 100000000000;
    spec.kind = RailKind::EPS;
    RailFabricHelper fabricHelper;
    fabricHelper.SetSpec(spec);
    Ptr<RailFabric> fabric = fabricHelper.Build();

    // 2. A collective communicator on every GPU, connected to the others.
    std::vector<Ptr<CollectiveCommunicator>> communicators = CollectiveHelper().Install(fabric);

    CollectiveCall call; // 3. One AllGather over every GPU, each member starting at time 0
    call.type = WorkloadOpType::ALLGATHER;
    call.instance = "allgather";
    call.bytes = bytes;
    call.algorithm = WorkloadAlgorithm::RING;
    for (uint32_t rank = 0; rank < servers; ++rank)
    {
        call.members.push_back(rank);
    }
    Time finished;
    for (const Ptr<CollectiveCommunicator>& member : communicators)
    {
        member->Start(call, Callback<void>([&finished]() { finished = Simulator::Now(); }));
    }
    Simulator::Run();
    uint64_t sent = 0;
    for (const Ptr<CollectiveCommunicator>& member : communicators)
    {
        sent += member->GetCounters().bytesSent;
    }

    // 4. The closed form, from the attributes the fabric was built with.
    TimeValue link;
    TimeValue switching;
    Ptr<EpsSwitch> railSwitch = fabric->GetRailSwitches(0).front();
    railSwitch->GetPortDevice(0)->GetChannel()->GetAttribute("Delay", link);
    railSwitch->GetAttribute("ProcessingDelay", switching);
    double frameS = (4096 + 62) * 8.0 / spec.nicPortBps;
    double expectedS = ((servers - 1) * (bytes / 4096) + 1) * frameS + 2 * link.Get().GetSeconds() +
                       switching.Get().GetSeconds();
    std::cout << std::fixed << std::setprecision(3) << "ring AllGather of " << bytes << " bytes on "
              << servers << " GPUs: finished at " << finished.GetSeconds() * 1e6
              << " us, closed form " << expectedS * 1e6 << " us (" << std::showpos
              << (finished.GetSeconds() / expectedS - 1) * 100 << std::noshowpos
              << "%); bytes sent " << sent << ", n(n-1) x bytes "
              << uint64_t(servers) * (servers - 1) * bytes << "\n";
    Simulator::Destroy();
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t servers = 4;
    uint64_t bytes = 4 << 20;
    auto flags = [&](StrictCommandLine& cmd) { // bounded so that a run takes seconds
        cmd.Add("servers", "one GPU each", servers, FlagRange(2, 16, "servers"));
        cmd.Add("bytes", "per GPU, 4096 x k", bytes, FlagRange(1 << 20, 1 << 24, "bytes"));
        const std::string ring = "this example runs one ring AllGather, ";
        cmd.Refuse("ns3::CollectiveCommunicator::DefaultAlgorithm",
                   ring + "which names its algorithm");
        cmd.Refuse("ns3::CollectiveCommunicator::ReductionBandwidth",
                   ring + "which reduces nothing");
        AttributeAudit::ForFabricExample(cmd, false, {"ns3::CollectiveCommunicator"});
    };
    auto run = [&](const StrictCommandLine&) { return Run(servers, bytes); };
    return RunProgram(argc, argv, "first-collective", __FILE__, "A ring AllGather", flags, run);
}

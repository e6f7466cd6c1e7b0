/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Builds a rail-optimized fabric from a preset and runs a ring of transfers on one rail:
 * every GPU of the rail sends --bytes to the next server's GPU on the same rail, all at
 * once. Prints what was built (and how long building took), then per flow its completion
 * time and throughput next to what the NIC's line rate allows.
 *
 *   rail-fabric-example --preset=dgx-h100 --servers=4 --rail=eps
 *   rail-fabric-example --rail=ocs --nic=2x200G      (ring circuits preset on the OCS)
 *   rail-fabric-example --servers=128 --rail=eps-clos --bytes=1048576
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

double
PeakRssMiB()
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0;
}

/// Fails with a one-line message.
int
Fail(const std::string& message)
{
    std::cerr << "rail-fabric-example: error: " << message << "\n";
    return 1;
}

/**
 * \return the bytes sent by the busiest link between two switches of a Clos rail (leaf
 * uplinks and spine ports), or 0 if the rail has none
 */
uint64_t
BusiestClosLinkBytes(Ptr<RailFabric> fabric, uint32_t rail)
{
    const ClosPlan& plan = fabric->GetClosPlan();
    const auto& switches = fabric->GetRailSwitches(rail);
    uint64_t busiest = 0;
    for (uint32_t i = 0; i < switches.size(); ++i)
    {
        // A leaf's NIC ports come first (the last leaf may have fewer), then its uplinks.
        uint32_t nicPorts =
            i < plan.leaves ? std::min(plan.downPerLeaf, plan.endpoints - i * plan.downPerLeaf) : 0;
        for (uint32_t port = nicPorts; port < switches[i]->GetNPorts(); ++port)
        {
            busiest = std::max(busiest, switches[i]->GetPortDevice(port)->GetCounters().bytesSent);
        }
    }
    return busiest;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string preset = "dgx-h100";
    uint32_t servers = 4;
    std::string rail = "eps";
    std::string nic;
    std::string ocs = "piezo";
    uint32_t radix = 64;
    double oversubscription = 1.0;
    uint32_t ringRail = 0;
    uint64_t bytes = 64 << 20;
    std::string dcqcn = "auto";

    CommandLine cmd(__FILE__);
    cmd.AddValue("preset", "Server preset: " + RailFabricSpec::PresetNames(), preset);
    cmd.AddValue("servers", "Scale-up domains (servers)", servers);
    cmd.AddValue("rail", "Rail kind: ocs, eps or eps-clos", rail);
    cmd.AddValue("nic", "NIC ports per GPU, e.g. 1x400G, 2x200G, 4x100G (default: preset)", nic);
    cmd.AddValue("ocs", "OCS technology (rail=ocs): " + OcsTechnologyCatalog::Names(), ocs);
    cmd.AddValue("radix", "Electrical switch radix", radix);
    cmd.AddValue("oversubscription", "Clos leaf down:up ratio", oversubscription);
    cmd.AddValue("ringRail", "Rail carrying the ring of transfers", ringRail);
    cmd.AddValue("bytes", "Bytes each GPU sends to its ring successor", bytes);
    cmd.AddValue("dcqcn", "DCQCN rate control: auto (on for electrical rails), 1 or 0", dcqcn);
    cmd.Parse(argc, argv);

    RailFabricSpec spec;
    spec.servers = servers;
    if (!RailFabricSpec::ParseKind(rail, spec.kind))
    {
        return Fail("unknown --rail '" + rail + "' (ocs, eps, eps-clos)");
    }
    spec.ocsTechnology = ocs;
    spec.switchRadix = radix;
    spec.oversubscription = oversubscription;
    if (!RailFabricSpec::Preset(preset, spec))
    {
        return Fail("unknown --preset '" + preset + "' (" + RailFabricSpec::PresetNames() + ")");
    }
    std::string error = nic.empty() ? "" : spec.SetNicConfig(nic);
    error = error.empty() ? spec.Validate() : error;
    if (!error.empty())
    {
        return Fail(error);
    }
    if (dcqcn != "auto" && dcqcn != "0" && dcqcn != "1")
    {
        return Fail("--dcqcn is auto, 0 or 1");
    }
    if (bytes == 0 || servers < 2 || ringRail >= spec.gpusPerServer)
    {
        return Fail("need --bytes > 0, --servers >= 2 and --ringRail below GPUs per server");
    }
    if (spec.kind == RailKind::OCS && servers > 2 && spec.nicPorts < 2)
    {
        return Fail("a ring on an optical rail needs 2 NIC ports per GPU (a circuit per ring "
                    "neighbour): try --nic=2x200G");
    }

    auto start = std::chrono::steady_clock::now();
    RailFabricHelper helper;
    helper.SetSpec(spec);
    if (dcqcn != "auto")
    {
        helper.SetTransportAttribute("Dcqcn", BooleanValue(dcqcn == "1"));
    }
    Ptr<RailFabric> fabric = helper.Build();
    double buildS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "fabric: " << spec.Gpus() << " GPUs (" << servers << " x " << preset << "), "
              << spec.gpusPerServer << " " << RailFabricSpec::KindName(fabric->GetKind())
              << " rails, NIC " << spec.nicPorts << "x" << spec.nicPortBps / 1e9 << "G, "
              << fabric->GetRailSwitchCount() << " rail switches, "
              << fabric->GetRailSwitchPortCount() << " rail switch ports\n";
    std::cout << "built in " << std::fixed << std::setprecision(2) << buildS << " s, peak RSS "
              << std::setprecision(0) << PeakRssMiB() << " MiB\n";

    std::vector<uint32_t> ring;
    for (uint32_t s = 0; s < servers; ++s)
    {
        ring.push_back(s * spec.gpusPerServer + ringRail);
    }
    if (fabric->GetKind() == RailKind::OCS)
    {
        fabric->GetOcs(ringRail)->Preset(fabric->RingCircuits(ringRail, ring));
    }
    std::map<uint32_t, Time> done;
    for (uint32_t i = 0; i < ring.size(); ++i)
    {
        uint32_t to = ring[(i + 1) % ring.size()];
        fabric->GetTransport(to)->SetReceiveCallback(Callback<void, uint32_t, uint64_t, uint64_t>(
            [&done](uint32_t from, uint64_t, uint64_t) { done[from] = Simulator::Now(); }));
        fabric->GetTransport(ring[i])->Send(to, bytes);
    }
    auto runStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double runS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();

    // On an optical ring each GPU reaches its successor over one of its ports; on a
    // switched rail over all of them.
    uint32_t portsUsed = fabric->GetKind() == RailKind::OCS ? 1 : spec.nicPorts;
    double lineGbps = portsUsed * spec.nicPortBps / 1e9;
    UintegerValue mtu;
    fabric->GetTransport(0)->GetAttribute("Mtu", mtu);
    double payloadGbps = lineGbps * mtu.Get() / (mtu.Get() + 62.0); // RoCEv2-sized headers
    std::cout << "\nring of " << ring.size() << " transfers of " << bytes << " bytes on rail "
              << ringRail << " (simulated in " << std::setprecision(2) << runS << " s)\n";
    std::cout << "flow          finished (us)   throughput (Gb/s)   payload line rate (Gb/s)\n";
    bool complete = true;
    for (uint32_t i = 0; i < ring.size(); ++i)
    {
        uint32_t to = ring[(i + 1) % ring.size()];
        auto it = done.find(ring[i]);
        if (it == done.end())
        {
            complete = false;
            std::cout << std::setw(4) << ring[i] << " -> " << std::left << std::setw(6) << to
                      << std::right << "  never finished\n";
            continue;
        }
        double us = it->second.ToDouble(Time::US);
        std::cout << std::setw(4) << ring[i] << " -> " << std::left << std::setw(6) << to
                  << std::right << std::setprecision(3) << std::setw(14) << us << std::setw(20)
                  << std::setprecision(1) << 8.0 * bytes / (us * 1e3) << std::setw(27)
                  << payloadGbps << "\n";
    }
    // ECMP hashes each QP onto one path: flows that land on one link share its rate (see
    // the documentation's Scope and Limitations), which the line rate above does not show.
    uint64_t busiest =
        fabric->GetKind() == RailKind::EPS_CLOS ? BusiestClosLinkBytes(fabric, ringRail) : 0;
    if (busiest > 0)
    {
        double flowBytes = double(bytes) / portsUsed * (mtu.Get() + 62.0) / mtu.Get();
        std::cout << "\nECMP on rail " << ringRail << ": the busiest switch-to-switch link carried "
                  << std::setprecision(2) << busiest / flowBytes << " flows ("
                  << std::setprecision(1) << busiest / 1e6
                  << " MB; a flow is one NIC port's share of a transfer);\nflows on one link "
                     "share its "
                  << std::setprecision(0) << spec.nicPortBps / 1e9 << " Gb/s\n";
    }
    Simulator::Destroy();
    return complete ? 0 : Fail("some transfers never finished");
}

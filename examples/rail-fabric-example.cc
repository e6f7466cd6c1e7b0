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

#include "ns3/attribute-default.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/strict-command-line.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
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

const char* const PROGRAM = "rail-fabric-example";

/// Fails with a one-line message.
int
Fail(const std::string& message)
{
    std::cerr << PROGRAM << ": error: " << message << "\n";
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

/// Every flag of the program, with its default.
struct Options
{
    std::string preset{"dgx-h100"}; //!< Server preset
    uint32_t servers{4};            //!< Scale-up domains
    std::string rail{"eps"};        //!< Rail kind
    std::string nic;                //!< NIC ports per GPU ("": the preset's)
    std::string ocs{"piezo"};       //!< OCS technology (rail=ocs)
    uint32_t radix{64};             //!< Electrical switch radix
    double oversubscription{1.0};   //!< Clos leaf down:up ratio
    uint32_t ringRail{0};           //!< Rail carrying the ring
    uint64_t bytes{64 << 20};       //!< Bytes each GPU sends to its ring successor
    std::string dcqcn{"auto"};      //!< auto, 0 or 1
};

/// A transfer of at most 1 TiB: at the presets' 4096-byte frames 2^28 frames, far from the
/// 2^32 a message's frame count holds.
constexpr uint64_t MAX_BYTES = uint64_t(1) << 40;
/// --bytes: registered with the flag, checked again with the fabric's frames.
const FlagRange BYTES_RANGE(1, static_cast<double>(MAX_BYTES), "bytes per GPU (2^40 at most)");

void
AddFlags(StrictCommandLine& cmd, Options& o)
{
    cmd.Add("preset", "server preset: " + RailFabricSpec::PresetNames(), o.preset);
    cmd.Add("servers", "scale-up domains (servers), at least 2", o.servers);
    cmd.Add("rail", "rail kind: ocs, eps or eps-clos", o.rail);
    cmd.Add("nic", "NIC ports per GPU, e.g. 1x400G, 2x200G, 4x100G (default: preset)", o.nic);
    cmd.Add("ocs", "OCS technology (rail=ocs): " + OcsTechnologyCatalog::Names(), o.ocs);
    cmd.Add("radix", "electrical switch radix (electrical rails)", o.radix);
    cmd.Add("oversubscription", "Clos leaf down:up ratio (electrical rails)", o.oversubscription);
    cmd.Add("ringRail", "rail carrying the ring of transfers", o.ringRail);
    cmd.Add("bytes", "bytes each GPU sends to its ring successor", o.bytes, BYTES_RANGE);
    cmd.Add("dcqcn", "DCQCN rate control: auto (on for electrical rails), 1 or 0", o.dcqcn);
    AttributeAudit::ForFabricExample(cmd, true, {});
    cmd.Reserve("ns3::RailTransport::Dcqcn", "--dcqcn");
    cmd.Reserve("ns3::OpticalCircuitSwitch::Radix", "--ocs (the technology's radix)");
    cmd.Reserve("ns3::RailNetDevice::DataRate", "--preset and --nic");
}

/// Flags that only apply to one kind of rail, given with another.
void
CheckFlagsApply(const StrictCommandLine& cmd, RailKind kind)
{
    bool optical = kind == RailKind::OCS;
    if (!optical && cmd.IsGiven("ocs"))
    {
        throw std::invalid_argument("--ocs applies to --rail=ocs only");
    }
    if (optical)
    {
        cmd.RefuseGiven({"radix", "oversubscription"},
                        "applies to electrical rails (eps, eps-clos) only");
    }
    // The other kind's devices and switches are not built: their attributes change nothing.
    const std::vector<std::string> opticalTypes = {"ns3::OcsNetDevice::",
                                                   "ns3::OpticalCircuitSwitch::"};
    const std::vector<std::string> electricalTypes =
        {"ns3::EpsNetDevice::", "ns3::EpsSwitch::", "ns3::EpsChannel::", "ns3::EpsRouting::"};
    for (const std::string& attribute : cmd.GetAttributes())
    {
        for (const std::string& type : optical ? electricalTypes : opticalTypes)
        {
            if (attribute.rfind(type, 0) == 0)
            {
                throw std::invalid_argument(
                    "--" + attribute + " applies to " +
                    (optical ? "electrical rails (eps, eps-clos)" : "--rail=ocs") + " only");
            }
        }
    }
}

/// DCQCN's attributes, given where no CNP ever comes: DCQCN off (--dcqcn), ECN off, or no
/// electrical link to mark frames (optical rails, one GPU per server).
void
CheckDcqcnApplies(const StrictCommandLine& cmd,
                  const RailFabricSpec& spec,
                  const std::string& dcqcn)
{
    bool optical = spec.kind == RailKind::OCS;
    bool on = dcqcn == "1" || (dcqcn == "auto" && !optical);
    bool marks = AttributeDefault<BooleanValue>(EpsSwitch::GetTypeId(), "EcnEnabled") &&
                 (!optical || spec.gpusPerServer >= 2);
    for (const std::string& attribute : cmd.GetAttributes())
    {
        bool rate = attribute.rfind("ns3::RailTransport::Dcqcn", 0) == 0 ||
                    attribute == "ns3::RailTransport::CnpInterval";
        if (rate && !(on && marks))
        {
            throw std::invalid_argument("--" + attribute +
                                        " acts on DCQCN's rate, which no CNP changes in this "
                                        "run (" +
                                        (!on ? "--dcqcn is off"
                                             : "no ECN mark: ECN off, or no "
                                               "electrical link") +
                                        ")");
        }
    }
}

/// Checks every flag and returns the fabric to build.
RailFabricSpec
Check(const StrictCommandLine& cmd, const Options& o)
{
    RailFabricSpec spec;
    spec.servers = o.servers;
    if (!RailFabricSpec::ParseKind(o.rail, spec.kind))
    {
        throw std::invalid_argument("unknown --rail " + StrictCommandLine::Quote(o.rail) +
                                    " (ocs, eps, eps-clos)");
    }
    CheckFlagsApply(cmd, spec.kind);
    if (o.servers < 2)
    {
        throw std::invalid_argument("--servers must be at least 2 (a ring), got " +
                                    std::to_string(o.servers));
    }
    if (!(o.oversubscription > 0))
    {
        std::ostringstream got;
        got << o.oversubscription;
        throw std::invalid_argument("--oversubscription must be > 0 (leaf down:up ratio), got " +
                                    got.str());
    }
    spec.ocsTechnology = o.ocs;
    spec.switchRadix = o.radix;
    spec.oversubscription = o.oversubscription;
    if (!RailFabricSpec::Preset(o.preset, spec))
    {
        throw std::invalid_argument("unknown --preset " + StrictCommandLine::Quote(o.preset) +
                                    " (" + RailFabricSpec::PresetNames() + ")");
    }
    std::string error = o.nic.empty() ? "" : spec.SetNicConfig(o.nic);
    error = error.empty() ? spec.Validate() : error;
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    if (o.dcqcn != "auto" && o.dcqcn != "0" && o.dcqcn != "1")
    {
        throw std::invalid_argument("--dcqcn is auto, 0 or 1, got " +
                                    StrictCommandLine::Quote(o.dcqcn));
    }
    CheckDcqcnApplies(cmd, spec, o.dcqcn);
    uint64_t frames = (o.bytes + spec.railFrameBytes - 1) / spec.railFrameBytes;
    StrictCommandLine::CheckRange("bytes", static_cast<double>(o.bytes), BYTES_RANGE);
    if (frames > UINT32_MAX)
    {
        throw std::invalid_argument(
            "--bytes=" + std::to_string(o.bytes) + " makes " + std::to_string(frames) +
            " frames of " + std::to_string(spec.railFrameBytes) + " bytes, more than 2^32 - 1");
    }
    if (o.ringRail >= spec.gpusPerServer)
    {
        throw std::invalid_argument("--ringRail must be below the " +
                                    std::to_string(spec.gpusPerServer) + " GPUs per server of " +
                                    o.preset + ", got " + std::to_string(o.ringRail));
    }
    if (spec.kind == RailKind::OCS && o.servers > 2 && spec.nicPorts < 2)
    {
        throw std::invalid_argument("a ring on an optical rail needs 2 NIC ports per GPU (a "
                                    "circuit per ring neighbour): try --nic=2x200G");
    }
    return spec;
}

/// Builds the fabric and runs the ring. \return the exit status
int
Run(const RailFabricSpec& spec, const Options& o)
{
    const uint32_t servers = spec.servers;
    const uint32_t ringRail = o.ringRail;
    const uint64_t bytes = o.bytes;
    const std::string& preset = o.preset;

    auto start = std::chrono::steady_clock::now();
    RailFabricHelper helper;
    helper.SetSpec(spec);
    if (o.dcqcn != "auto")
    {
        helper.SetTransportAttribute("Dcqcn", BooleanValue(o.dcqcn == "1"));
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

    // On an optical ring of more than two GPUs each GPU reaches its successor over one of
    // its ports (the other leads to its predecessor); two GPUs, and a switched rail, use
    // all of them.
    uint32_t portsUsed = fabric->GetKind() == RailKind::OCS && ring.size() > 2 ? 1 : spec.nicPorts;
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
        "Builds a rail-optimized fabric from a preset and runs a ring of "
        "transfers on one rail.",
        [&o](StrictCommandLine& cmd) { AddFlags(cmd, o); },
        [&o](const StrictCommandLine& cmd) { return Run(Check(cmd, o), o); });
}

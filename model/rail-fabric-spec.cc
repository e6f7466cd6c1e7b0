/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-fabric-spec.h"

#include "ocs-technology.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ns3
{

uint32_t
ClosPlan::Switches() const
{
    return leaves + spines;
}

uint64_t
ClosPlan::PortsUsed() const
{
    // NIC-facing ports, then both ends of every leaf-spine link.
    return endpoints + 2 * static_cast<uint64_t>(leaves) * upPerLeaf;
}

std::string
ClosPlan::Make(uint32_t endpoints, uint32_t radix, double oversubscription, ClosPlan& plan)
{
    std::ostringstream error;
    if (endpoints == 0 || radix < 2 || !(oversubscription > 0))
    {
        return "a Clos needs ports, a switch radix of at least 2 and a positive "
               "oversubscription";
    }
    plan = ClosPlan();
    plan.endpoints = endpoints;
    double down = std::round(radix * oversubscription / (1 + oversubscription));
    plan.downPerLeaf = static_cast<uint32_t>(std::min<double>(std::max(down, 1.0), radix - 1));
    uint64_t leaves = (static_cast<uint64_t>(endpoints) + plan.downPerLeaf - 1) / plan.downPerLeaf;
    if (leaves > radix)
    {
        error << "a rail of " << endpoints << " ports needs more than a two-tier Clos of radix "
              << radix << " (" << leaves << " leaves)";
        return error.str();
    }
    plan.leaves = static_cast<uint32_t>(leaves);
    if (plan.leaves == 1)
    {
        return ""; // one leaf reaches every port: no spine
    }
    // Uplinks the fullest leaf needs for its NICs at the oversubscription, within its radix.
    uint32_t fullest = std::min(plan.downPerLeaf, endpoints);
    plan.upPerLeaf =
        std::min<uint32_t>(radix - plan.downPerLeaf,
                           static_cast<uint32_t>(std::ceil(fullest / oversubscription)));
    uint64_t fewest = (leaves * plan.upPerLeaf + radix - 1) / radix;
    for (uint32_t s = 1; s <= plan.upPerLeaf && plan.spines == 0; ++s)
    {
        plan.spines = (plan.upPerLeaf % s == 0 && s >= fewest) ? s : 0;
    }
    if (plan.spines == 0)
    {
        error << "a rail of " << endpoints << " ports needs more than a two-tier Clos of radix "
              << radix << " (" << plan.leaves << " leaves)";
        return error.str();
    }
    plan.linksPerPair = plan.upPerLeaf / plan.spines;
    plan.spinePortsUsed = plan.leaves * plan.linksPerPair;
    return "";
}

uint32_t
RailFabricSpec::Gpus() const
{
    return servers * gpusPerServer;
}

uint32_t
RailFabricSpec::PortsPerRail() const
{
    return servers * nicPorts;
}

RailKind
RailFabricSpec::EffectiveKind() const
{
    if (kind == RailKind::EPS && PortsPerRail() > switchRadix)
    {
        return RailKind::EPS_CLOS;
    }
    return kind;
}

std::string
RailFabricSpec::Validate() const
{
    std::ostringstream error;
    if (servers == 0 || gpusPerServer == 0 || nicPorts == 0)
    {
        return "servers, GPUs per server and NIC ports must be positive";
    }
    if (static_cast<uint64_t>(servers) * gpusPerServer > MAX_GPUS ||
        static_cast<uint64_t>(servers) * nicPorts > MAX_GPUS || nicPorts > MAX_NIC_PORTS)
    {
        error << "fabric too large: at most " << MAX_GPUS << " GPUs, " << MAX_GPUS
              << " ports per rail and " << MAX_NIC_PORTS << " NIC ports per GPU";
        return error.str();
    }
    if (switchRadix < 2 || switchRadix > MAX_RADIX)
    {
        error << "switch radix must be in [2, " << MAX_RADIX << "]";
        return error.str();
    }
    if (nicPortBps == 0 || scaleUpBps == 0)
    {
        return "NIC port rate and scale-up bandwidth must be positive";
    }
    if (railFrameBytes == 0 || railFrameBytes > MAX_FRAME_BYTES || scaleUpFrameBytes == 0 ||
        scaleUpFrameBytes > MAX_FRAME_BYTES)
    {
        error << "frame payloads must be in [1, " << MAX_FRAME_BYTES << "] bytes";
        return error.str();
    }
    if (kind == RailKind::OCS)
    {
        OcsTechnology technology;
        if (!OcsTechnologyCatalog::Find(ocsTechnology, technology))
        {
            error << "unknown OCS technology '" << ocsTechnology
                  << "' (valid: " << OcsTechnologyCatalog::Names() << ")";
            return error.str();
        }
        if (PortsPerRail() > technology.radix)
        {
            error << "a rail needs " << PortsPerRail() << " OCS ports (" << servers << " servers x "
                  << nicPorts << " NIC ports) but " << technology.name << " has radix "
                  << technology.radix;
            return error.str();
        }
        return "";
    }
    if (EffectiveKind() == RailKind::EPS_CLOS)
    {
        ClosPlan plan;
        return ClosPlan::Make(PortsPerRail(), switchRadix, oversubscription, plan);
    }
    return "";
}

bool
RailFabricSpec::Preset(const std::string& name, RailFabricSpec& spec)
{
    RailFabricSpec preset;
    preset.name = name;
    if (name == "dgx-h100" || name == "dgx-h200" || name == "hgx-h100" || name == "hgx-h200")
    {
        preset.gpusPerServer = 8;
        preset.nicPorts = 1;
        preset.nicPortBps = 400000000000;
        preset.scaleUpBps = 7200000000000; // NVLink4: 900 GB/s per GPU
    }
    else if (name == "gb200-nvl72")
    {
        preset.gpusPerServer = 72;
        preset.nicPorts = 1;
        preset.nicPortBps = 400000000000;
        preset.scaleUpBps = 14400000000000; // NVLink5: 1.8 TB/s per GPU
    }
    else if (name == "perlmutter")
    {
        preset.gpusPerServer = 4;
        preset.nicPorts = 1;
        preset.nicPortBps = 200000000000;  // Slingshot-11: 200 Gb/s per GPU
        preset.scaleUpBps = 4800000000000; // NVLink3: 600 GB/s per GPU
    }
    else
    {
        return false;
    }
    preset.servers = spec.servers;
    preset.kind = spec.kind;
    preset.ocsTechnology = spec.ocsTechnology;
    preset.switchRadix = spec.switchRadix;
    preset.oversubscription = spec.oversubscription;
    spec = preset;
    return true;
}

std::string
RailFabricSpec::PresetNames()
{
    return "dgx-h100, dgx-h200, hgx-h100, hgx-h200, gb200-nvl72, perlmutter";
}

std::string
RailFabricSpec::SetNicConfig(const std::string& config)
{
    std::string error = "NIC configuration '" + config + "' is not PORTSxRATEG (e.g. 2x200G)";
    std::size_t x = config.find_first_of("xX");
    if (x == std::string::npos || x == 0 || config.size() < x + 3 ||
        (config.back() != 'G' && config.back() != 'g') ||
        config.find_first_not_of("0123456789") != x)
    {
        return error;
    }
    std::string rate = config.substr(x + 1, config.size() - x - 2);
    if (rate.empty() || rate.find_first_not_of("0123456789.") != std::string::npos || x > 3)
    {
        return error;
    }
    uint32_t ports = static_cast<uint32_t>(std::stoul(config.substr(0, x)));
    double gbps = std::atof(rate.c_str());
    if (ports == 0 || ports > MAX_NIC_PORTS || !(gbps > 0) || gbps > MAX_PORT_GBPS)
    {
        return error + " with 1 to " + std::to_string(MAX_NIC_PORTS) + " ports of at most " +
               std::to_string(static_cast<int>(MAX_PORT_GBPS)) + "G";
    }
    nicPorts = ports;
    nicPortBps = static_cast<uint64_t>(std::llround(gbps * 1e9));
    return "";
}

bool
RailFabricSpec::ParseKind(const std::string& text, RailKind& kind)
{
    if (text == "ocs")
    {
        kind = RailKind::OCS;
    }
    else if (text == "eps")
    {
        kind = RailKind::EPS;
    }
    else if (text == "eps-clos")
    {
        kind = RailKind::EPS_CLOS;
    }
    else
    {
        return false;
    }
    return true;
}

std::string
RailFabricSpec::KindName(RailKind kind)
{
    switch (kind)
    {
    case RailKind::OCS:
        return "ocs";
    case RailKind::EPS:
        return "eps";
    case RailKind::EPS_CLOS:
        return "eps-clos";
    }
    return "?";
}

} // namespace ns3

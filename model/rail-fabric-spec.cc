/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-fabric-spec.h"

#include "ocs-technology.h"

#include <cmath>
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
    return static_cast<uint64_t>(leaves) * (downPerLeaf + upPerLeaf) +
           static_cast<uint64_t>(spines) * spinePortsUsed;
}

std::string
ClosPlan::Make(uint32_t endpoints, uint32_t radix, double oversubscription, ClosPlan& plan)
{
    std::ostringstream error;
    if (radix < 2 || oversubscription <= 0)
    {
        return "a Clos needs a switch radix of at least 2 and a positive oversubscription";
    }
    plan = ClosPlan();
    plan.downPerLeaf =
        static_cast<uint32_t>(std::lround(radix * oversubscription / (1 + oversubscription)));
    plan.downPerLeaf = std::min(std::max(plan.downPerLeaf, 1u), radix - 1);
    plan.upPerLeaf = radix - plan.downPerLeaf;
    plan.leaves = (endpoints + plan.downPerLeaf - 1) / plan.downPerLeaf;
    uint64_t uplinks = static_cast<uint64_t>(plan.leaves) * plan.upPerLeaf;
    uint64_t fewest = (uplinks + radix - 1) / radix;
    for (uint32_t s = 1; s <= plan.upPerLeaf; ++s)
    {
        if (plan.upPerLeaf % s == 0 && s >= fewest)
        {
            plan.spines = s;
            break;
        }
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
    if (nicPortBps == 0 || scaleUpBps == 0)
    {
        return "NIC port rate and scale-up bandwidth must be positive";
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
    std::istringstream in(config);
    uint32_t ports = 0;
    char x = 0;
    double gbps = 0;
    char unit = 0;
    if (!(in >> ports >> x >> gbps >> unit) || (x != 'x' && x != 'X') ||
        (unit != 'G' && unit != 'g') || ports == 0 || gbps <= 0 || in.peek() != EOF)
    {
        return "NIC configuration '" + config + "' is not PORTSxRATEG (e.g. 2x200G)";
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

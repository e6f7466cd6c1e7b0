/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ocs-technology.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OcsTechnology");

uint64_t
OcsTechnology::MaxGpus(uint32_t gpusPerScaleUp, uint32_t portsPerNic) const
{
    NS_ABORT_MSG_IF(portsPerNic == 0, "portsPerNic must be positive");
    return static_cast<uint64_t>(gpusPerScaleUp) * (radix / portsPerNic);
}

const std::vector<OcsTechnology>&
OcsTechnologyCatalog::All()
{
    NS_LOG_FUNCTION_NOARGS();
    // Paper Table 3 (delay, radix); examples as the paper names them.
    static const std::vector<OcsTechnology> catalogue = {
        {"plzt", "EpiPhotonics PLZT", NanoSeconds(10), 16},
        {"sip", "Lightmatter silicon photonics", MicroSeconds(7), 32},
        {"rotornet", "InFocus RotorNet", MicroSeconds(10), 128},
        {"3d-mems", "Calient 3D MEMS", MilliSeconds(15), 320},
        {"piezo", "Polatis piezo", MilliSeconds(25), 576},
        {"liquid-crystal", "Coherent liquid crystal", MilliSeconds(100), 512},
        {"robotic", "Telescent robotic patch panel", Seconds(120), 1008},
    };
    return catalogue;
}

bool
OcsTechnologyCatalog::Find(const std::string& name, OcsTechnology& technology)
{
    NS_LOG_FUNCTION(name);
    std::string key = name;
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) {
        return std::tolower(c);
    });
    for (const auto& candidate : All())
    {
        if (candidate.name == key)
        {
            technology = candidate;
            return true;
        }
    }
    return false;
}

OcsTechnology
OcsTechnologyCatalog::Get(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    OcsTechnology technology;
    NS_ABORT_MSG_UNLESS(Find(name, technology),
                        "unknown OCS technology '" << name << "' (valid: " << Names() << ")");
    return technology;
}

std::string
OcsTechnologyCatalog::Names()
{
    NS_LOG_FUNCTION_NOARGS();
    std::string names;
    for (const auto& technology : All())
    {
        names += (names.empty() ? "" : ", ") + technology.name;
    }
    return names;
}

} // namespace ns3

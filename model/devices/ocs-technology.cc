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

std::string
OcsSwitchingName(OcsSwitching switching)
{
    switch (switching)
    {
    case OcsSwitching::PER_PORT:
        return "per-port";
    case OcsSwitching::WHOLE_SWITCH:
        return "whole-switch";
    default:
        return "technology";
    }
}

bool
ParseOcsSwitching(const std::string& name, OcsSwitching& switching)
{
    for (OcsSwitching candidate :
         {OcsSwitching::TECHNOLOGY, OcsSwitching::PER_PORT, OcsSwitching::WHOLE_SWITCH})
    {
        if (OcsSwitchingName(candidate) == name)
        {
            switching = candidate;
            return true;
        }
    }
    return false;
}

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
    // Paper Table 3 (delay, radix); examples as the paper names them. Only a rotor switch
    // moves every port at once (to its next fixed matching); the others steer each port's
    // beam or fiber on its own (sources in the design doc).
    constexpr OcsSwitching perPort = OcsSwitching::PER_PORT;
    static const std::vector<OcsTechnology> catalogue = {
        {"plzt", "EpiPhotonics PLZT", NanoSeconds(10), 16, perPort},
        {"sip", "Lightmatter silicon photonics", MicroSeconds(7), 32, perPort},
        {"rotornet", "InFocus RotorNet", MicroSeconds(10), 128, OcsSwitching::WHOLE_SWITCH},
        {"3d-mems", "Calient 3D MEMS", MilliSeconds(15), 320, perPort},
        {"piezo", "Polatis piezo", MilliSeconds(25), 576, perPort},
        {"liquid-crystal", "Coherent liquid crystal", MilliSeconds(100), 512, perPort},
        {"robotic", "Telescent robotic patch panel", Seconds(120), 1008, perPort},
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

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "network-model-registry.h"

namespace ns3
{

const std::vector<NetworkModelEntry>&
NetworkModelRegistry::All()
{
    // name, faults, queue pairs, merged ring steps
    static const std::vector<NetworkModelEntry> models = {
        {"packet", true, true, false},
        {"flow", false, false, true},
    };
    return models;
}

const NetworkModelEntry*
NetworkModelRegistry::Find(const std::string& name)
{
    for (const NetworkModelEntry& model : All())
    {
        if (model.name == name)
        {
            return &model;
        }
    }
    return nullptr;
}

std::string
NetworkModelRegistry::Names(const std::string& separator)
{
    std::string names;
    for (const NetworkModelEntry& model : All())
    {
        names += (names.empty() ? "" : separator) + model.name;
    }
    return names;
}

} // namespace ns3

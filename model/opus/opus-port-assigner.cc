/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-port-assigner.h"

#include "ns3/rail-topology.h"

#include <algorithm>

namespace ns3
{

OpusPortAssigner::OpusPortAssigner(const std::vector<uint32_t>& radixes,
                                   std::vector<std::vector<uint32_t>> ocsPorts,
                                   uint32_t gpusPerServer)
    : m_ocsPorts(std::move(ocsPorts)),
      m_config(radixes.size()),
      m_deadPorts(radixes.size())
{
    for (uint32_t radix : radixes)
    {
        m_portGpu.emplace_back(radix, UINT32_MAX);
    }
    for (uint32_t gpu = 0; gpu < m_ocsPorts.size(); ++gpu)
    {
        for (uint32_t port : m_ocsPorts[gpu])
        {
            m_portGpu[RailTopology(gpusPerServer).RailOf(gpu)].at(port) = gpu;
        }
    }
}

uint32_t
OpusPortAssigner::GetRails() const
{
    return m_config.size();
}

const std::map<uint32_t, uint32_t>&
OpusPortAssigner::GetConfig(uint32_t rail) const
{
    return m_config[rail];
}

void
OpusPortAssigner::SetConfig(uint32_t rail, std::map<uint32_t, uint32_t> config)
{
    m_config[rail] = std::move(config);
}

void
OpusPortAssigner::MarkDead(uint32_t rail, uint32_t port)
{
    m_deadPorts[rail].insert(port);
}

bool
OpusPortAssigner::Revive(uint32_t rail, uint32_t port)
{
    return m_deadPorts[rail].erase(port) > 0;
}

bool
OpusPortAssigner::IsDead(uint32_t rail, uint32_t port) const
{
    return m_deadPorts[rail].count(port) > 0;
}

bool
OpusPortAssigner::HasDeadPorts(uint32_t rail) const
{
    return !m_deadPorts[rail].empty();
}

bool
OpusPortAssigner::IsJoined(const OpusDemand::Link& pair) const
{
    auto [rail, a, b] = pair;
    const std::map<uint32_t, uint32_t>& config = m_config[rail];
    return std::any_of(config.begin(), config.end(), [&](const auto& circuit) {
        return m_portGpu[rail][circuit.first] == a && m_portGpu[rail][circuit.second] == b &&
               !IsDead(rail, circuit.first) && !IsDead(rail, circuit.second);
    });
}

bool
OpusPortAssigner::HasLivePort(uint32_t rail, uint32_t gpu) const
{
    return gpu < m_ocsPorts.size() &&
           std::any_of(m_ocsPorts[gpu].begin(), m_ocsPorts[gpu].end(), [&](uint32_t port) {
               return !IsDead(rail, port);
           });
}

void
OpusPortAssigner::LiveNeeds(uint32_t rail,
                            const std::vector<OpusCircuitNeed>& needs,
                            std::vector<OpusCircuitNeed>& live,
                            std::vector<OpusDemand::Link>& relayed) const
{
    live = needs;
    if (m_deadPorts[rail].empty())
    {
        return;
    }
    live.clear();
    std::map<uint32_t, uint32_t> peers; // GPU -> pairs it is in on this rail
    for (const OpusCircuitNeed& need : needs)
    {
        ++peers[need.a];
        ++peers[need.b];
    }
    auto livePorts = [this, rail](uint32_t gpu) {
        return static_cast<uint32_t>(
            std::count_if(m_ocsPorts[gpu].begin(), m_ocsPorts[gpu].end(), [&](uint32_t port) {
                return !IsDead(rail, port);
            }));
    };
    // Each pair gets an equal share of both ends' live ports; the ports the shares leave
    // over go one by one to the pairs in order, those without a circuit first.
    std::map<uint32_t, uint32_t> spare; // GPU -> live ports not given yet
    std::vector<OpusCircuitNeed> cut = needs;
    for (OpusCircuitNeed& need : cut)
    {
        spare.try_emplace(need.a, livePorts(need.a));
        spare.try_emplace(need.b, livePorts(need.b));
    }
    for (OpusCircuitNeed& need : cut)
    {
        need.circuits = std::min(
            {need.circuits, livePorts(need.a) / peers[need.a], livePorts(need.b) / peers[need.b]});
        spare[need.a] -= need.circuits;
        spare[need.b] -= need.circuits;
    }
    for (bool connectFirst : {true, false})
    {
        for (std::size_t i = 0; i < cut.size(); ++i)
        {
            OpusCircuitNeed& need = cut[i];
            while (need.circuits < needs[i].circuits && spare[need.a] > 0 && spare[need.b] > 0 &&
                   (!connectFirst || need.circuits == 0))
            {
                ++need.circuits;
                --spare[need.a];
                --spare[need.b];
            }
        }
    }
    for (const OpusCircuitNeed& need : cut)
    {
        if (need.circuits == 0)
        {
            relayed.emplace_back(rail, need.a, need.b);
        }
        else
        {
            live.push_back(need);
        }
    }
}

bool
OpusPortAssigner::AssignDemand(const OpusDemand& demand,
                               const std::set<OpusDemand::Link>& keep,
                               std::map<uint32_t, OpusRailChange>& changes) const
{
    std::map<uint32_t, std::vector<OpusCircuitNeed>> perRail;
    for (const OpusCircuitNeed& need : demand.GetNeeds())
    {
        perRail[need.rail].push_back(need);
    }
    for (const auto& [rail, needs] : perRail)
    {
        OpusRailChange& change = changes[rail];
        change.config = m_config[rail];
        std::vector<OpusCircuitNeed> live;
        LiveNeeds(rail, needs, live, change.relayed);
        if (!AssignRailPorts(rail, live, change, keep))
        {
            return false;
        }
    }
    return true;
}

bool
OpusPortAssigner::AssignRailPorts(uint32_t rail,
                                  const std::vector<OpusCircuitNeed>& needs,
                                  OpusRailChange& change,
                                  const std::set<OpusDemand::Link>& keep) const
{
    constexpr uint32_t NO_PORT = OcsCircuitTable::NO_PORT;
    std::map<uint32_t, uint32_t>& config = change.config;
    const std::vector<uint32_t>& owner = m_portGpu[rail];
    // Keep the circuits the demand already has.
    std::vector<uint32_t> missing;
    for (const OpusCircuitNeed& need : needs)
    {
        uint32_t kept = 0;
        for (uint32_t port : m_ocsPorts[need.a])
        {
            auto circuit = config.find(port);
            if (kept < need.circuits && circuit != config.end() &&
                owner[circuit->second] == need.b && change.used.count(port) == 0 &&
                !IsDead(rail, port) && !IsDead(rail, circuit->second))
            {
                change.used.insert({port, circuit->second});
                ++kept;
            }
        }
        missing.push_back(need.circuits - kept);
    }
    // A port for a new circuit: not part of the demand, not joining a pair to keep;
    // unconnected ones first.
    auto leased = [&](uint32_t port) {
        auto circuit = config.find(port);
        if (circuit == config.end() || IsDead(rail, port) || IsDead(rail, circuit->second))
        {
            return false; // a dead circuit carries nothing to protect
        }
        uint32_t a = owner[port];
        uint32_t b = owner[circuit->second];
        return keep.count({rail, std::min(a, b), std::max(a, b)}) > 0;
    };
    auto freePort = [&](uint32_t gpu) {
        uint32_t chosen = NO_PORT;
        for (uint32_t port : m_ocsPorts[gpu])
        {
            bool usable = change.used.count(port) == 0 && !leased(port) && !IsDead(rail, port);
            if (usable && (chosen == NO_PORT || config.count(port) == 0))
            {
                chosen = port;
                if (config.count(port) == 0)
                {
                    break;
                }
            }
        }
        return chosen;
    };
    auto disconnect = [&](uint32_t port) {
        auto circuit = config.find(port);
        if (circuit != config.end())
        {
            uint32_t other = circuit->second;
            config.erase(other);
            config.erase(port);
            change.connections[other] = NO_PORT;
            change.connections[port] = NO_PORT;
        }
    };
    for (std::size_t i = 0; i < needs.size(); ++i)
    {
        for (uint32_t n = 0; n < missing[i]; ++n)
        {
            uint32_t a = freePort(needs[i].a);
            uint32_t b = a == NO_PORT ? a : freePort(needs[i].b);
            if (b == NO_PORT)
            {
                return false;
            }
            disconnect(a);
            disconnect(b);
            config[a] = b;
            config[b] = a;
            change.connections[a] = b;
            change.connections[b] = a;
            change.used.insert({a, b});
        }
    }
    return true;
}

bool
OpusPortAssigner::IsSetUp(const OpusDemand& demand) const
{
    for (const OpusCircuitNeed& need : demand.GetNeeds())
    {
        const std::map<uint32_t, uint32_t>& config = m_config[need.rail];
        uint32_t circuits = 0;
        for (uint32_t port : m_ocsPorts[need.a])
        {
            auto circuit = config.find(port);
            circuits += circuit != config.end() && m_portGpu[need.rail][circuit->second] == need.b;
        }
        if (circuits < need.circuits)
        {
            return false;
        }
    }
    return true;
}

} // namespace ns3

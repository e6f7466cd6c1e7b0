/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-topology.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailTopology");

RailTopology::RailTopology(uint32_t gpusPerServer)
    : m_gpusPerServer(gpusPerServer)
{
    if (gpusPerServer == 0)
    {
        throw std::invalid_argument("a server has at least one GPU");
    }
}

uint32_t
RailTopology::GetGpusPerServer() const
{
    return m_gpusPerServer;
}

uint32_t
RailTopology::ServerOf(uint32_t rank) const
{
    return rank / m_gpusPerServer;
}

uint32_t
RailTopology::RailOf(uint32_t rank) const
{
    return rank % m_gpusPerServer;
}

bool
RailTopology::SameServer(uint32_t a, uint32_t b) const
{
    return ServerOf(a) == ServerOf(b);
}

uint32_t
RailTopology::RankOf(uint32_t server, uint32_t rail) const
{
    return server * m_gpusPerServer + rail;
}

uint32_t
RailTopology::ProxyFor(uint32_t source, uint32_t destination) const
{
    return SameServer(source, destination) ? destination
                                           : RankOf(ServerOf(source), RailOf(destination));
}

} // namespace ns3

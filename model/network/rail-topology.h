/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_TOPOLOGY_H
#define RAIL_TOPOLOGY_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Where a rank sits in a rail-optimized fabric, written once: ranks fill servers in
 *        order (rank = server x gpusPerServer + local index), and the GPUs of one local index
 *        share a rail.
 *
 * Pure arithmetic, shared by the transport's PXN rule, Opus's demand, the collectives'
 * rings, the window analysis and the reports (each had its own copy of these lines).
 */
class RailTopology
{
  public:
    /**
     * \param gpusPerServer GPUs per server = scale-up domain = number of rails
     * \throws std::invalid_argument if 0
     */
    explicit RailTopology(uint32_t gpusPerServer);

    /// \return GPUs per server
    uint32_t GetGpusPerServer() const;

    /// \param rank a rank \return its server
    uint32_t ServerOf(uint32_t rank) const;

    /// \param rank a rank \return its index in its server, which is also its rail
    uint32_t RailOf(uint32_t rank) const;

    /// \param a a rank \param b another \return true if both are in one server
    bool SameServer(uint32_t a, uint32_t b) const;

    /// \param server a server \param rail a rail \return the rank there
    uint32_t RankOf(uint32_t server, uint32_t rail) const;

    /**
     * \brief PXN: a message between servers leaves on the destination's rail, from the GPU
     *        of the source's server on that rail (the source itself when it is on it).
     * \param source the sending rank
     * \param destination a rank of another server (of the same server: the destination,
     *        reached over scale-up)
     * \return the rank whose NIC sends it on the rail
     */
    uint32_t ProxyFor(uint32_t source, uint32_t destination) const;

  private:
    uint32_t m_gpusPerServer; //!< GPUs per server
};

} // namespace ns3

#endif /* RAIL_TOPOLOGY_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_DETOUR_H
#define RAIL_DETOUR_H

#include "ns3/ptr.h"
#include "ns3/rail-endpoints.h"

#include <cstdint>
#include <set>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Finds a way around failed parts: the next GPU on a shortest path, in GPU hops, over
 * the links that work now.
 *
 * Two GPUs are one hop apart when a lit circuit joins live ports of theirs, or when both have
 * a live port on the same packet-switched plane (a rail's switch or Clos, assumed to route
 * around its own failures) or scale-up domain. A path from a GPU whose rail failed to a peer
 * on that rail in another server is then three hops: the scale-up domain to a GPU of another
 * rail, that rail, and the peer's scale-up domain (PXN around the dead rail). On optical
 * rails a path may also go along the circuits of a ring, through a neighbour.
 * Equal paths are spread: of the neighbours one hop nearer, in ascending order, the one at
 * (from + to) mod their number, so every run takes the same path and different pairs
 * different rails.
 */
class RailDetour
{
  public:
    /// "No GPU": no path.
    static constexpr uint32_t NO_GPU = 0xffffffff;

    /// \param endpoints the fabric's directory
    explicit RailDetour(Ptr<const RailEndpoints> endpoints);

    /**
     * \param from the GPU that holds the traffic
     * \param to its destination
     * \param avoid GPUs the path must not pass through (those the traffic has passed
     *        through already: a path that changes under a message, as when a port flaps,
     *        must not send it back along its way)
     * \return the first GPU after \p from on a shortest working path to \p to (\p to itself
     *         if they are one hop apart), or NO_GPU if no working path joins them
     */
    uint32_t NextHop(uint32_t from, uint32_t to, const std::set<uint32_t>& avoid = {}) const;

  private:
    /**
     * \brief Calls \p visit for every GPU one hop from \p gpu, planes not in \p expanded
     * only (a plane's GPUs are all one hop from the first GPU that reaches it).
     */
    template <typename Visit>
    void ForEachNeighbour(uint32_t gpu, std::set<uint32_t>& expanded, Visit visit) const;

    Ptr<const RailEndpoints> m_endpoints; //!< Who is where
};

} // namespace ns3

#endif /* RAIL_DETOUR_H */

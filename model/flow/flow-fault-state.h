/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_FAULT_STATE_H
#define FLOW_FAULT_STATE_H

#include "ns3/flow-rate-solver.h"

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What failures have done to the flow model's links: which are down now, which
 *        routing avoids (it learns of a change one detection delay later), and which GPU
 *        pairs the control plane told to detour.
 *
 * A link several faults take down comes back when the last of them is repaired.
 */
class FlowFaultState
{
  public:
    using LinkId = FlowRateSolver::LinkId; //!< A link

    /// \param links how many links the fabric has
    void Resize(std::size_t links);

    /// \return true while any link is down or routing avoids one (else paths are as built)
    bool Any() const;

    /**
     * \param link a link
     * \param down true for one more fault holding it down, false for one fewer
     */
    void Hold(LinkId link, bool down);

    /// \param link a link \return true while a fault holds it down
    bool IsDown(LinkId link) const;

    /// \param path links \return true if none of them is down
    bool IsUp(const std::vector<LinkId>& path) const;

    /// \param link a link \return true if routing goes around it (as of the last Reroute)
    bool IsRoutedAround(LinkId link) const;

    /// Routing learns the links' state: it goes around the links down now, and no others.
    void Reroute();

    /**
     * \param a a GPU \param b another \param detour true if their traffic detours (the control
     *        plane found no port for a circuit between them), false once it has one again
     */
    void SetDetour(uint32_t a, uint32_t b, bool detour);

    /// \param a a GPU \param b another \return true if their traffic detours (SetDetour)
    bool IsDetoured(uint32_t a, uint32_t b) const;

  private:
    std::vector<uint32_t> m_holds;                    //!< Per link, faults holding it down
    std::vector<bool> m_routedAround;                 //!< Per link, routing avoids it
    std::size_t m_down{0};                            //!< Links held down
    std::size_t m_avoided{0};                         //!< Links routing avoids
    std::set<std::pair<uint32_t, uint32_t>> m_detour; //!< Detoured pairs, lower GPU first
};

} // namespace ns3

#endif /* FLOW_FAULT_STATE_H */

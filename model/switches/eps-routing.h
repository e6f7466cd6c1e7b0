/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EPS_ROUTING_H
#define EPS_ROUTING_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class EpsSwitch;

/**
 * \ingroup photonic-rails
 * \brief Shortest-path ECMP routes of one packet network, recomputed when links fail.
 *
 * A network is a set of EpsSwitches joined by EpsChannels; a port whose far end is not one
 * of them is a host port (a GPU NIC). For every host, each switch's route lists the ports
 * on its shortest live paths to the host's switch, in port order (the order the fabric
 * builders use). When a switch port's link goes down or comes back, the routes are
 * recomputed DetectionDelay later (the Rerouted trace fires if some changed), as a routing
 * protocol reconverges after a failure is
 * detected; until then switches keep hashing onto dead ports and those frames are lost
 * (EpsSwitch drops them as LINK_DOWN). A host whose switch no longer reaches it has no
 * route (its frames are dropped as NO_ROUTE). Its own switch keeps the route to its port.
 */
class EpsRouting : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    EpsRouting();
    ~EpsRouting() override;

    /**
     * \brief Puts the network's switches under this routing; it watches their links.
     * \param switches every switch of the network (their ports already connected)
     */
    void SetSwitches(const std::vector<Ptr<EpsSwitch>>& switches);

    /// Installs the shortest-path routes over the links that are up now.
    /// \return true if a route changed
    bool Recompute();

    /// \return the time from a link change to the routes that avoid it
    Time GetDetectionDelay() const;

    /// \return how many times the routes were recomputed after a link change
    uint32_t GetRecomputations() const;

    /// \return when recomputing the routes after a link change changed some, in time order
    const std::vector<Time>& GetReroutes() const;

    /// TracedCallback signature of Rerouted: the routes changed after a link change.
    typedef void (*ReroutedTracedCallback)();

  protected:
    void DoDispose() override;

  private:
    /// A switch port's link changed: recompute once DetectionDelay has passed.
    void OnLinkChange();
    /// \return for each switch its hop distance to switch \p target over live links (-1: none)
    std::vector<int32_t> Distances(uint32_t target) const;
    /// \return the switch at the far end of port \p port of switch \p sw, or -1 (a host)
    int32_t NeighbourOf(uint32_t sw, uint32_t port) const;

    std::vector<Ptr<EpsSwitch>> m_switches;    //!< The network
    std::vector<std::vector<int32_t>> m_links; //!< Per switch and port: neighbour switch or -1
    Time m_detectionDelay;                     //!< Failure detection and reconvergence time
    EventId m_pending;                         //!< The scheduled recomputation
    uint32_t m_recomputations{0};              //!< Recomputations after link changes
    std::vector<Time> m_reroutes;              //!< When one changed routes
    TracedCallback<> m_reroutedTrace;          //!< Rerouted
};

} // namespace ns3

#endif /* EPS_ROUTING_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_DEMAND_H
#define OPUS_DEMAND_H

#include "ns3/collective-plan.h"

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Circuits between two GPUs of one rail that a communication needs.
 */
struct OpusCircuitNeed
{
    uint32_t rail{0};     //!< The rail (local GPU index)
    uint32_t a{0};        //!< One GPU (global rank), a < b
    uint32_t b{0};        //!< The other GPU
    uint32_t circuits{0}; //!< Duplex circuits (one NIC port at each end per circuit)

    /// \param o another need \return true if equal
    bool operator==(const OpusCircuitNeed& o) const
    {
        return std::tie(rail, a, b, circuits) == std::tie(o.rail, o.a, o.b, o.circuits);
    }
};

/**
 * \ingroup photonic-rails
 * \brief The rail circuits one communication needs (pure logic): Opus's demand matrix.
 *
 * A message between GPUs of one server uses its scale-up domain and needs no circuit. A
 * message from GPU s to GPU d of another server travels on d's rail: from s itself when
 * both are on that rail, else from the GPU of s's server on d's rail, reached over the
 * scale-up domain (PXN, as RailTransport routes it). So every scale-out message needs a
 * circuit between two GPUs of one rail; a circuit is duplex and carries both directions.
 *
 * Opus gives the current communication all of a GPU's P NIC ports (that is the point of
 * reconfiguring: no port idles for a parallelism that is not communicating): a GPU with k
 * distinct peers on its rail gets floor(P / k) circuits to each, and a pair gets the
 * smaller of its two ends' shares. A ring of more than two members (k = 2) thus gets P/2
 * circuits to each neighbour, a pair all P. Demand with more distinct peers than ports
 * (k > P, e.g. an alltoall over more than P servers) cannot be served by one
 * configuration: Build() rejects it with a one-line reason.
 */
class OpusDemand
{
  public:
    /// A GPU pair on a rail: (rail, smaller GPU, larger GPU).
    using Link = std::tuple<uint32_t, uint32_t, uint32_t>;

    OpusDemand() = default;

    /**
     * \brief The links a message from \p source to \p destination uses on the rails.
     * \param source sending GPU
     * \param destination receiving GPU
     * \param gpusPerServer GPUs per server = rails
     * \param links the link is added here (nothing when both are on one server)
     */
    static void AddMessage(uint32_t source,
                           uint32_t destination,
                           uint32_t gpusPerServer,
                           std::set<Link>& links);

    /**
     * \brief The links of every SEND in the members' plans of a collective.
     * \param plans each member's plan, with its rank
     * \param gpusPerServer GPUs per server
     * \param links the links are added here
     */
    static void AddPlans(const std::vector<std::pair<uint32_t, const CollectivePlan*>>& plans,
                         uint32_t gpusPerServer,
                         std::set<Link>& links);

    /**
     * \brief Splits every GPU's ports among its links.
     * \param links the links
     * \param portsPerGpu NIC ports per GPU on its rail
     * \return the demand
     *
     * Throws std::invalid_argument when a GPU has more distinct peers on its rail than
     * ports (the reason names the GPU, the rail and both counts).
     */
    static OpusDemand Build(const std::set<Link>& links, uint32_t portsPerGpu);

    /// \return the needs, sorted by (rail, a, b)
    const std::vector<OpusCircuitNeed>& GetNeeds() const;

    /// \return true if no circuit is needed (scale-up only, or nothing scale-out)
    bool IsEmpty() const;

    /// \return the rails with needs, increasing
    std::vector<uint32_t> GetRails() const;

    /// \return a canonical text naming the demand ("" when empty): equal demands, equal keys
    std::string GetKey() const;

  private:
    std::vector<OpusCircuitNeed> m_needs; //!< Sorted by (rail, a, b)
};

} // namespace ns3

#endif /* OPUS_DEMAND_H */

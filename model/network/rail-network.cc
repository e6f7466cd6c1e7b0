/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-network.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailNetwork");

NS_OBJECT_ENSURE_REGISTERED(RailNetwork);

TypeId
RailNetwork::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RailNetwork").SetParent<Object>().SetGroupName("PhotonicRails");
    return tid;
}

void
RailNetwork::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ocs.clear();
    Object::DoDispose();
}

const RailFabricSpec&
RailNetwork::GetSpec() const
{
    NS_LOG_FUNCTION(this);
    return m_spec;
}

RailKind
RailNetwork::GetKind() const
{
    NS_LOG_FUNCTION(this);
    return m_kind;
}

const NodeContainer&
RailNetwork::GetGpus() const
{
    NS_LOG_FUNCTION(this);
    return m_gpus;
}

Ptr<OpticalCircuitSwitch>
RailNetwork::GetOcs(uint32_t rail) const
{
    NS_LOG_FUNCTION(this << rail);
    NS_ABORT_MSG_IF(m_kind != RailKind::OCS || rail >= m_ocs.size(), "no OCS on rail " << rail);
    return m_ocs[rail];
}

OcsConnections
RailNetwork::RingCircuits(uint32_t rail, std::vector<uint32_t> order) const
{
    NS_LOG_FUNCTION(this << rail);
    uint32_t g = m_spec.gpusPerServer;
    if (order.empty())
    {
        for (uint32_t s = 0; s < m_spec.servers; ++s)
        {
            order.push_back(s * g + rail);
        }
    }
    uint32_t n = order.size();
    NS_ABORT_MSG_IF(n < 2, "a ring needs at least 2 GPUs");
    NS_ABORT_MSG_IF(std::set<uint32_t>(order.begin(), order.end()).size() != n,
                    "a ring lists a GPU twice");
    for (uint32_t rank : order)
    {
        NS_ABORT_MSG_IF(rank >= m_spec.Gpus() || rank % g != rail,
                        "GPU " << rank << " is not on rail " << rail);
    }
    NS_ABORT_MSG_IF(n > 2 && m_spec.nicPorts < 2,
                    "a ring of " << n << " GPUs needs 2 NIC ports per GPU on an optical rail");
    // Edge e joins order[e] and order[e + 1]. Edges alternate between ports 0 and 1, so a
    // GPU's two edges use different ports; the closing edge uses each end's free port:
    // port (n - 1) mod 2 at order[n - 1] and port 1 at order[0] (ports differ if n is odd).
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t e = 0; e + 1 < n; ++e)
    {
        pairs.emplace_back(GetOcsPort(order[e], e % 2), GetOcsPort(order[e + 1], e % 2));
    }
    if (n > 2)
    {
        pairs.emplace_back(GetOcsPort(order[n - 1], (n - 1) % 2), GetOcsPort(order[0], 1));
    }
    else
    {
        // Two GPUs are each other's both neighbours: every further port joins the same port
        // of the other, so a transfer spreads over all of them as on a switched rail (port 0
        // alone gave 2 x 200G NICs half their rate).
        for (uint32_t port = 1; port < m_spec.nicPorts; ++port)
        {
            pairs.emplace_back(GetOcsPort(order[0], port), GetOcsPort(order[1], port));
        }
    }
    return OpticalCircuitSwitch::Duplex(pairs);
}

} // namespace ns3

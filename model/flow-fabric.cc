/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-fabric.h"

#include "flow-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rail-transport-header.h"
#include "ns3/splitmix-hash.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowFabric");

NS_OBJECT_ENSURE_REGISTERED(FlowFabric);

namespace
{

/// Bytes a real frame adds to its payload on the wire (Ethernet + RailTransportHeader).
constexpr uint32_t FRAME_OVERHEAD = RailTransportHeader::FRAME_OVERHEAD;

/// Bytes on the wire of a frame of \p payload bytes standing for real frames of \p real.
uint64_t
WireBytes(uint64_t payload, uint32_t real)
{
    return payload + FRAME_OVERHEAD * std::max<uint64_t>(1, (payload + real - 1) / real);
}

} // namespace

TypeId
FlowFabric::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowFabric").SetParent<RailNetwork>().SetGroupName("PhotonicRails");
    return tid;
}

void
FlowFabric::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_transports.clear();
    m_network = nullptr;
    RailNetwork::DoDispose();
}

double
FlowFabric::PayloadCapacity(uint64_t bps, uint32_t payload)
{
    return bps / 8.0 * payload / WireBytes(payload, RailFabricSpec::REAL_FRAME_BYTES);
}

void
FlowFabric::AddLinks()
{
    uint32_t gpus = m_spec.Gpus();
    double scaleUp = PayloadCapacity(m_spec.scaleUpBps, m_spec.scaleUpFrameBytes);
    double nic = PayloadCapacity(m_spec.nicPortBps, m_spec.railFrameBytes);
    // Scale-up: 2 per GPU (up, down); NIC ports: 2 per port (tx, rx); Clos: 2 per uplink.
    for (uint32_t gpu = 0; gpu < gpus; ++gpu)
    {
        m_network->AddLink(scaleUp);
        m_network->AddLink(scaleUp);
    }
    m_nicLinks = 2 * gpus;
    for (uint64_t port = 0; port < uint64_t(gpus) * m_spec.nicPorts; ++port)
    {
        m_network->AddLink(nic);
        m_network->AddLink(nic);
    }
    m_closLinks = m_nicLinks + 2 * gpus * m_spec.nicPorts;
    if (m_kind != RailKind::EPS_CLOS)
    {
        return;
    }
    std::string error =
        ClosPlan::Make(m_spec.PortsPerRail(), m_spec.switchRadix, m_spec.oversubscription, m_clos);
    NS_ABORT_MSG_UNLESS(error.empty(), error);
    uint64_t uplinks =
        uint64_t(m_spec.gpusPerServer) * m_clos.leaves * m_clos.spines * m_clos.linksPerPair;
    for (uint64_t link = 0; link < uplinks; ++link)
    {
        m_network->AddLink(nic);
        m_network->AddLink(nic);
    }
}

std::vector<FlowRoute>
FlowFabric::RoutesBetween(uint32_t source, uint32_t destination, uint64_t bytes) const
{
    NS_LOG_FUNCTION(this << source << destination << bytes);
    std::vector<FlowRoute> routes = Routes(source, destination, bytes);
    for (FlowRoute& route : routes)
    {
        // GPU and destination below 2^20 (RailFabricSpec::MAX_GPUS), port below 256.
        uint64_t port = route.port == FlowRoute::SCALE_UP ? 255 : route.port;
        route.connection = (((uint64_t(route.railGpu) << 20) | destination) << 8) | port;
    }
    return routes;
}

std::vector<FlowRoute>
FlowFabric::Routes(uint32_t source, uint32_t destination, uint64_t bytes) const
{
    if (m_topology.SameServer(source, destination))
    {
        return {ScaleUpRoute(source, destination, bytes)};
    }
    uint32_t proxy = m_topology.ProxyFor(source, destination);
    if (proxy == source)
    {
        return RailRoutes(source, destination, bytes);
    }
    // PXN: the scale-up hop to the proxy, pipelined with the proxy's rail routes.
    FlowRoute first = ScaleUpRoute(source, proxy, bytes);
    std::vector<FlowRoute> routes = RailRoutes(proxy, destination, bytes);
    for (FlowRoute& route : routes)
    {
        route.path.insert(route.path.begin(), first.path.begin(), first.path.end());
        route.latency += first.latency;
        route.ackLatency += first.ackLatency;
    }
    return routes;
}

FlowRoute
FlowFabric::ScaleUpRoute(uint32_t source, uint32_t destination, uint64_t bytes) const
{
    FlowRoute route;
    route.railGpu = source;
    route.path = {2 * source, 2 * destination + 1};
    std::vector<std::pair<uint64_t, uint32_t>> hops(2,
                                                    {m_spec.scaleUpBps, m_spec.scaleUpFrameBytes});
    Time delays = 2 * m_delays.link + m_delays.switching;
    route.latency = delays + FirstFrameLatency(hops, bytes);
    route.ackLatency = delays + AckSerialization(hops);
    return route;
}

std::vector<FlowRoute>
FlowFabric::RailRoutes(uint32_t source, uint32_t destination, uint64_t bytes) const
{
    std::vector<FlowRoute> routes;
    uint32_t ports = m_spec.nicPorts;
    for (uint32_t port = 0; port < ports; ++port)
    {
        if (m_kind != RailKind::OCS)
        {
            // A packet switch: port k talks to the peer's port k (as RailTransport does).
            routes.push_back(RailRoute(source, port, destination, port, bytes));
            continue;
        }
        Ptr<OpticalCircuitSwitch> ocs = m_ocs[m_topology.RailOf(source)];
        uint32_t input = GetOcsPort(source, port);
        if (!ocs->IsCircuitUp(input))
        {
            continue;
        }
        uint32_t output = ocs->GetConnection(input);
        if (output / ports == m_topology.ServerOf(destination))
        {
            routes.push_back(RailRoute(source, port, destination, output % ports, bytes));
        }
    }
    return routes;
}

FlowRoute
FlowFabric::RailRoute(uint32_t source,
                      uint32_t port,
                      uint32_t destination,
                      uint32_t peerPort,
                      uint64_t bytes) const
{
    uint32_t ports = m_spec.nicPorts;
    uint32_t tx = m_nicLinks + 2 * (source * ports + port);
    uint32_t rx = m_nicLinks + 2 * (destination * ports + peerPort) + 1;
    FlowRoute route;
    route.railGpu = source;
    route.port = port;
    std::pair<uint64_t, uint32_t> hop{m_spec.nicPortBps, m_spec.railFrameBytes};
    if (m_kind == RailKind::OCS)
    {
        // A passive switch: one serialization, two fibers.
        route.path = {tx, rx};
        route.latency = 2 * m_delays.fiber + FirstFrameLatency({hop}, bytes);
        route.ackLatency = 2 * m_delays.fiber + AckSerialization({hop});
        return route;
    }
    uint32_t from = m_topology.ServerOf(source) * ports + port;
    uint32_t to = m_topology.ServerOf(destination) * ports + peerPort;
    uint32_t fromLeaf = m_kind == RailKind::EPS_CLOS ? from / m_clos.downPerLeaf : 0;
    uint32_t toLeaf = m_kind == RailKind::EPS_CLOS ? to / m_clos.downPerLeaf : 0;
    if (fromLeaf == toLeaf)
    {
        route.path = {tx, rx};
        std::vector<std::pair<uint64_t, uint32_t>> hops(2, hop);
        route.latency = 2 * m_delays.link + m_delays.switching + FirstFrameLatency(hops, bytes);
        route.ackLatency = 2 * m_delays.link + m_delays.switching + AckSerialization(hops);
        return route;
    }
    // ECMP: the source leaf hashes the connection onto an uplink (and so a spine), the
    // spine onto one of its parallel links down to the destination leaf.
    uint64_t label = SplitMix64((uint64_t(source) << 40) ^ (uint64_t(destination) << 16) ^
                                (uint64_t(port) << 8) ^ peerPort);
    uint32_t uplinks = m_clos.spines * m_clos.linksPerPair;
    uint32_t up = static_cast<uint32_t>(label % uplinks);
    uint32_t spine = up / m_clos.linksPerPair;
    uint32_t down = spine * m_clos.linksPerPair +
                    static_cast<uint32_t>(SplitMix64(label) % m_clos.linksPerPair);
    uint64_t railBase = uint64_t(m_topology.RailOf(source)) * m_clos.leaves * uplinks;
    uint32_t upLink = m_closLinks + 2 * (railBase + uint64_t(fromLeaf) * uplinks + up);
    uint32_t downLink = m_closLinks + 2 * (railBase + uint64_t(toLeaf) * uplinks + down) + 1;
    route.path = {tx, upLink, downLink, rx};
    std::vector<std::pair<uint64_t, uint32_t>> hops(4, hop);
    Time delays = 4 * m_delays.link + 3 * m_delays.switching;
    route.latency = delays + FirstFrameLatency(hops, bytes);
    route.ackLatency = delays + AckSerialization(hops);
    return route;
}

Time
FlowFabric::FirstFrameLatency(const std::vector<std::pair<uint64_t, uint32_t>>& hops,
                              uint64_t bytes)
{
    // N frames through store-and-forward hops arrive after sum(T_h) + (N - 1) max(T_h); the
    // flow's own time at the bottleneck is N max(T_h), which leaves sum(T_h) - max(T_h).
    double sum = 0;
    double slowest = 0;
    for (const auto& [bps, payload] : hops)
    {
        uint64_t first = std::min<uint64_t>(bytes, payload);
        double seconds = WireBytes(first, RailFabricSpec::REAL_FRAME_BYTES) * 8.0 / bps;
        sum += seconds;
        slowest = std::max(slowest, seconds);
    }
    return Seconds(sum - slowest);
}

Time
FlowFabric::AckSerialization(const std::vector<std::pair<uint64_t, uint32_t>>& hops)
{
    double seconds = 0;
    for (const auto& hop : hops)
    {
        seconds += FRAME_OVERHEAD * 8.0 / hop.first;
    }
    return Seconds(seconds);
}

void
FlowFabric::OnCircuitChange(uint32_t rail, uint32_t input, uint32_t /* output */)
{
    // The port's GPU and the other GPUs of its server (PXN origins) may use it.
    uint32_t server = input / m_spec.nicPorts;
    uint32_t gpu = m_topology.RankOf(server, rail);
    for (uint32_t local = 0; local < m_spec.gpusPerServer; ++local)
    {
        m_transports[m_topology.RankOf(server, local)]->OnPortChange(gpu, input % m_spec.nicPorts);
    }
}

Ptr<FlowNetwork>
FlowFabric::GetNetwork() const
{
    NS_LOG_FUNCTION(this);
    return m_network;
}

Ptr<FlowTransport>
FlowFabric::GetFlowTransport(uint32_t gpu) const
{
    NS_LOG_FUNCTION(this << gpu);
    NS_ABORT_MSG_IF(gpu >= m_transports.size(), "no GPU " << gpu);
    return m_transports[gpu];
}

const RailTopology&
FlowFabric::GetTopology() const
{
    NS_LOG_FUNCTION(this);
    return m_topology;
}

uint32_t
FlowFabric::GetOcsPort(uint32_t gpu, uint32_t port) const
{
    NS_LOG_FUNCTION(this << gpu << port);
    NS_ABORT_MSG_UNLESS(m_kind == RailKind::OCS && gpu < m_spec.Gpus() && port < m_spec.nicPorts,
                        "GPU " << gpu << " port " << port << " is not an OCS port");
    return m_topology.ServerOf(gpu) * m_spec.nicPorts + port;
}

std::string
FlowFabric::GetModelName() const
{
    NS_LOG_FUNCTION(this);
    return "flow";
}

Ptr<MessageTransport>
FlowFabric::GetMessageTransport(uint32_t gpu) const
{
    NS_LOG_FUNCTION(this << gpu);
    return GetFlowTransport(gpu);
}

uint64_t
FlowFabric::CountDroppedFrames() const
{
    NS_LOG_FUNCTION(this);
    return 0;
}

int64_t
FlowFabric::AssignStreams(int64_t /* stream */)
{
    NS_LOG_FUNCTION(this);
    return 0;
}

} // namespace ns3

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
#include <cmath>

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

/// Bytes on the wire of \p bytes sent in frames of \p payload (the last one short).
uint64_t
ShareWireBytes(uint64_t bytes, uint32_t payload)
{
    uint64_t last = bytes % payload;
    return bytes / payload * WireBytes(payload, RailFabricSpec::REAL_FRAME_BYTES) +
           (last > 0 ? WireBytes(last, RailFabricSpec::REAL_FRAME_BYTES) : 0);
}

/**
 * \param seconds a latency
 * \return it in whole nanoseconds, rounded down (up to floating-point noise): a drain is
 *         rounded up to whole nanoseconds, so the arrival after both is within 1 ns of exact
 */
Time
FloorNs(double seconds)
{
    return NanoSeconds(static_cast<int64_t>(std::floor(seconds * 1e9 + 1e-6)));
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

void
FlowFabric::AddLinks()
{
    uint32_t gpus = m_spec.Gpus();
    // Capacities in wire bytes: a transfer moves its frames, headers included.
    double scaleUp = m_spec.scaleUpBps / 8.0;
    double nic = m_spec.nicPortBps / 8.0;
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
    std::vector<Draft> drafts = Routes(source, destination);
    std::vector<FlowRoute> routes;
    routes.reserve(drafts.size());
    for (std::size_t i = 0; i < drafts.size(); ++i)
    {
        Draft& draft = drafts[i];
        FlowRoute& route = draft.route;
        // GPU and destination below 2^20 (RailFabricSpec::MAX_GPUS), port below 256.
        uint64_t port = route.port == FlowRoute::SCALE_UP ? 255 : route.port;
        route.connection = (((uint64_t(route.railGpu) << 20) | destination) << 8) | port;
        bool relayed = route.railGpu != source;
        route.bytes = Share(i, drafts.size(), bytes, relayed);
        Timing(draft, bytes);
        routes.push_back(std::move(route));
    }
    return routes;
}

uint64_t
FlowFabric::Share(std::size_t route, std::size_t routes, uint64_t bytes, bool relayed) const
{
    if (!relayed)
    {
        // Even shares (every NIC port has the same rate); the remainder goes to the first.
        return bytes / routes + (route == 0 ? bytes % routes : 0);
    }
    // A PXN proxy deals the message out in chunks of a rail frame, round robin over its
    // ports (the packet model's RelayChunk): chunk j goes to port j mod n.
    uint64_t chunk = m_spec.railFrameBytes;
    uint64_t whole = bytes / chunk;
    uint64_t share = (whole / routes + (route < whole % routes ? 1 : 0)) * chunk;
    return share + (route == whole % routes ? bytes % chunk : 0);
}

void
FlowFabric::Timing(Draft& draft, uint64_t message) const
{
    // Frames through store-and-forward hops: the first frame crosses every hop, and the
    // bottleneck (the slowest line) sends all of the share's frames: that is the transfer's
    // drain, so the latency has the first frame's time at every other hop. Scale-up hops
    // carry the whole message (within a server it has one route; through a PXN proxy the
    // origin sends it all to the proxy), rail hops the route's share.
    FlowRoute& route = draft.route;
    auto firstFrame = [](uint64_t bytes, uint32_t payload, uint64_t bps) {
        return WireBytes(std::min<uint64_t>(bytes, payload), RailFabricSpec::REAL_FRAME_BYTES) *
               8.0 / bps;
    };
    double scaleUp = firstFrame(message, m_spec.scaleUpFrameBytes, m_spec.scaleUpBps);
    double rail = firstFrame(route.bytes, m_spec.railFrameBytes, m_spec.nicPortBps);
    double seconds = draft.scaleUpHops * scaleUp + draft.railHops * rail;
    bool railBottleneck =
        draft.railHops > 0 && (draft.scaleUpHops == 0 || m_spec.nicPortBps <= m_spec.scaleUpBps);
    seconds -= railBottleneck ? rail : scaleUp;
    uint32_t payload = railBottleneck ? m_spec.railFrameBytes : m_spec.scaleUpFrameBytes;
    route.wireBytes = ShareWireBytes(route.bytes, payload);
    route.latency = draft.delays + FloorNs(seconds);
}

std::vector<FlowFabric::Draft>
FlowFabric::Routes(uint32_t source, uint32_t destination) const
{
    if (m_topology.SameServer(source, destination))
    {
        std::vector<Draft> routes(1);
        ScaleUpRoute(source, destination, routes[0]);
        return routes;
    }
    uint32_t proxy = m_topology.ProxyFor(source, destination);
    if (proxy == source)
    {
        return RailRoutes(source, destination);
    }
    // PXN: the scale-up hop to the proxy, pipelined with the proxy's rail routes. The
    // sender is told when the rail's ACK reaches the proxy (NCCL passes it on through GPU
    // memory; so does the packet model): the ACK latency is the rail's.
    Draft first;
    ScaleUpRoute(source, proxy, first);
    std::vector<Draft> routes = RailRoutes(proxy, destination);
    for (Draft& route : routes)
    {
        route.route.path.insert(route.route.path.begin(),
                                first.route.path.begin(),
                                first.route.path.end());
        route.scaleUpHops = first.scaleUpHops;
        route.delays += first.delays;
    }
    return routes;
}

void
FlowFabric::ScaleUpRoute(uint32_t source, uint32_t destination, Draft& draft) const
{
    draft.route.railGpu = source;
    draft.route.path = {2 * source, 2 * destination + 1};
    draft.scaleUpHops = 2;
    draft.delays = 2 * m_delays.link + m_delays.switching;
    draft.route.ackLatency = draft.delays + AckSerialization(m_spec.scaleUpBps, 2);
}

std::vector<FlowFabric::Draft>
FlowFabric::RailRoutes(uint32_t source, uint32_t destination) const
{
    std::vector<Draft> routes;
    uint32_t ports = m_spec.nicPorts;
    routes.reserve(ports);
    for (uint32_t port = 0; port < ports; ++port)
    {
        uint32_t peerPort = port; // on a packet switch, port k talks to the peer's port k
        if (m_kind == RailKind::OCS)
        {
            // Flows need only the circuit state, not the channel that would carry frames.
            Ptr<OcsCircuitTable> circuits = m_ocs[m_topology.RailOf(source)]->GetCircuitTable();
            uint32_t input = GetOcsPort(source, port);
            if (!circuits->IsCircuitUp(input))
            {
                continue;
            }
            uint32_t output = circuits->GetConnection(input);
            if (output / ports != m_topology.ServerOf(destination))
            {
                continue;
            }
            peerPort = output % ports;
        }
        routes.emplace_back();
        RailRoute(source, port, destination, peerPort, routes.back());
    }
    return routes;
}

void
FlowFabric::RailRoute(uint32_t source,
                      uint32_t port,
                      uint32_t destination,
                      uint32_t peerPort,
                      Draft& draft) const
{
    uint32_t ports = m_spec.nicPorts;
    uint32_t tx = m_nicLinks + 2 * (source * ports + port);
    uint32_t rx = m_nicLinks + 2 * (destination * ports + peerPort) + 1;
    FlowRoute& route = draft.route;
    route.railGpu = source;
    route.port = port;
    uint32_t from = m_topology.ServerOf(source) * ports + port;
    uint32_t to = m_topology.ServerOf(destination) * ports + peerPort;
    uint32_t fromLeaf = m_kind == RailKind::EPS_CLOS ? from / m_clos.downPerLeaf : 0;
    uint32_t toLeaf = m_kind == RailKind::EPS_CLOS ? to / m_clos.downPerLeaf : 0;
    if (m_kind == RailKind::OCS)
    {
        // A passive switch: one serialization, two fibers.
        route.path = {tx, rx};
        draft.railHops = 1;
        draft.delays = 2 * m_delays.fiber;
    }
    else if (fromLeaf == toLeaf)
    {
        route.path = {tx, rx};
        draft.railHops = 2;
        draft.delays = 2 * m_delays.link + m_delays.switching;
    }
    else
    {
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
        draft.railHops = 4;
        draft.delays = 4 * m_delays.link + 3 * m_delays.switching;
    }
    route.ackLatency = draft.delays + AckSerialization(m_spec.nicPortBps, draft.railHops);
}

Time
FlowFabric::AckSerialization(uint64_t bps, uint32_t hops)
{
    return FloorNs(hops * FRAME_OVERHEAD * 8.0 / bps);
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

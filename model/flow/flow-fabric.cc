/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-fabric.h"

#include "flow-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rail-transport-header.h"
#include "ns3/simulator.h"
#include "ns3/splitmix-hash.h"
#include "ns3/trace-source-accessor.h"

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
        TypeId("ns3::FlowFabric")
            .SetParent<RailNetwork>()
            .SetGroupName("PhotonicRails")
            .AddAttribute("DetectionDelay",
                          "Time from a link of a Clos rail going down (or up) to routes that "
                          "avoid (or use) it, as ns3::EpsRouting::DetectionDelay at packet level.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&FlowFabric::m_detectionDelay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("CircuitWanted",
                            "Detoured traffic waits for a circuit between two GPUs of a rail "
                            "that no lit circuit joins (the control plane may light one).",
                            MakeTraceSourceAccessor(&FlowFabric::m_circuitWantedTrace),
                            "ns3::FlowFabric::CircuitWantedTracedCallback");
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
        m_faults.Resize(m_closLinks);
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
    m_faults.Resize(m_closLinks + 2 * uplinks);
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
    std::vector<Draft> routes = RailRoutes(proxy, destination);
    for (Draft& route : routes)
    {
        AddScaleUpHops(source, proxy, destination, destination, route);
    }
    return routes;
}

void
FlowFabric::AddScaleUpHops(uint32_t source,
                           uint32_t near,
                           uint32_t far,
                           uint32_t destination,
                           Draft& draft) const
{
    std::vector<FlowNetwork::LinkId>& path = draft.route.path;
    if (source != near)
    {
        Draft first;
        ScaleUpRoute(source, near, first);
        path.insert(path.begin(), first.route.path.begin(), first.route.path.end());
        draft.scaleUpHops += first.scaleUpHops;
        draft.delays += first.delays;
    }
    if (far != destination)
    {
        // A detour's last hop: its ACK comes back through the scale-up domain too.
        Draft last;
        ScaleUpRoute(far, destination, last);
        path.insert(path.end(), last.route.path.begin(), last.route.path.end());
        draft.scaleUpHops += last.scaleUpHops;
        draft.delays += last.delays;
        draft.route.ackLatency += last.route.ackLatency;
    }
}

void
FlowFabric::ScaleUpRoute(uint32_t source, uint32_t destination, Draft& draft) const
{
    draft.route.railGpu = source;
    draft.route.target = destination;
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
        uint32_t peerPort = PeerPort(source, port, destination);
        if (peerPort == FlowRoute::NO_PORT)
        {
            continue;
        }
        // A link that died inside a Clos stays on the route until routing goes around it.
        routes.emplace_back();
        if (!RailRoute(source, port, destination, peerPort, routes.back()))
        {
            routes.pop_back(); // routing has no way between the leaves
        }
    }
    return routes;
}

std::vector<uint32_t>
FlowFabric::PeerPorts(uint32_t source, uint32_t destination) const
{
    uint32_t ports = m_spec.nicPorts;
    std::vector<uint32_t> peer(ports, FlowRoute::NO_PORT);
    std::vector<bool> taken(ports, false);
    for (uint32_t port = 0; port < ports; ++port)
    {
        if (IsPortUp(source, port) && IsPortUp(destination, port))
        {
            peer[port] = port;
            taken[port] = true;
        }
    }
    for (uint32_t port = 0; port < ports; ++port)
    {
        for (uint32_t other = 0;
             IsPortUp(source, port) && peer[port] == FlowRoute::NO_PORT && other < ports;
             ++other)
        {
            if (!taken[other] && IsPortUp(destination, other))
            {
                peer[port] = other;
                taken[other] = true;
            }
        }
    }
    return peer;
}

uint32_t
FlowFabric::PeerPort(uint32_t source, uint32_t port, uint32_t destination) const
{
    if (m_kind != RailKind::OCS)
    {
        return m_faults.Any() ? PeerPorts(source, destination)[port] : port;
    }
    // Wherever the port's circuit leads (flows need only the circuit state, not the channel
    // that would carry frames).
    Ptr<OcsCircuitTable> circuits = m_ocs[m_topology.RailOf(source)]->GetCircuitTable();
    uint32_t input = GetOcsPort(source, port);
    if (!circuits->IsCircuitUp(input) ||
        circuits->GetConnection(input) / m_spec.nicPorts != m_topology.ServerOf(destination))
    {
        return FlowRoute::NO_PORT;
    }
    return circuits->GetConnection(input) % m_spec.nicPorts;
}

bool
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
    route.target = destination;
    route.peerPort = peerPort;
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
        uint64_t label = SplitMix64((uint64_t(source) << 40) ^ (uint64_t(destination) << 16) ^
                                    (uint64_t(port) << 8) ^ peerPort);
        route.path = {tx};
        if (!ClosHops(m_topology.RailOf(source), fromLeaf, toLeaf, label, draft))
        {
            return false;
        }
        route.path.push_back(rx);
        draft.railHops = 4;
        draft.delays = 4 * m_delays.link + 3 * m_delays.switching;
    }
    route.ackLatency = draft.delays + AckSerialization(m_spec.nicPortBps, draft.railHops);
    return true;
}

bool
FlowFabric::ClosHops(uint32_t rail,
                     uint32_t fromLeaf,
                     uint32_t toLeaf,
                     uint64_t label,
                     Draft& draft) const
{
    // ECMP: the source leaf hashes the connection onto an uplink (and so a spine), the
    // spine onto one of its parallel links down to the destination leaf; of those routing
    // has not taken out around a failure.
    uint32_t perPair = m_clos.linksPerPair;
    uint32_t uplinks = m_clos.spines * perPair;
    uint64_t railBase = uint64_t(rail) * m_clos.leaves * uplinks;
    auto upLink = [&](uint32_t cable) {
        return static_cast<uint32_t>(m_closLinks +
                                     2 * (railBase + uint64_t(fromLeaf) * uplinks + cable));
    };
    auto downLink = [&](uint32_t cable) {
        return static_cast<uint32_t>(m_closLinks +
                                     2 * (railBase + uint64_t(toLeaf) * uplinks + cable) + 1);
    };
    auto downsOf = [&](uint32_t spine) {
        std::vector<uint32_t> downs;
        for (uint32_t cable = spine * perPair; cable < (spine + 1) * perPair; ++cable)
        {
            if (!m_faults.IsRoutedAround(downLink(cable)))
            {
                downs.push_back(cable);
            }
        }
        return downs;
    };
    if (!m_faults.Any())
    {
        uint32_t up = static_cast<uint32_t>(label % uplinks);
        uint32_t spine = up / perPair;
        draft.route.path.push_back(upLink(up));
        draft.route.path.push_back(
            downLink(spine * perPair + static_cast<uint32_t>(SplitMix64(label) % perPair)));
        return true;
    }
    std::vector<uint32_t> ups;
    for (uint32_t cable = 0; cable < uplinks; ++cable)
    {
        if (!m_faults.IsRoutedAround(upLink(cable)) && !downsOf(cable / perPair).empty())
        {
            ups.push_back(cable);
        }
    }
    if (ups.empty())
    {
        return false; // no spine reaches the destination's leaf
    }
    uint32_t up = ups[label % ups.size()];
    std::vector<uint32_t> downs = downsOf(up / perPair);
    uint32_t down = downs[SplitMix64(label) % downs.size()];
    draft.route.path.push_back(upLink(up));
    draft.route.path.push_back(downLink(down));
    return true;
}

std::vector<FlowRoute>
FlowFabric::DetourRoutes(uint32_t source, uint32_t destination, uint64_t bytes) const
{
    NS_LOG_FUNCTION(this << source << destination << bytes);
    uint32_t from = m_topology.ServerOf(source);
    uint32_t to = m_topology.ServerOf(destination);
    uint32_t failedRail = m_topology.RailOf(destination);
    uint32_t fewest = 4; // GPU hops: at most scale-up, rail, scale-up
    std::vector<uint32_t> rails;
    std::pair<uint32_t, uint32_t> wanted{FlowRoute::NO_PORT, FlowRoute::NO_PORT};
    for (uint32_t rail = 0; rail < m_spec.gpusPerServer; ++rail)
    {
        uint32_t near = m_topology.RankOf(from, rail);
        uint32_t far = m_topology.RankOf(to, rail);
        if (rail == failedRail)
        {
            continue; // the way that failed
        }
        if (RailRoutes(near, far).empty())
        {
            if (m_kind == RailKind::OCS && wanted.first == FlowRoute::NO_PORT &&
                HasLivePort(near) && HasLivePort(far))
            {
                wanted = {near, far};
            }
            continue;
        }
        uint32_t hops = (near != source) + 1 + (far != destination);
        if (hops < fewest)
        {
            fewest = hops;
            rails.clear();
        }
        if (hops == fewest)
        {
            rails.push_back(rail);
        }
    }
    if (rails.empty())
    {
        if (wanted.first != FlowRoute::NO_PORT)
        {
            m_circuitWantedTrace(wanted.first, wanted.second);
        }
        return {};
    }
    uint32_t rail = rails[(uint64_t(source) + destination) % rails.size()];
    uint32_t near = m_topology.RankOf(from, rail);
    uint32_t far = m_topology.RankOf(to, rail);
    std::vector<Draft> drafts = RailRoutes(near, far);
    std::vector<FlowRoute> routes;
    for (std::size_t i = 0; i < drafts.size(); ++i)
    {
        Draft& draft = drafts[i];
        AddScaleUpHops(source, near, far, destination, draft);
        FlowRoute& route = draft.route;
        // The queue pair of the rail hop carries it.
        route.connection = (((uint64_t(near) << 20) | far) << 8) | route.port;
        route.detour = true;
        route.bytes = Share(i, drafts.size(), bytes, near != source);
        Timing(draft, bytes);
        if (route.bytes > 0)
        {
            routes.push_back(std::move(route));
        }
    }
    return routes;
}

bool
FlowFabric::MayDetour(uint32_t source, uint32_t destination) const
{
    if (m_topology.SameServer(source, destination))
    {
        return false;
    }
    uint32_t railGpu = m_topology.ProxyFor(source, destination);
    return !HasLivePort(railGpu) || !HasLivePort(destination) ||
           m_faults.IsDetoured(railGpu, destination);
}

bool
FlowFabric::PathOf(uint32_t source,
                   uint32_t destination,
                   const FlowRoute& route,
                   std::vector<FlowNetwork::LinkId>& path,
                   uint32_t& peerPort) const
{
    Draft draft;
    if (route.port == FlowRoute::SCALE_UP)
    {
        ScaleUpRoute(source, destination, draft);
        path = draft.route.path;
        return true;
    }
    uint32_t peer = PeerPort(route.railGpu, route.port, route.target);
    if (peer == FlowRoute::NO_PORT ||
        !RailRoute(route.railGpu, route.port, route.target, peer, draft))
    {
        return false;
    }
    AddScaleUpHops(source, route.railGpu, route.target, destination, draft);
    if (m_faults.Any() && !m_faults.IsUp(draft.route.path))
    {
        return false;
    }
    path = draft.route.path;
    peerPort = peer;
    return true;
}

bool
FlowFabric::IsPortUp(uint32_t gpu, uint32_t port) const
{
    if (m_kind == RailKind::OCS)
    {
        return !m_ocs[m_topology.RailOf(gpu)]->IsPortFailed(GetOcsPort(gpu, port));
    }
    uint32_t tx = m_nicLinks + 2 * (gpu * m_spec.nicPorts + port);
    return !m_faults.IsDown(tx) && !m_faults.IsDown(tx + 1);
}

bool
FlowFabric::IsPathUp(const std::vector<FlowNetwork::LinkId>& path) const
{
    return m_faults.IsUp(path);
}

bool
FlowFabric::HasLivePort(uint32_t gpu) const
{
    for (uint32_t port = 0; port < m_spec.nicPorts; ++port)
    {
        if (IsPortUp(gpu, port))
        {
            return true;
        }
    }
    return false;
}

std::vector<FlowNetwork::LinkId>
FlowFabric::GetNicLinks(uint32_t gpu, uint32_t port) const
{
    NS_ABORT_MSG_UNLESS(gpu < m_spec.Gpus() && port < m_spec.nicPorts,
                        "FlowFabric: no NIC port " << port << " on GPU " << gpu);
    uint32_t tx = m_nicLinks + 2 * (gpu * m_spec.nicPorts + port);
    return {tx, tx + 1};
}

std::vector<FlowNetwork::LinkId>
FlowFabric::GetCableLinks(uint32_t rail, uint32_t leaf, uint32_t spine, uint32_t cable) const
{
    NS_ABORT_MSG_UNLESS(m_kind == RailKind::EPS_CLOS && rail < m_spec.gpusPerServer &&
                            leaf < m_clos.leaves && spine < m_clos.spines &&
                            cable < m_clos.linksPerPair,
                        "FlowFabric: no cable " << cable << " from leaf " << leaf << " to spine "
                                                << spine << " on rail " << rail);
    uint64_t uplinks = uint64_t(m_clos.spines) * m_clos.linksPerPair;
    uint64_t index = (uint64_t(rail) * m_clos.leaves + leaf) * uplinks +
                     uint64_t(spine) * m_clos.linksPerPair + cable;
    uint32_t up = static_cast<uint32_t>(m_closLinks + 2 * index);
    return {up, up + 1};
}

std::vector<FlowNetwork::LinkId>
FlowFabric::GetSwitchLinks(uint32_t rail, bool isRail, bool isSpine, uint32_t index) const
{
    std::vector<FlowNetwork::LinkId> links;
    auto add = [&links](const std::vector<FlowNetwork::LinkId>& more) {
        links.insert(links.end(), more.begin(), more.end());
    };
    uint32_t ports = m_spec.nicPorts;
    for (uint32_t railPort = 0; !isSpine && railPort < m_spec.PortsPerRail(); ++railPort)
    {
        // A leaf's NIC cables are those of the rail ports it serves; a rail switch has all.
        if (isRail || railPort / m_clos.downPerLeaf == index)
        {
            add(GetNicLinks(m_topology.RankOf(railPort / ports, rail), railPort % ports));
        }
    }
    for (uint32_t leaf = 0; !isRail && leaf < m_clos.leaves; ++leaf)
    {
        for (uint32_t spine = 0; spine < m_clos.spines; ++spine)
        {
            for (uint32_t cable = 0; cable < m_clos.linksPerPair; ++cable)
            {
                if (isSpine ? spine == index : leaf == index)
                {
                    add(GetCableLinks(rail, leaf, spine, cable));
                }
            }
        }
    }
    return links;
}

void
FlowFabric::SetLinksDown(const std::vector<FlowNetwork::LinkId>& links, bool down)
{
    NS_LOG_FUNCTION(this << links.size() << down);
    for (FlowNetwork::LinkId link : links)
    {
        m_faults.Hold(link, down);
    }
    bool routed = std::any_of(links.begin(), links.end(), [this](FlowNetwork::LinkId link) {
        return link >= m_closLinks; // a leaf-spine link: NIC links are the transports' to avoid
    });
    if (routed)
    {
        // Routing learns of it one detection delay later (every change: the latest state).
        Simulator::Schedule(m_detectionDelay, &FlowFabric::Reroute, this);
    }
    NotifyFaultChange(down);
}

void
FlowFabric::Reroute()
{
    m_faults.Reroute();
    NotifyFaultChange(false);
}

void
FlowFabric::NotifyFaultChange(bool failure)
{
    NS_LOG_FUNCTION(this << failure);
    if (failure)
    {
        m_lastFailure = Simulator::Now();
    }
    for (const Ptr<FlowTransport>& transport : m_transports)
    {
        transport->OnFabricChange();
    }
}

void
FlowFabric::SetDetour(uint32_t a, uint32_t b, bool detour)
{
    NS_LOG_FUNCTION(this << a << b << detour);
    m_faults.SetDetour(a, b, detour);
    NotifyFaultChange(false);
}

Time
FlowFabric::GetLastFailure() const
{
    return m_lastFailure;
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

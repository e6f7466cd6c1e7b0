/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-controller.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/rail-topology.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iterator>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusController");

NS_OBJECT_ENSURE_REGISTERED(OpusController);

TypeId
OpusController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OpusController")
            .SetParent<OpusControlPlane>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<OpusController>()
            .AddAttribute("ControlLatency",
                          "One-way delay between a shim and the controller, paid twice "
                          "(request, acknowledgement) by a request that changes circuits.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&OpusController::SetControlLatency,
                                           &OpusController::GetControlLatency),
                          MakeTimeChecker(Seconds(0), Seconds(1e6)))
            .AddAttribute(
                "BatchWindow",
                "How long a rail's reconfiguration collects the changes of later "
                "requests before it is handed to the OCS: changes ordered within it "
                "share one blackout. 0: only those of the same instant.",
                TimeValue(Seconds(0)),
                MakeTimeAccessor(&OpusController::SetBatchWindow, &OpusController::GetBatchWindow),
                MakeTimeChecker(Seconds(0), Seconds(1e6)))
            .AddAttribute(
                "Arbitration",
                "How requests share a whole-switch OCS (every port dark during a "
                "reconfiguration): Fcfs, each request its own reconfiguration in arrival "
                "order (the paper's); Batch, a change joins the rail's reconfiguration not yet "
                "handed to the OCS, and one due while another switches waits for its end, so "
                "the shifts that meet share one blackout. No effect on per-port rails.",
                EnumValue(OpusController::FCFS),
                MakeEnumAccessor(&OpusController::SetArbitration, &OpusController::GetArbitration),
                MakeEnumChecker(OpusController::FCFS, "Fcfs", OpusController::BATCH, "Batch"))
            .AddAttribute("FailureHoldDown",
                          "How long a port must have failed before the controller plans "
                          "around it (shares live ports, reconnects, has pairs relay): a "
                          "shorter outage is waited out, as the transports wait out one "
                          "shorter than their RetransmitTimeout (1 ms, the default).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&OpusController::m_failureHoldDown),
                          MakeTimeChecker(Seconds(0), Seconds(1e6)))
            .AddTraceSource("Relay",
                            "A GPU pair that failed ports leave without a live port for a "
                            "circuit is to relay its traffic through other GPUs (true), or has "
                            "a circuit again (false).",
                            MakeTraceSourceAccessor(&OpusController::m_relayTrace),
                            "ns3::OpusController::RelayTracedCallback")
            .AddTraceSource("Outage",
                            "The controller failed (true), or a controller (the standby or "
                            "the repaired primary) took over with the messages held (false).",
                            MakeTraceSourceAccessor(&OpusController::m_outageTrace),
                            "ns3::OpusController::OutageTracedCallback");
    return tid;
}

OpusController::OpusController()
    : m_batcher(m_records, m_ports)
{
    NS_LOG_FUNCTION(this);
    m_batcher.SetBlackoutListener(
        [this](uint32_t rail, Time from, Time to) { Darkened(rail, from, to); });
}

OpusController::~OpusController()
{
    NS_LOG_FUNCTION(this);
}

void
OpusController::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_tables.clear();
    m_incomplete.clear();
    m_queue.clear();
    m_held.clear();
    m_batcher.Clear();
    OpusControlPlane::DoDispose();
}

void
OpusController::Setup(std::vector<Ptr<OcsCircuitTable>> tables,
                      std::vector<std::vector<uint32_t>> ocsPorts,
                      uint32_t gpusPerServer,
                      std::vector<Ptr<CollectiveCommunicator>> communicators)
{
    NS_LOG_FUNCTION(this << tables.size() << gpusPerServer << communicators.size());
    NS_ABORT_MSG_IF(tables.size() != gpusPerServer || ocsPorts.size() != communicators.size() ||
                        ocsPorts.empty(),
                    "OpusController::Setup: one OCS per rail and one port list per GPU");
    SetUpDemands(gpusPerServer, ocsPorts.front().size(), std::move(communicators));
    m_failedSince.assign(tables.size(), {});
    std::vector<uint32_t> radixes;
    for (const Ptr<OcsCircuitTable>& table : tables)
    {
        radixes.push_back(table->GetRadix());
    }
    m_tables = std::move(tables);
    for (const std::vector<uint32_t>& ports : ocsPorts)
    {
        NS_ABORT_MSG_IF(ports.size() != m_portsPerGpu,
                        "OpusController::Setup: GPUs with different NIC port counts");
    }
    m_ports = OpusPortAssigner(radixes, std::move(ocsPorts), gpusPerServer);
    m_batcher.SetTables(m_tables);
    m_darkUntil.assign(m_tables.size(), Time(0));
}

void
OpusController::SetControlLatency(Time latency)
{
    m_batcher.SetControlLatency(latency);
}

Time
OpusController::GetControlLatency() const
{
    return m_batcher.GetControlLatency();
}

void
OpusController::SetBatchWindow(Time window)
{
    m_batcher.SetBatchWindow(window);
}

Time
OpusController::GetBatchWindow() const
{
    return m_batcher.GetBatchWindow();
}

void
OpusController::SetArbitration(int arbitration)
{
    m_batcher.SetBatching(arbitration == BATCH);
}

int
OpusController::GetArbitration() const
{
    return m_batcher.GetBatching() ? BATCH : FCFS;
}

void
OpusController::Darkened(uint32_t rail, Time from, Time to)
{
    NS_LOG_FUNCTION(this << rail << from << to);
    m_darkUntil[rail] = std::max(m_darkUntil[rail], to);
    // The communications this reconfiguration serves are not granted yet: they wait already.
    for (const auto& [instance, lease] : m_leases)
    {
        bool onRail = std::any_of(lease.needs.begin(), lease.needs.end(), [rail](auto& need) {
            return need.rail == rail;
        });
        if (lease.granted && onRail)
        {
            AddWait(instance, from, to);
        }
    }
}

OpusController::IncompleteRequest&
OpusController::IncompleteRequestOf(const CollectiveCall& call, uint32_t rank)
{
    auto found = m_incomplete.find(call.instance);
    if (found != m_incomplete.end())
    {
        return found->second;
    }
    IncompleteRequest incomplete;
    incomplete.request.instance = call.instance;
    incomplete.request.group = call.instance.substr(0, call.instance.rfind('#'));
    SetDemandAndMembers(incomplete, call, rank);
    return m_incomplete.emplace(call.instance, std::move(incomplete)).first->second;
}

void
OpusController::SetDemandAndMembers(IncompleteRequest& incomplete,
                                    const CollectiveCall& call,
                                    uint32_t rank)
{
    incomplete.request.demand = GetDemand(call, rank);
    bool pointToPoint = call.type == WorkloadOpType::SEND || call.type == WorkloadOpType::RECV;
    incomplete.request.members = pointToPoint ? 2 : call.members.size();
    incomplete.missing = incomplete.request.members;
}

void
OpusController::Request(const CollectiveCall& call, uint32_t rank, GrantCallback granted)
{
    NS_LOG_FUNCTION(this << call.instance << rank);
    if (IsHolding())
    {
        Hold([this, call, rank, granted, arrived = Simulator::Now()]() {
            DoRequest(call, rank, granted, arrived);
        });
        return;
    }
    DoRequest(call, rank, granted, Simulator::Now());
}

void
OpusController::DoRequest(const CollectiveCall& call,
                          uint32_t rank,
                          GrantCallback granted,
                          Time arrived)
{
    IncompleteRequest& incomplete = IncompleteRequestOf(call, rank);
    if (incomplete.request.grants.empty())
    {
        // The first real request says what the communication needs; a provisioning
        // announcement that created the incomplete request only predicted it.
        SetDemandAndMembers(incomplete, call, rank);
    }
    incomplete.request.grants.push_back(granted);
    incomplete.request.asked.insert(rank);
    incomplete.announced.insert(rank);
    if (--incomplete.missing > 0)
    {
        ProvisionIfAnnounced(incomplete);
        return;
    }
    CircuitRequest request = std::move(incomplete.request);
    m_incomplete.erase(call.instance);
    m_served.insert(call.instance);
    request.ready = arrived;
    Enqueue(std::move(request));
}

void
OpusController::Provision(const CollectiveCall& call, uint32_t rank)
{
    NS_LOG_FUNCTION(this << call.instance << rank);
    if (IsHolding())
    {
        Hold([this, call, rank]() { DoProvision(call, rank); });
        return;
    }
    DoProvision(call, rank);
}

void
OpusController::DoProvision(const CollectiveCall& call, uint32_t rank)
{
    if (m_served.count(call.instance) > 0 || GetDemand(call, rank)->IsEmpty())
    {
        return; // too late, or nothing to set up
    }
    IncompleteRequest& incomplete = IncompleteRequestOf(call, rank);
    incomplete.announced.insert(rank);
    ProvisionIfAnnounced(incomplete);
}

void
OpusController::ProvisionIfAnnounced(IncompleteRequest& incomplete)
{
    // Every member has finished its previous phase (or already asked): switching now
    // cannot cut into a member's phase that is still going on.
    if (incomplete.provisioned || incomplete.announced.size() < incomplete.request.members)
    {
        return;
    }
    incomplete.provisioned = true;
    CircuitRequest request;
    request.instance = incomplete.request.instance;
    request.group = incomplete.request.group;
    request.demand = incomplete.request.demand;
    request.speculative = true;
    request.asked = incomplete.announced;
    request.ready = Simulator::Now();
    // One nanosecond later: every real request of this instant comes first, however many
    // zero-time steps (a zero-length compute op, a chain of callbacks) lead to it, and its
    // circuits are then kept (PairsToKeep, MemberAskedElsewhere). Events already due now
    // would not be enough: a request made by a later event of the same instant lost.
    Simulator::Schedule(NanoSeconds(1),
                        &OpusController::WhenServing,
                        this,
                        std::function<void()>([this, request]() { Enqueue(request); }));
}

void
OpusController::Enqueue(CircuitRequest request)
{
    m_queue.push_back(std::move(request));
    ServeQueue();
}

void
OpusController::Release(const std::string& instance)
{
    NS_LOG_FUNCTION(this << instance);
    if (IsHolding())
    {
        Hold([this, instance]() { DoRelease(instance); });
        return;
    }
    DoRelease(instance);
}

void
OpusController::DoRelease(const std::string& instance)
{
    auto found = m_leases.find(instance);
    NS_ABORT_MSG_IF(found == m_leases.end(), "OpusController: no lease for " << instance);
    if (--found->second.membersLeft > 0)
    {
        return;
    }
    std::set<uint32_t> rails;
    for (const OpusCircuitNeed& need : found->second.needs)
    {
        OpusDemand::Link pair{need.rail, need.a, need.b};
        rails.insert(need.rail);
        if (--m_pairLeases[pair] == 0)
        {
            m_pairLeases.erase(pair);
            SetRelayed(pair, false); // its next communication is planned afresh
        }
    }
    m_leases.erase(found);
    // Ports this communication held may join pairs that relay (served while a failure
    // left them no port), before later requests take them: first come, first served.
    for (uint32_t rail : rails)
    {
        bool relayedHere = std::any_of(m_relayed.begin(), m_relayed.end(), [rail](auto& pair) {
            return std::get<0>(pair) == rail;
        });
        if (relayedHere && !m_static)
        {
            Reconnect(rail);
        }
    }
    PlanDetours(); // before later requests take the ports (first come, first served)
    ServeQueue();
    // What the queue left free may carry detoured data.
    for (uint32_t rail : rails)
    {
        JoinWanted(rail);
    }
}

void
OpusController::ServeQueue()
{
    // A request that cannot be served holds back later requests that share one of its GPUs:
    // first come, first served, while requests on other GPUs go ahead. A speculative request
    // holds back nothing (a speculative setup must not delay real traffic) and is dropped once
    // every member has asked for its communication.
    std::set<std::pair<uint32_t, uint32_t>> held;
    for (auto it = m_queue.begin(); it != m_queue.end();)
    {
        if (it->speculative && m_served.count(it->instance) > 0)
        {
            it = m_queue.erase(it);
            continue;
        }
        auto gpus = GpusOf(*it->demand);
        bool behind = std::any_of(gpus.begin(), gpus.end(), [&held](const auto& gpu) {
            return held.count(gpu) > 0;
        });
        behind = behind || (it->speculative && MemberAskedElsewhere(*it));
        std::map<uint32_t, OpusRailChange> changes;
        if (behind || !AssignPorts(*it, changes))
        {
            if (!it->speculative)
            {
                held.insert(gpus.begin(), gpus.end());
            }
            ++it;
            continue;
        }
        CircuitRequest request = std::move(*it);
        it = m_queue.erase(it);
        Serve(std::move(request), std::move(changes));
    }
}

void
OpusController::NotifyPortFailure(uint32_t rail, uint32_t port, bool failed)
{
    if (IsHolding())
    {
        Hold([this, rail, port, failed]() { DoNotifyPortFailure(rail, port, failed); });
        return;
    }
    DoNotifyPortFailure(rail, port, failed);
}

void
OpusController::DoNotifyPortFailure(uint32_t rail, uint32_t port, bool failed)
{
    NS_LOG_INFO("rail " << rail << " OCS port " << port << (failed ? " failed" : " repaired"));
    // Not from inside the OCS's call: planning orders reconfigurations of it.
    if (failed)
    {
        m_failedSince[rail][port] = Simulator::Now();
        Simulator::Schedule(m_failureHoldDown,
                            &OpusController::ConfirmFailure,
                            this,
                            rail,
                            port,
                            Simulator::Now());
        return;
    }
    m_failedSince[rail].erase(port);
    if (m_ports.Revive(rail, port))
    {
        // Relayed pairs of running communications may get a circuit again.
        Simulator::ScheduleNow(&OpusController::WhenServing,
                               this,
                               std::function<void()>([this, rail]() { Reconnect(rail); }));
        Simulator::ScheduleNow(&OpusController::WhenServing, this, std::function<void()>([this]() {
            ServeQueue();
        }));
        Simulator::ScheduleNow(&OpusController::WhenServing,
                               this,
                               std::function<void()>([this, rail]() { JoinWanted(rail); }));
    }
}

void
OpusController::ConfirmFailure(uint32_t rail, uint32_t port, Time since)
{
    if (IsHolding())
    {
        // The hold-down expired while no controller ran: the standby acts on it at takeover.
        Hold([this, rail, port, since]() { DoConfirmFailure(rail, port, since); });
        return;
    }
    DoConfirmFailure(rail, port, since);
}

void
OpusController::DoConfirmFailure(uint32_t rail, uint32_t port, Time since)
{
    auto failed = m_failedSince[rail].find(port);
    if (failed != m_failedSince[rail].end() && failed->second == since)
    {
        m_ports.MarkDead(rail, port);
        Reconnect(rail);
    }
}

void
OpusController::Reconnect(uint32_t rail)
{
    for (const auto& [instance, lease] : m_leases)
    {
        // The lease's pairs on the rail share its live ports again; a pair without a live
        // circuit gets its share back on free live ports, or as many as are free. A pair
        // left without a live port relays from now (said before the rail changes).
        std::vector<OpusCircuitNeed> needs;
        std::copy_if(lease.needs.begin(),
                     lease.needs.end(),
                     std::back_inserter(needs),
                     [rail](const OpusCircuitNeed& need) { return need.rail == rail; });
        std::vector<OpusCircuitNeed> live;
        std::vector<OpusDemand::Link> relayed;
        m_ports.LiveNeeds(rail, needs, live, relayed);
        for (const OpusDemand::Link& pair : relayed)
        {
            SetRelayed(pair, !m_ports.IsJoined(pair));
        }
        bool joined = std::all_of(live.begin(), live.end(), [rail, this](const auto& need) {
            return m_ports.IsJoined({rail, need.a, need.b});
        });
        if (!joined && !m_static && !RejoinLease(rail, instance, live))
        {
            RejoinPairs(rail, live);
        }
    }
    // Rejoined, repaired, or (a later lease's circuit that an earlier one took back) left
    // without a circuit: every pair says so once all are planned.
    for (const auto& [instance, lease] : m_leases)
    {
        for (const OpusCircuitNeed& need : lease.needs)
        {
            if (need.rail == rail)
            {
                OpusDemand::Link pair{rail, need.a, need.b};
                SetRelayed(pair, !m_ports.IsJoined(pair));
            }
        }
    }
    PlanDetours();
}

void
OpusController::RejoinPairs(uint32_t rail, const std::vector<OpusCircuitNeed>& live)
{
    std::set<OpusDemand::Link> keep = LeasedPairs();
    for (const OpusCircuitNeed& need : live)
    {
        if (!m_ports.IsJoined({rail, need.a, need.b}))
        {
            Rejoin(need, keep);
        }
    }
}

bool
OpusController::RejoinLease(uint32_t rail,
                            const std::string& instance,
                            const std::vector<OpusCircuitNeed>& live)
{
    // Planned as when the lease was served: its own pairs' circuits beyond what it needs
    // (kept from an earlier communication, or planned on ports that were dead then) may
    // move, and so may those of communications served after it (first come, first served:
    // a later one took the ports its relayed pairs lacked, and its traffic may be what
    // waits on theirs). Kept: the pairs of earlier active communications, and its own pairs
    // that the live ports leave without a share (they relay, the others keep theirs).
    std::set<OpusDemand::Link> others;
    uint64_t served = m_leases.at(instance).served;
    for (const auto& [name, lease] : m_leases)
    {
        for (const OpusCircuitNeed& need : lease.needs)
        {
            bool shared = std::any_of(live.begin(), live.end(), [&need](const auto& share) {
                return share.a == need.a && share.b == need.b && share.circuits > 0;
            });
            if (need.rail == rail && (lease.served < served || (name == instance && !shared)))
            {
                others.emplace(rail, need.a, need.b);
            }
        }
    }
    for (const auto& [relayed, detour] : m_detours)
    {
        if (std::get<0>(detour) == rail)
        {
            others.insert(detour); // held for a detour since before this re-plan
        }
    }
    OpusRailChange change;
    change.config = m_ports.GetConfig(rail);
    if (!m_ports.AssignRailPorts(rail, live, change, others))
    {
        return false;
    }
    NS_LOG_INFO("rail " << rail << ": " << instance << " reconnected on its live ports");
    if (!change.connections.empty())
    {
        CircuitRequest repair;
        repair.group = "reconnect:" + instance;
        Order(rail, change, repair);
    }
    m_ports.SetConfig(rail, change.config);
    return true;
}

bool
OpusController::Rejoin(OpusCircuitNeed need, const std::set<OpusDemand::Link>& keep)
{
    for (; need.circuits > 0; --need.circuits)
    {
        OpusRailChange change;
        change.config = m_ports.GetConfig(need.rail);
        if (m_ports.AssignRailPorts(need.rail, {need}, change, keep))
        {
            NS_LOG_INFO("rail " << need.rail << ": GPUs " << need.a << " and " << need.b
                                << " reconnected with " << need.circuits << " circuits");
            CircuitRequest repair;
            repair.group = "reconnect:" + std::to_string(need.a) + "-" + std::to_string(need.b);
            Order(need.rail, change, repair);
            m_ports.SetConfig(need.rail, change.config);
            return true;
        }
    }
    NS_LOG_INFO("rail " << need.rail << ": no free live port joins GPUs " << need.a << " and "
                        << need.b);
    return false;
}

void
OpusController::WantCircuit(uint32_t rail, uint32_t a, uint32_t b)
{
    NS_LOG_FUNCTION(this << rail << a << b);
    if (IsHolding())
    {
        Hold([this, rail, a, b]() { DoWantCircuit(rail, a, b); });
        return;
    }
    DoWantCircuit(rail, a, b);
}

void
OpusController::DoWantCircuit(uint32_t rail, uint32_t a, uint32_t b)
{
    OpusDemand::Link pair{rail, std::min(a, b), std::max(a, b)};
    // A communication's own pair is planned with it (first come, first served).
    if (m_static || m_pairLeases.count(pair) > 0 || m_ports.IsJoined(pair))
    {
        return;
    }
    m_wanted.insert(pair);
    JoinWanted(rail);
}

void
OpusController::JoinWanted(uint32_t rail)
{
    std::set<OpusDemand::Link> keep = LeasedPairs();
    for (auto it = m_wanted.begin(); it != m_wanted.end();)
    {
        auto [wantedRail, a, b] = *it;
        if (wantedRail != rail || m_pairLeases.count(*it) > 0)
        {
            it = m_pairLeases.count(*it) > 0 ? m_wanted.erase(it) : std::next(it);
            continue;
        }
        OpusRailChange change;
        change.config = m_ports.GetConfig(rail);
        if (!m_ports.IsJoined(*it) &&
            !m_ports.AssignRailPorts(rail, {OpusCircuitNeed{rail, a, b, 1}}, change, keep))
        {
            ++it;
            continue;
        }
        if (!change.connections.empty())
        {
            NS_LOG_INFO("rail " << rail << ": GPUs " << a << " and " << b
                                << " joined for detoured data");
            CircuitRequest detour;
            detour.group = "detour:" + std::to_string(a) + "-" + std::to_string(b);
            Order(rail, change, detour);
            m_ports.SetConfig(rail, change.config);
        }
        it = m_wanted.erase(it);
    }
}

std::set<OpusDemand::Link>
OpusController::LeasedPairs() const
{
    std::set<OpusDemand::Link> pairs;
    for (const auto& [pair, count] : m_pairLeases)
    {
        pairs.insert(pair);
    }
    return pairs;
}

void
OpusController::HoldStatic(std::shared_ptr<const OpusDemand> demand)
{
    NS_LOG_FUNCTION(this);
    m_static = true;
    Lease& lease = m_leases["static split"];
    lease.needs = demand->GetNeeds();
    lease.membersLeft = UINT32_MAX; // never released
    for (const OpusCircuitNeed& need : lease.needs)
    {
        ++m_pairLeases[{need.rail, need.a, need.b}];
    }
}

void
OpusController::SetRelayed(const OpusDemand::Link& pair, bool relayed)
{
    if (relayed ? !m_relayed.insert(pair).second : m_relayed.erase(pair) == 0)
    {
        return;
    }
    auto [rail, a, b] = pair;
    NS_LOG_INFO("rail " << rail << ": GPUs " << a << " and " << b
                        << (relayed ? " relay through other GPUs" : " have a circuit again"));
    m_relayTrace(rail, a, b, relayed);
    if (!relayed)
    {
        m_detoursWanted.erase(pair);
        DropDetour(pair);
    }
    else if (!m_static)
    {
        // Its detour gets a circuit of its own once the current planning is done (the
        // communication being served may still add its own pairs to the leases).
        m_detoursWanted.insert(pair);
    }
}

void
OpusController::PlanDetours()
{
    if (m_detoursWanted.empty())
    {
        return;
    }
    for (auto it = m_detoursWanted.begin(); it != m_detoursWanted.end();)
    {
        it = HoldDetour(*it) ? m_detoursWanted.erase(it) : std::next(it);
    }
}

bool
OpusController::HoldDetour(const OpusDemand::Link& pair)
{
    // Without it the detour rides circuits that other communications hold, and waits for
    // good once later requests take them (a GPU's only NIC port dead under on-demand Opus).
    auto [rail, a, b] = pair;
    RailTopology topology(m_tables.size());
    std::vector<OpusDemand::Link> candidates;
    for (uint32_t other = 0; other < m_tables.size(); ++other)
    {
        uint32_t near = topology.RankOf(topology.ServerOf(a), other);
        uint32_t far = topology.RankOf(topology.ServerOf(b), other);
        if (other != rail && m_ports.HasLivePort(other, near) && m_ports.HasLivePort(other, far))
        {
            candidates.emplace_back(other, std::min(near, far), std::max(near, far));
        }
    }
    auto hold = [this, &pair](const OpusDemand::Link& detour) {
        NS_LOG_INFO("rail " << std::get<0>(pair) << ": GPUs " << std::get<1>(pair) << " and "
                            << std::get<2>(pair) << " detour over rail " << std::get<0>(detour)
                            << "'s circuit of GPUs " << std::get<1>(detour) << " and "
                            << std::get<2>(detour));
        ++m_pairLeases[detour];
        m_detours[pair] = detour;
        return true;
    };
    for (const OpusDemand::Link& detour : candidates)
    {
        if (m_ports.IsJoined(detour))
        {
            return hold(detour);
        }
    }
    std::set<OpusDemand::Link> keep = LeasedPairs();
    for (const OpusDemand::Link& detour : candidates)
    {
        auto [other, near, far] = detour;
        OpusRailChange change;
        change.config = m_ports.GetConfig(other);
        if (m_ports.AssignRailPorts(other, {OpusCircuitNeed{other, near, far, 1}}, change, keep))
        {
            CircuitRequest request;
            request.group = "detour:" + std::to_string(near) + "-" + std::to_string(far);
            Order(other, change, request);
            m_ports.SetConfig(other, std::move(change.config));
            return hold(detour);
        }
    }
    return false;
}

void
OpusController::DropDetour(const OpusDemand::Link& pair)
{
    auto found = m_detours.find(pair);
    if (found == m_detours.end())
    {
        return;
    }
    if (--m_pairLeases[found->second] == 0)
    {
        m_pairLeases.erase(found->second);
    }
    m_detours.erase(found);
}

bool
OpusController::AssignPorts(const CircuitRequest& request,
                            std::map<uint32_t, OpusRailChange>& changes) const
{
    return m_ports.AssignDemand(*request.demand, PairsToKeep(request), changes);
}

bool
OpusController::MemberAskedElsewhere(const CircuitRequest& provisioning) const
{
    auto shares = [&provisioning](const std::set<uint32_t>& asked) {
        return std::any_of(asked.begin(), asked.end(), [&provisioning](uint32_t rank) {
            return provisioning.asked.count(rank) > 0;
        });
    };
    for (const auto& [instance, incomplete] : m_incomplete)
    {
        if (instance != provisioning.instance && !incomplete.request.grants.empty() &&
            shares(incomplete.request.asked))
        {
            return true;
        }
    }
    return std::any_of(m_queue.begin(), m_queue.end(), [&](const CircuitRequest& queued) {
        return !queued.speculative && shares(queued.asked);
    });
}

std::set<OpusDemand::Link>
OpusController::PairsToKeep(const CircuitRequest& request) const
{
    std::set<OpusDemand::Link> keep = LeasedPairs();
    if (!request.speculative)
    {
        return keep;
    }
    // What a member of the speculative setup has shown it needs first: a request it made (its
    // actual next communication), or an earlier speculative setup whose communication has not run
    // yet.
    auto keepIfShared = [&keep, &request](const std::set<uint32_t>& ranks,
                                          const OpusDemand& demand) {
        if (std::none_of(ranks.begin(), ranks.end(), [&request](uint32_t rank) {
                return request.asked.count(rank) > 0;
            }))
        {
            return;
        }
        for (const OpusCircuitNeed& need : demand.GetNeeds())
        {
            keep.emplace(need.rail, need.a, need.b);
        }
    };
    for (const auto& [instance, incomplete] : m_incomplete)
    {
        keepIfShared(incomplete.request.asked, *incomplete.request.demand);
    }
    for (const CircuitRequest& queued : m_queue)
    {
        if (!queued.speculative)
        {
            keepIfShared(queued.asked, *queued.demand);
        }
    }
    for (const auto& [instance, setup] : m_setups)
    {
        if (instance != request.instance)
        {
            keepIfShared(setup.members, *setup.demand);
        }
    }
    return keep;
}

void
OpusController::Serve(CircuitRequest request, std::map<uint32_t, OpusRailChange> changes)
{
    NS_LOG_FUNCTION(this << request.group << request.speculative);
    if (request.speculative)
    {
        m_setups[request.instance] = SpeculativeSetup{request.demand, request.asked, {}};
    }
    else
    {
        SettleSpeculativeSetup(request.instance, changes);
        // Its wait until now, as far as no controller ran, is the outage's doing.
        Time stalled = OutageOverlap(request.ready, Simulator::Now());
        if (stalled.IsStrictlyPositive())
        {
            NS_LOG_INFO(request.instance << " stalled " << stalled.As(Time::MS)
                                         << " by the controller's outages");
            m_stall += stalled;
        }
    }
    auto shared = std::make_shared<CircuitRequest>(std::move(request));
    auto left = std::make_shared<uint32_t>(1); // released below, after every wait is known
    Lease lease;
    lease.membersLeft = shared->members;
    for (auto& [rail, change] : changes)
    {
        // Circuits the demand keeps may still be switching for an earlier request.
        for (uint64_t id : m_batcher.InFlightOn(rail, change.used))
        {
            ++*left;
            m_batcher.AddWaiter(id, [this, shared, left]() {
                if (--*left == 0)
                {
                    Grant(*shared);
                }
            });
        }
        if (!change.connections.empty())
        {
            if (!shared->speculative)
            {
                // The speculative setups still switching these ports delay this request.
                m_batcher.MarkSpeculativeInTheWay(rail,
                                                  change.connections,
                                                  m_batcher.Joinable(rail));
            }
            ++*left;
            uint64_t id = Order(rail, change, *shared);
            m_batcher.AddWaiter(id, [this, shared, left]() {
                if (--*left == 0)
                {
                    Grant(*shared);
                }
            });
        }
        m_ports.SetConfig(rail, std::move(change.config));
    }
    ForgetUndoneSetups();
    if (!shared->speculative)
    {
        for (const OpusCircuitNeed& need : shared->demand->GetNeeds())
        {
            lease.needs.push_back(need);
            OpusDemand::Link pair{need.rail, need.a, need.b};
            ++m_pairLeases[pair];
            const auto& relayed = changes[need.rail].relayed;
            SetRelayed(pair, std::find(relayed.begin(), relayed.end(), pair) != relayed.end());
        }
        lease.served = ++m_leasesServed;
        m_leases[shared->instance] = std::move(lease);
        PlanDetours();
    }
    if (--*left == 0)
    {
        Grant(*shared);
    }
}

void
OpusController::SettleSpeculativeSetup(const std::string& instance,
                                       const std::map<uint32_t, OpusRailChange>& changes)
{
    auto setup = m_setups.find(instance);
    if (setup == m_setups.end())
    {
        return;
    }
    bool inPlace = std::all_of(changes.begin(), changes.end(), [](const auto& change) {
        return change.second.connections.empty();
    });
    for (uint64_t id : setup->second.records)
    {
        m_records[id].used = m_records[id].used || inPlace;
    }
    m_setups.erase(setup);
}

void
OpusController::ForgetUndoneSetups()
{
    for (auto it = m_setups.begin(); it != m_setups.end();)
    {
        it = m_ports.IsSetUp(*it->second.demand) ? std::next(it) : m_setups.erase(it);
    }
}

uint64_t
OpusController::Order(uint32_t rail, const OpusRailChange& change, const CircuitRequest& request)
{
    uint64_t id = m_batcher.Order(rail, change.connections, request.group, request.speculative);
    if (request.speculative)
    {
        m_setups[request.instance].records.push_back(id);
    }
    return id;
}

void
OpusController::Grant(const CircuitRequest& request)
{
    if (!request.speculative)
    {
        // Granted during a whole-switch blackout (its circuits were in place, or came up
        // just before another request's blackout): it waits for the blackout's end.
        Lease& lease = m_leases.at(request.instance);
        lease.granted = true;
        std::set<uint32_t> rails;
        for (const OpusCircuitNeed& need : lease.needs)
        {
            rails.insert(need.rail);
        }
        for (uint32_t rail : rails)
        {
            if (m_darkUntil[rail] > Simulator::Now())
            {
                AddWait(request.instance, Simulator::Now(), m_darkUntil[rail]);
            }
        }
        OpusControlPlane::Grant(request.instance, request.ready, request.grants);
    }
}

bool
OpusController::IsHolding() const
{
    return m_down || m_replaying;
}

void
OpusController::WhenServing(std::function<void()> action)
{
    if (IsHolding())
    {
        m_held.push_back(std::move(action)); // a continuation, not a message: not counted
        return;
    }
    action();
}

void
OpusController::Hold(std::function<void()> message)
{
    m_heldMessages += m_down ? 1 : 0; // not those that only queue behind held ones
    m_held.push_back(std::move(message));
}

void
OpusController::Fail()
{
    NS_LOG_FUNCTION(this);
    if (m_down)
    {
        return;
    }
    NS_LOG_INFO("controller down: messages are held until a controller takes over");
    m_down = true;
    m_outages.emplace_back(Simulator::Now(), Time::Max());
    m_outageTrace(true, 0);
}

void
OpusController::TakeOver()
{
    NS_LOG_FUNCTION(this);
    if (!m_down)
    {
        return;
    }
    m_down = false;
    m_outages.back().second = Simulator::Now();
    NS_LOG_INFO("controller up: processing " << m_held.size() << " held messages");
    m_outageTrace(false, m_held.size());
    // In arrival order; what processing them causes (a grant's next request) is held behind.
    m_replaying = true;
    while (!m_held.empty())
    {
        std::function<void()> message = std::move(m_held.front());
        m_held.pop_front();
        message();
    }
    m_replaying = false;
}

bool
OpusController::IsDown() const
{
    return m_down;
}

Time
OpusController::GetStall() const
{
    return m_stall;
}

uint64_t
OpusController::GetHeldMessages() const
{
    return m_heldMessages;
}

Time
OpusController::OutageOverlap(Time from, Time to) const
{
    Time overlap;
    for (const auto& [down, up] : m_outages)
    {
        Time start = std::max(from, down);
        Time end = std::min(to, up);
        if (end > start)
        {
            overlap += end - start;
        }
    }
    return overlap;
}

uint32_t
OpusController::Preset(const std::vector<std::shared_ptr<const OpusDemand>>& demands)
{
    NS_LOG_FUNCTION(this << demands.size());
    std::set<std::pair<uint32_t, uint32_t>> taken;
    uint32_t applied = 0;
    for (const auto& demand : demands)
    {
        auto gpus = GpusOf(*demand);
        if (demand->IsEmpty() || std::any_of(gpus.begin(), gpus.end(), [&taken](const auto& gpu) {
                return taken.count(gpu) > 0;
            }))
        {
            continue;
        }
        taken.insert(gpus.begin(), gpus.end());
        std::map<uint32_t, std::vector<OpusCircuitNeed>> perRail;
        for (const OpusCircuitNeed& need : demand->GetNeeds())
        {
            perRail[need.rail].push_back(need);
        }
        for (const auto& [rail, needs] : perRail)
        {
            OpusRailChange change;
            change.config = m_ports.GetConfig(rail);
            bool fits = m_ports.AssignRailPorts(rail, needs, change, {});
            NS_ABORT_MSG_UNLESS(fits, "OpusController::Preset: a demand does not fit its ports");
            m_ports.SetConfig(rail, std::move(change.config));
        }
        ++applied;
    }
    for (uint32_t rail = 0; rail < m_tables.size(); ++rail)
    {
        const std::map<uint32_t, uint32_t>& config = m_ports.GetConfig(rail);
        OcsConnections circuits(config.begin(), config.end());
        OcsRequestResult result = m_tables[rail]->Preset(circuits);
        NS_ABORT_MSG_UNLESS(result.accepted, "OpusController::Preset: " << result.error);
    }
    return applied;
}

std::vector<std::string>
OpusController::DescribePending() const
{
    NS_LOG_FUNCTION(this);
    std::vector<std::string> lines;
    for (const auto& [instance, incomplete] : m_incomplete)
    {
        if (incomplete.request.grants.empty())
        {
            continue; // only announced by provisioning: nobody waits for it
        }
        lines.push_back("Opus: " + instance + " waits for " + std::to_string(incomplete.missing) +
                        " of " + std::to_string(incomplete.request.members) +
                        " members to ask for its circuits");
    }
    const std::set<std::string>& stuck = m_batcher.GetStuck();
    lines.insert(lines.end(), stuck.begin(), stuck.end());
    for (const auto& [rail, a, b] : m_relayed)
    {
        lines.push_back("Opus: rail " + std::to_string(rail) + ": GPUs " + std::to_string(a) +
                        " and " + std::to_string(b) +
                        " have no live port for a circuit; their traffic relays through other "
                        "GPUs where lit circuits and live ports make a path");
    }
    for (const auto& [rail, a, b] : m_detoursWanted)
    {
        lines.push_back("Opus: rail " + std::to_string(rail) + ": GPUs " + std::to_string(a) +
                        " and " + std::to_string(b) +
                        " wait for free live ports of another rail for their detour's circuit");
    }
    for (const CircuitRequest& request : m_queue)
    {
        lines.push_back(
            "Opus: " +
            (request.speculative ? "speculative request for " + request.group : request.instance) +
            " waits for ports that active communications hold (or for an earlier "
            "request on its GPUs)");
    }
    return lines;
}

} // namespace ns3

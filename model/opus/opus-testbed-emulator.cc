/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-testbed-emulator.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusTestbedEmulator");

NS_OBJECT_ENSURE_REGISTERED(OpusTestbedEmulator);

const std::string OpusTestbedEmulator::TESTBED_IGNORE = "^fsdp\\.allgather\\.[^ ]*\\.bwd";

TypeId
OpusTestbedEmulator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OpusTestbedEmulator")
            .SetParent<OpusControlPlane>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<OpusTestbedEmulator>()
            .AddAttribute("ReconfigurationDelay",
                          "Slept once by a phase start whose circuits are not in the virtual "
                          "topology.",
                          TimeValue(MilliSeconds(25)),
                          MakeTimeAccessor(&OpusTestbedEmulator::m_delay),
                          MakeTimeChecker(Seconds(0), Seconds(1e6)))
            .AddAttribute("ControlLatency",
                          "One-way delay between a shim and the controller, paid twice "
                          "(request, answer) by every phase start.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&OpusTestbedEmulator::m_controlLatency),
                          MakeTimeChecker(Seconds(0), Seconds(1e6)))
            .AddAttribute("AskEveryPointToPoint",
                          "Every send and receive is a phase start (the testbed's on-demand "
                          "shim asked before each); else only a change of demand is.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&OpusTestbedEmulator::m_askEveryPointToPoint),
                          MakeBooleanChecker());
    return tid;
}

OpusTestbedEmulator::OpusTestbedEmulator()
    : m_askEveryPointToPoint(true)
{
    NS_LOG_FUNCTION(this);
}

OpusTestbedEmulator::~OpusTestbedEmulator()
{
    NS_LOG_FUNCTION(this);
}

void
OpusTestbedEmulator::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_incomplete.clear();
    OpusControlPlane::DoDispose();
}

void
OpusTestbedEmulator::Setup(uint32_t gpusPerServer,
                           std::vector<Ptr<CollectiveCommunicator>> communicators)
{
    NS_LOG_FUNCTION(this << gpusPerServer);
    // No ports to share on an electrical testbed: as many as a GPU can have peers.
    auto ports = static_cast<uint32_t>(communicators.size());
    SetUpDemands(gpusPerServer, std::max<uint32_t>(1, ports), std::move(communicators));
}

void
OpusTestbedEmulator::Preset(const std::vector<std::shared_ptr<const OpusDemand>>& demands)
{
    NS_LOG_FUNCTION(this);
    // As OpusController::Preset: a demand that involves a GPU set up already is skipped.
    std::set<std::pair<uint32_t, uint32_t>> taken;
    for (const auto& demand : demands)
    {
        auto gpus = GpusOf(*demand);
        if (std::none_of(gpus.begin(), gpus.end(), [&taken](const auto& gpu) {
                return taken.count(gpu) > 0;
            }))
        {
            taken.insert(gpus.begin(), gpus.end());
            Apply(*demand);
        }
    }
}

OpusTestbedEmulator::IncompleteRequest&
OpusTestbedEmulator::IncompleteRequestOf(const CollectiveCall& call, uint32_t rank)
{
    auto found = m_incomplete.find(call.instance);
    if (found != m_incomplete.end())
    {
        return found->second;
    }
    IncompleteRequest& incomplete = m_incomplete[call.instance];
    incomplete.group = call.instance.substr(0, call.instance.rfind('#'));
    incomplete.demand = GetDemand(call, rank);
    incomplete.pointToPoint =
        call.type == WorkloadOpType::SEND || call.type == WorkloadOpType::RECV;
    incomplete.members = incomplete.pointToPoint ? 2 : static_cast<uint32_t>(call.members.size());
    return incomplete;
}

void
OpusTestbedEmulator::Request(const CollectiveCall& call, uint32_t rank, GrantCallback granted)
{
    NS_LOG_FUNCTION(this << call.instance << rank);
    IncompleteRequest& incomplete = IncompleteRequestOf(call, rank);
    if (incomplete.asked.empty() && !incomplete.ordered)
    {
        incomplete.demand = GetDemand(call, rank); // a real request says what it needs
    }
    incomplete.asked.insert(rank);
    incomplete.announced.insert(rank);
    incomplete.grants.push_back(granted);
    incomplete.lastAsked = Simulator::Now();
    std::string instance = call.instance;
    Order(instance);
    GrantIfComplete(instance);
}

void
OpusTestbedEmulator::Provision(const CollectiveCall& call, uint32_t rank)
{
    NS_LOG_FUNCTION(this << call.instance << rank);
    if (m_served.count(call.instance) > 0 || GetDemand(call, rank)->IsEmpty())
    {
        return;
    }
    IncompleteRequestOf(call, rank).announced.insert(rank);
    Order(call.instance);
}

void
OpusTestbedEmulator::Order(const std::string& instance)
{
    IncompleteRequest& incomplete = m_incomplete.at(instance);
    if (incomplete.ordered || incomplete.announced.size() < incomplete.members)
    {
        return;
    }
    incomplete.ordered = true;
    // Announced early by every member (provisioning) or asked for now, all the same: the
    // controller hears of it when the last member is done with its previous phase.
    bool early = incomplete.asked.size() < incomplete.members;
    std::string key = incomplete.demand->GetKey();
    bool phaseStart = incomplete.pointToPoint && m_askEveryPointToPoint && !early;
    for (uint32_t member : incomplete.announced)
    {
        auto last = m_lastDemand.find(member);
        phaseStart = phaseStart || last == m_lastDemand.end() || last->second != key;
    }
    if (!phaseStart)
    {
        incomplete.ready = true;
        return;
    }
    Simulator::Schedule(m_controlLatency, &OpusTestbedEmulator::Reconfigure, this, instance);
}

void
OpusTestbedEmulator::Reconfigure(std::string instance)
{
    IncompleteRequest& incomplete = m_incomplete.at(instance);
    Time sleep;
    if (!InPlace(*incomplete.demand))
    {
        sleep = m_delay;
        for (const auto& [rail, gpus] : Apply(*incomplete.demand))
        {
            OpusReconfigurationRecord record;
            record.rail = rail;
            record.darkPorts = gpus;
            record.requested = Simulator::Now();
            record.started = Simulator::Now();
            record.ended = Simulator::Now() + m_delay;
            record.groups = {incomplete.group};
            record.speculative = incomplete.asked.size() < incomplete.members;
            record.used = true;
            m_records.push_back(record);
        }
    }
    Simulator::Schedule(sleep + m_controlLatency, &OpusTestbedEmulator::Ready, this, instance);
}

void
OpusTestbedEmulator::Ready(std::string instance)
{
    m_incomplete.at(instance).ready = true;
    GrantIfComplete(instance);
}

void
OpusTestbedEmulator::GrantIfComplete(const std::string& instance)
{
    auto found = m_incomplete.find(instance);
    if (found == m_incomplete.end() || !found->second.ready ||
        found->second.asked.size() < found->second.members)
    {
        return;
    }
    IncompleteRequest incomplete = std::move(found->second);
    m_incomplete.erase(found);
    m_served.insert(instance);
    std::string key = incomplete.demand->GetKey();
    for (uint32_t member : incomplete.asked)
    {
        m_lastDemand[member] = key;
    }
    OpusControlPlane::Grant(instance, incomplete.lastAsked, incomplete.grants);
}

void
OpusTestbedEmulator::Release(const std::string& /* instance */)
{
    NS_LOG_FUNCTION(this);
    // No leases: nothing on the testbed waited for a communication to end.
}

bool
OpusTestbedEmulator::InPlace(const OpusDemand& demand) const
{
    for (const OpusCircuitNeed& need : demand.GetNeeds())
    {
        auto peers = m_peers.find({need.rail, need.a});
        if (peers == m_peers.end() || peers->second.count(need.b) == 0)
        {
            return false;
        }
    }
    return true;
}

std::map<uint32_t, std::vector<uint32_t>>
OpusTestbedEmulator::Apply(const OpusDemand& demand)
{
    std::map<std::pair<uint32_t, uint32_t>, std::set<uint32_t>> wanted;
    for (const OpusCircuitNeed& need : demand.GetNeeds())
    {
        wanted[{need.rail, need.a}].insert(need.b);
        wanted[{need.rail, need.b}].insert(need.a);
    }
    std::map<uint32_t, std::vector<uint32_t>> changed;
    for (const auto& [gpu, peers] : wanted)
    {
        std::set<uint32_t>& now = m_peers[gpu];
        if (now == peers)
        {
            continue;
        }
        for (uint32_t old : now)
        {
            if (peers.count(old) == 0)
            {
                m_peers[{gpu.first, old}].erase(gpu.second);
            }
        }
        now = peers;
        changed[gpu.first].push_back(gpu.second);
    }
    return changed;
}

std::vector<std::string>
OpusTestbedEmulator::DescribePending() const
{
    NS_LOG_FUNCTION(this);
    std::vector<std::string> lines;
    for (const auto& [instance, incomplete] : m_incomplete)
    {
        if (incomplete.asked.empty())
        {
            continue; // only announced: nobody waits for it
        }
        lines.push_back("Opus (testbed emulation): " + instance + " waits for " +
                        std::to_string(incomplete.members - incomplete.asked.size()) + " of " +
                        std::to_string(incomplete.members) + " members to ask for it");
    }
    return lines;
}

} // namespace ns3

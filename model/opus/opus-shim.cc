/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-shim.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/input-text.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusShim");

NS_OBJECT_ENSURE_REGISTERED(OpusShim);

TypeId
OpusShim::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OpusShim")
            .SetParent<CollectiveStarter>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<OpusShim>()
            .AddAttribute("Provisioning",
                          "When to ask for circuits: on demand only, ahead from the second "
                          "iteration with the profiled sequence, or ahead from the first "
                          "with the DAG's sequence (oracle).",
                          EnumValue(OpusShim::ON_DEMAND),
                          MakeEnumAccessor(&OpusShim::m_provisioning),
                          MakeEnumChecker(OpusShim::ON_DEMAND,
                                          "on-demand",
                                          OpusShim::PROVISIONING,
                                          "provisioning",
                                          OpusShim::ORACLE,
                                          "oracle"))
            .AddAttribute("Ignore",
                          "Communications whose op label matches this ECMAScript regular "
                          "expression run without asking (electrical rails only: the "
                          "testbed emulation); empty: none.",
                          StringValue(""),
                          MakeStringAccessor(&OpusShim::m_ignore),
                          MakeStringChecker());
    return tid;
}

OpusShim::OpusShim()
    : m_provisioning(OpusShim::ON_DEMAND)
{
    NS_LOG_FUNCTION(this);
}

OpusShim::~OpusShim()
{
    NS_LOG_FUNCTION(this);
}

std::string
OpusShim::CheckIgnore(const std::string& ignore)
{
    try
    {
        std::regex(ignore, std::regex::ECMAScript);
    }
    catch (const std::regex_error& e)
    {
        return "Ignore " + InputText::Quote(ignore) + " is not a regular expression (" + e.what() +
               ")";
    }
    return "";
}

void
OpusShim::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_communicator = nullptr;
    m_controller = nullptr;
    m_running.clear();
    Object::DoDispose();
}

void
OpusShim::Setup(uint32_t rank,
                Ptr<CollectiveCommunicator> communicator,
                Ptr<OpusControlPlane> controller)
{
    NS_LOG_FUNCTION(this << rank << communicator << controller);
    m_rank = rank;
    m_communicator = communicator;
    m_controller = controller;
}

namespace
{

/// \return \p instance without its "#k"
std::string
NameOf(const std::string& instance)
{
    return instance.substr(0, instance.rfind('#'));
}

/// \return the k of \p instance's "#k"
uint64_t
OrdinalOf(const std::string& instance)
{
    std::size_t hash = instance.rfind('#');
    return hash == std::string::npos ? 0 : std::stoull(instance.substr(hash + 1));
}

} // namespace

void
OpusShim::SetSchedule(const std::vector<ScheduledCall>& calls,
                      uint32_t dagIterations,
                      uint32_t replays)
{
    NS_LOG_FUNCTION(this << calls.size() << dagIterations << replays);
    m_dagIterations = std::max<uint32_t>(1, dagIterations);
    m_iterations = uint64_t(m_dagIterations) * std::max<uint32_t>(1, replays);
    m_uses.clear();
    m_perReplay.clear();
    m_oracle = Sequence{{}, m_dagIterations};
    m_profile = Sequence{{}, 1};
    // Number the uses as the runtime does (k counts a name's uses in op id order), so a
    // speculative request names the very communication the members will ask for.
    for (const ScheduledCall& scheduled : calls)
    {
        const std::string& name = scheduled.call.instance;
        std::vector<Use>& uses = m_uses[name][scheduled.iteration];
        Occurrence occurrence{name, scheduled.iteration, uses.size(), scheduled.call};
        uses.push_back({m_perReplay[name]++, scheduled.call});
        if (!PassesThrough(scheduled.call))
        {
            m_oracle.entries.push_back(occurrence);
        }
    }
}

OpusShim::Occurrence
OpusShim::Locate(const CollectiveCall& call, uint64_t iteration) const
{
    Occurrence o;
    o.name = NameOf(call.instance);
    o.label = iteration % m_dagIterations;
    o.call = call;
    o.call.instance = o.name;
    uint64_t replay = iteration / m_dagIterations;
    uint64_t ordinal = OrdinalOf(call.instance) - replay * m_perReplay.at(o.name);
    const std::vector<Use>& uses = m_uses.at(o.name).at(o.label);
    o.use = std::find_if(uses.begin(),
                         uses.end(),
                         [ordinal](const Use& u) { return u.ordinal == ordinal; }) -
            uses.begin();
    return o;
}

bool
OpusShim::CallAt(const std::string& name,
                 uint64_t iteration,
                 uint64_t use,
                 CollectiveCall& call) const
{
    auto labels = m_uses.find(name);
    if (labels == m_uses.end())
    {
        return false;
    }
    auto uses = labels->second.find(iteration % m_dagIterations);
    if (uses == labels->second.end() || use >= uses->second.size())
    {
        return false;
    }
    uint64_t replay = iteration / m_dagIterations;
    call = uses->second[use].call;
    call.instance =
        name + '#' + std::to_string(replay * m_perReplay.at(name) + uses->second[use].ordinal);
    return true;
}

bool
OpusShim::PassesThrough(const CollectiveCall& call)
{
    if (m_controller->GetDemand(call, m_rank)->IsEmpty())
    {
        return true; // scale-up only: nothing to ask
    }
    if (m_ignore.empty())
    {
        return false;
    }
    if (!m_ignoreRegex)
    {
        std::string error = CheckIgnore(m_ignore);
        NS_ABORT_MSG_UNLESS(error.empty(), "OpusShim: " << error);
        m_ignoreRegex.emplace(m_ignore, std::regex::ECMAScript);
    }
    return std::regex_search(call.label, *m_ignoreRegex);
}

void
OpusShim::StartCommunication(const CollectiveCall& call, uint64_t iteration, DoneCallback done)
{
    NS_LOG_FUNCTION(this << call.instance << iteration);
    if (PassesThrough(call))
    {
        m_communicator->Start(call, done);
        return;
    }
    if (iteration == 0)
    {
        Occurrence profiled = Locate(call, iteration);
        profiled.label = 0; // the profile repeats every iteration
        m_profile.entries.push_back(profiled);
    }
    m_running[call.instance] = Running{call, iteration, done};
    m_controller->Request(call, m_rank, MakeCallback(&OpusShim::Granted, this).Bind(call.instance));
}

void
OpusShim::Granted(std::string instance)
{
    const Running& running = m_running.at(instance);
    m_communicator->Start(running.call, MakeCallback(&OpusShim::Finished, this).Bind(instance));
}

void
OpusShim::Finished(std::string instance)
{
    auto found = m_running.find(instance);
    Running running = std::move(found->second);
    m_running.erase(found);
    m_controller->Release(instance);
    ProvisionAfter(running);
    running.done();
}

void
OpusShim::ProvisionAfter(const Running& done)
{
    bool profiled = m_provisioning == OpusShim::PROVISIONING;
    if (m_provisioning == OpusShim::ON_DEMAND || (profiled && done.iteration == 0))
    {
        return; // the profile is complete once the first iteration is over
    }
    const Sequence& sequence = profiled ? m_profile : m_oracle;
    // Where the finished communication is in the sequence: by its name and use, not by the
    // order calls started in (streams overlap, and start order may vary between iterations).
    Occurrence finished = Locate(done.call, done.iteration);
    finished.label %= sequence.period;
    auto at = std::find_if(sequence.entries.begin(),
                           sequence.entries.end(),
                           [&finished](const Occurrence& o) { return o.Is(finished); });
    if (at == sequence.entries.end())
    {
        return;
    }
    uint64_t period = done.iteration / sequence.period;
    if (++at == sequence.entries.end())
    {
        at = sequence.entries.begin(); // the next period's first communication
        ++period;
    }
    uint64_t iteration = period * sequence.period + at->label;
    if (iteration >= m_iterations)
    {
        return;
    }
    // Announced even when its circuits are those of the communication that just ended: the
    // controller switches once every member has announced (finished its previous phase).
    // The profile gives the order; the call at that place is the DAG's (a labelled
    // iteration need not hold the calls of the profiled one).
    CollectiveCall next;
    if (!CallAt(at->name, iteration, at->use, next))
    {
        return; // that iteration has fewer uses of the name: no prediction
    }
    NS_LOG_INFO("rank " << m_rank << ": announces " << next.instance << " after "
                        << done.call.instance);
    m_controller->Provision(next, m_rank);
}

} // namespace ns3

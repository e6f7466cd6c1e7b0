/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-shim.h"

#include "ns3/enum.h"
#include "ns3/log.h"

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
            .SetParent<Object>()
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
                                          OpusShim::PROFILED,
                                          "profiled",
                                          OpusShim::ORACLE,
                                          "oracle"));
    return tid;
}

OpusShim::OpusShim()
    : m_provisioning(OpusShim::ON_DEMAND)
{
}

OpusShim::~OpusShim() = default;

void
OpusShim::DoDispose()
{
    m_communicator = nullptr;
    m_controller = nullptr;
    m_running.clear();
    Object::DoDispose();
}

void
OpusShim::Setup(uint32_t rank,
                Ptr<CollectiveCommunicator> communicator,
                Ptr<OpusController> controller)
{
    m_rank = rank;
    m_communicator = communicator;
    m_controller = controller;
}

OpusShim::Planned
OpusShim::Plan(const CollectiveCall& call)
{
    std::size_t hash = call.instance.rfind('#');
    return Planned{call,
                   call.instance.substr(0, hash),
                   hash == std::string::npos ? 0 : std::stoull(call.instance.substr(hash + 1))};
}

void
OpusShim::SetSchedule(std::vector<CollectiveCall> calls, uint32_t replays)
{
    // Name the calls as the runtime will (k counts a name's uses in op id order), so a
    // speculative request names the very communication the members will ask for.
    std::map<std::string, uint64_t> uses;
    m_oracle.clear();
    for (CollectiveCall& call : calls)
    {
        call.instance += '#' + std::to_string(uses[call.instance]++);
        if (!m_controller->GetDemand(call, m_rank)->IsEmpty())
        {
            m_oracle.push_back(Plan(call));
        }
    }
    if (m_provisioning == ORACLE)
    {
        m_uses = uses;
    }
    m_replays = replays;
}

void
OpusShim::Start(const CollectiveCall& call, uint32_t replay, DoneCallback done)
{
    if (replay == 0 && m_provisioning == PROFILED)
    {
        ++m_uses[Plan(call).base]; // profiling: every communication counts
    }
    if (m_controller->GetDemand(call, m_rank)->IsEmpty())
    {
        m_communicator->Start(call, done); // scale-up only: nothing to ask
        return;
    }
    if (replay == 0)
    {
        m_profile.push_back(Plan(call));
    }
    m_running[call.instance] = Running{call, replay, done};
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
    bool profiled = m_provisioning == OpusShim::PROFILED;
    if (m_provisioning == OpusShim::ON_DEMAND || (profiled && done.replay == 0))
    {
        return; // the profile is complete once the first iteration is over
    }
    const std::vector<Planned>& sequence = profiled ? m_profile : m_oracle;
    // Where the finished communication is in the sequence: by its name, not by the order
    // calls started in (streams overlap, and start order may vary between iterations).
    Planned finished = Plan(done.call);
    uint64_t uses = std::max<uint64_t>(1, m_uses[finished.base]);
    auto at = std::find_if(sequence.begin(), sequence.end(), [&](const Planned& p) {
        return p.base == finished.base && p.ordinal == finished.ordinal % uses;
    });
    if (at == sequence.end())
    {
        return;
    }
    uint32_t replay = done.replay;
    if (++at == sequence.end())
    {
        at = sequence.begin(); // the next iteration's first communication
        ++replay;
    }
    if (replay >= m_replays)
    {
        return;
    }
    // Announced even when its circuits are those of the communication that just ended: the
    // controller switches once every member has announced (finished its previous phase).
    CollectiveCall next = at->call;
    next.instance = at->base + '#' + std::to_string(replay * m_uses[at->base] + at->ordinal);
    NS_LOG_INFO("rank " << m_rank << ": announces " << next.instance << " after "
                        << done.call.instance);
    m_controller->Provision(next, m_rank);
}

} // namespace ns3

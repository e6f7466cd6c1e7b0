/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rank-runtime.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulation-horizon.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RankRuntime");

NS_OBJECT_ENSURE_REGISTERED(RankRuntime);

namespace
{
enum OpState : uint8_t
{
    NEW = 0,
    RUNNING = 1,
    DONE = 2,
};
} // namespace

TypeId
RankRuntime::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RankRuntime")
                            .SetParent<Application>()
                            .SetGroupName("PhotonicRails")
                            .AddConstructor<RankRuntime>()
                            .AddAttribute("Iterations",
                                          "Times the DAG is replayed back to back.",
                                          UintegerValue(1),
                                          MakeUintegerAccessor(&RankRuntime::m_iterations),
                                          MakeUintegerChecker<uint32_t>(1))
                            .AddTraceSource("OpStart",
                                            "An op started.",
                                            MakeTraceSourceAccessor(&RankRuntime::m_opStart),
                                            "ns3::RankRuntime::OpTracedCallback")
                            .AddTraceSource("OpEnd",
                                            "An op finished.",
                                            MakeTraceSourceAccessor(&RankRuntime::m_opEnd),
                                            "ns3::RankRuntime::OpTracedCallback");
    return tid;
}

RankRuntime::RankRuntime()
    : m_iterations(1)
{
    NS_LOG_FUNCTION(this);
}

RankRuntime::~RankRuntime()
{
    NS_LOG_FUNCTION(this);
}

void
RankRuntime::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_communicator = nullptr;
    m_starter = nullptr;
    m_dag.reset();
    Application::DoDispose();
}

void
RankRuntime::Setup(std::shared_ptr<const WorkloadDag> dag,
                   uint32_t rank,
                   Ptr<CollectiveCommunicator> communicator)
{
    NS_LOG_FUNCTION(this << rank);
    NS_ABORT_MSG_IF(!dag || rank >= dag->GetRankCount(),
                    "RankRuntime: rank " << rank << " is not in the workload");
    m_dag = dag;
    m_rank = rank;
    m_communicator = communicator;
    m_starter = communicator;
    Prepare();
}

uint32_t
RankRuntime::GetRank() const
{
    NS_LOG_FUNCTION(this);
    return m_rank;
}

void
RankRuntime::Prepare()
{
    m_ops.clear();
    for (const WorkloadOp& op : m_dag->GetOps(m_rank))
    {
        m_ops.push_back(&op);
    }
    const std::size_t n = m_ops.size();
    std::map<uint32_t, uint32_t> indexOf;
    for (uint32_t i = 0; i < n; ++i)
    {
        indexOf[m_ops[i]->id] = i;
    }
    m_next.assign(n, {});
    m_inputs.assign(n, 0);
    m_instance.assign(n, "");
    m_ordinal.assign(n, 0);
    m_perReplay.assign(n, 0);
    std::map<std::string, uint32_t> lastOnStream;
    std::map<std::string, uint32_t> uses;
    for (uint32_t i = 0; i < n; ++i)
    {
        const WorkloadOp& op = *m_ops[i];
        std::vector<uint32_t> inputs;
        for (uint32_t dep : op.deps)
        {
            auto it = indexOf.find(dep);
            NS_ABORT_MSG_IF(it == indexOf.end(),
                            "rank " << m_rank << " op " << op.id << ": no op " << dep);
            inputs.push_back(it->second);
        }
        std::string stream = op.stream.empty() ? WorkloadDefaultStream(op.type) : op.stream;
        auto previous = lastOnStream.find(stream);
        if (previous != lastOnStream.end())
        {
            inputs.push_back(previous->second);
        }
        lastOnStream[stream] = i;
        std::sort(inputs.begin(), inputs.end());
        inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
        m_inputs[i] = inputs.size();
        for (uint32_t input : inputs)
        {
            m_next[input].push_back(i);
        }

        m_instance[i] = InstanceOf(op);
        if (op.type != WorkloadOpType::COMPUTE)
        {
            m_ordinal[i] = uses[m_instance[i]]++;
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        m_perReplay[i] = m_ops[i]->type == WorkloadOpType::COMPUTE ? 0 : uses[m_instance[i]];
    }
}

void
RankRuntime::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_dag, "RankRuntime started before Setup");
    m_replay = 0;
    m_done = 0;
    BeginReplay();
}

void
RankRuntime::StopApplication()
{
    NS_LOG_FUNCTION(this);
}

void
RankRuntime::BeginReplay()
{
    m_waitingFor = m_inputs;
    m_state.assign(m_ops.size(), NEW);
    m_left = m_ops.size();
    if (m_left == 0)
    {
        m_replay = m_iterations; // a rank without ops is done at once
        return;
    }
    for (uint32_t i = 0; i < m_ops.size(); ++i)
    {
        if (m_waitingFor[i] == 0)
        {
            StartOp(i);
        }
    }
}

CollectiveCall
RankRuntime::CallOf(const WorkloadDag& dag, const WorkloadOp& op)
{
    NS_LOG_FUNCTION(op.id);
    CollectiveCall call;
    call.type = op.type;
    call.bytes = op.bytes;
    call.algorithm = op.algorithm;
    call.label = op.label;
    if (op.type == WorkloadOpType::SEND || op.type == WorkloadOpType::RECV)
    {
        call.peer = static_cast<uint32_t>(op.peer);
        return call;
    }
    const std::vector<uint32_t>* members = dag.FindGroup(op.group);
    NS_ABORT_MSG_IF(members == nullptr,
                    "rank " << op.rank << " op " << op.id << ": no group '" << op.group << "'");
    call.members = *members;
    call.root = op.root >= 0 ? static_cast<uint32_t>(op.root) : 0;
    return call;
}

std::string
RankRuntime::InstanceOf(const WorkloadOp& op)
{
    NS_LOG_FUNCTION(op.id);
    // Collectives and point-to-point calls are named in separate spaces ("g:", "p:"),
    // so no group name can collide with a send/recv's name.
    std::ostringstream name;
    if (op.type == WorkloadOpType::SEND)
    {
        name << "p:" << op.rank << '>' << op.peer << ':' << op.tag;
    }
    else if (op.type == WorkloadOpType::RECV)
    {
        name << "p:" << op.peer << '>' << op.rank << ':' << op.tag;
    }
    else if (op.type != WorkloadOpType::COMPUTE)
    {
        name << "g:" << op.group;
    }
    return name.str();
}

CollectiveCall
RankRuntime::MakeCall(uint32_t index) const
{
    CollectiveCall call = CallOf(*m_dag, *m_ops[index]);
    call.instance = m_instance[index] + '#' +
                    std::to_string(uint64_t(m_replay) * m_perReplay[index] + m_ordinal[index]);
    return call;
}

void
RankRuntime::StartOp(uint32_t index)
{
    const WorkloadOp& op = *m_ops[index];
    NS_LOG_FUNCTION(this << op.id);
    m_state[index] = RUNNING;
    CheckClock(op);
    m_opStart(op, m_replay);
    if (op.type == WorkloadOpType::COMPUTE)
    {
        Time duration;
        if (EventDelayWithinHorizon(
                op.durationUs * 1e3,
                [this, &op]() {
                    return "rank " + std::to_string(m_rank) + " op " + std::to_string(op.id) +
                           " (compute)";
                },
                duration))
        {
            Simulator::Schedule(duration, &RankRuntime::FinishOp, this, index);
        }
        return;
    }
    auto done = MakeCallback(&RankRuntime::FinishOp, this).Bind(index);
    uint64_t iteration =
        uint64_t(m_replay) * std::max<uint32_t>(1, m_dag->GetIterationCount()) + op.iteration;
    m_starter->StartCommunication(MakeCall(index), iteration, done);
}

void
RankRuntime::FinishOp(uint32_t index)
{
    const WorkloadOp& op = *m_ops[index];
    NS_LOG_FUNCTION(this << op.id);
    m_state[index] = DONE;
    ++m_done;
    CheckClock(op);
    m_opEnd(op, m_replay);
    for (uint32_t next : m_next[index])
    {
        if (--m_waitingFor[next] == 0 && m_state[next] == NEW)
        {
            StartOp(next);
        }
    }
    if (--m_left == 0 && ++m_replay < m_iterations)
    {
        BeginReplay();
    }
}

void
RankRuntime::CheckClock(const WorkloadOp& op)
{
    // Compute ops and reductions are refused before they pass the horizon (DelayWithinHorizon)
    // and JobRunner stops a run there (HorizonGuard); a simulation set up without the guard
    // whose other delays add up past 2^63 ns wraps ns-3's clock to a negative time, which
    // shows here as time going back.
    Time now = Simulator::Now();
    if (now < m_clock)
    {
        throw std::runtime_error(
            "rank " + std::to_string(m_rank) + " op " + std::to_string(op.id) +
            ": the job ran past the simulator's time range (2^63 ns, about 292 years; at " +
            std::to_string(m_clock.GetSeconds()) + " s simulated time wrapped around)");
    }
    m_clock = now;
}

void
RankRuntime::SetStarter(Ptr<CollectiveStarter> starter)
{
    NS_LOG_FUNCTION(this << starter);
    m_starter = starter;
}

uint32_t
RankRuntime::GetIterations() const
{
    NS_LOG_FUNCTION(this);
    return m_iterations;
}

bool
RankRuntime::IsFinished() const
{
    NS_LOG_FUNCTION(this);
    return m_replay >= m_iterations;
}

uint64_t
RankRuntime::GetOpsDone() const
{
    NS_LOG_FUNCTION(this);
    return m_done;
}

uint64_t
RankRuntime::GetOpsTotal() const
{
    NS_LOG_FUNCTION(this);
    return uint64_t(m_ops.size()) * m_iterations;
}

std::vector<std::string>
RankRuntime::DescribeBlocked() const
{
    NS_LOG_FUNCTION(this);
    std::vector<std::string> lines;
    if (IsFinished())
    {
        return lines;
    }
    std::size_t waiting = 0;
    for (uint32_t i = 0; i < m_state.size(); ++i)
    {
        if (m_state[i] == NEW)
        {
            ++waiting;
            continue;
        }
        if (m_state[i] != RUNNING)
        {
            continue;
        }
        const WorkloadOp& op = *m_ops[i];
        std::ostringstream os;
        os << "op " << op.id << " " << WorkloadOpTypeName(op.type);
        if (op.type == WorkloadOpType::SEND || op.type == WorkloadOpType::RECV)
        {
            os << (op.type == WorkloadOpType::SEND ? " to" : " from") << " rank " << op.peer
               << " tag " << op.tag;
        }
        else if (op.type != WorkloadOpType::COMPUTE)
        {
            os << " on " << op.group;
        }
        os << " (" << op.bytes << " bytes) has not finished";
        lines.push_back(os.str());
    }
    std::ostringstream os;
    os << "iteration " << m_replay << ": " << m_left << " ops left, " << waiting << " not started";
    lines.insert(lines.begin(), os.str());
    return lines;
}

} // namespace ns3
